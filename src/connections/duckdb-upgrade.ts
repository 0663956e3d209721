// Data directories written before workspaces had directories of their own kept DuckDB files at the top
// of the data directory, and connections named them by absolute path (the demo's:
// <data dir>/warehouse.duckdb). On start, each such file moves into the directory of the workspace whose
// connection named it first (the demo's into the demo workspace), and every connection is rewritten
// with a path relative to its own workspace's directory. A file named by several workspaces stays with
// the first: the later ones may have reached it only because every workspace once shared one
// directory, so they are left naming a file that is not in theirs, and the operator is told.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { normalisedPath } from '../core/warehouse/duckdb-path.js';
import type { Store } from '../store/db.js';
import { workspaceDirectory, WORKSPACES_DIR } from './workspace-files.js';

/** What the data directory holds besides warehouses: never moved into a workspace. */
const SERVICE_ENTRIES = new Set(['metadata', 'secret.key', 'tls', WORKSPACES_DIR]);

interface LegacyRow {
  id: string;
  workspace_id: string;
  name: string;
  config: Record<string, unknown>;
}

export interface UpgradeOptions {
  store: Store;
  dataDir: string;
  /** Called once per workspace whose connections changed (caches must forget them). */
  changed(workspaceId: string): Promise<void>;
}

/** Moves files and rewrites paths; returns one line per thing the operator should know. Idempotent. */
export async function moveDuckDbFilesIntoWorkspaces({ store, dataDir, changed }: UpgradeOptions): Promise<string[]> {
  const rows = (await store.db
    .selectFrom('connections')
    .select(['id', 'workspace_id', 'name', 'config'])
    .where('engine', '=', 'duckdb')
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as LegacyRow[];
  const legacy = rows.filter((row) => path.isAbsolute(String(row.config.path)));
  const firstToName = new Map<string, LegacyRow>();
  for (const row of legacy) {
    const file = path.resolve(String(row.config.path));
    if (!firstToName.has(file)) firstToName.set(file, row);
  }

  const notes: string[] = [];
  const touched = new Set<string>();
  for (const row of legacy) {
    const file = path.resolve(String(row.config.path));
    const inDataDir = path.relative(dataDir, file);
    const movable = !inDataDir.startsWith('..') && !path.isAbsolute(inDataDir) && !SERVICE_ENTRIES.has(inDataDir.split(path.sep)[0]!);
    const relative = movable ? normalisedPath(inDataDir.split(path.sep).join('/')) : path.basename(file);
    if (movable && firstToName.get(file) === row) {
      const target = path.join(workspaceDirectory(dataDir, row.workspace_id), relative);
      if (existsSync(file) && !existsSync(target)) {
        await moveFile(file, target);
        // A write-ahead log belongs with its database.
        if (existsSync(`${file}.wal`)) await moveFile(`${file}.wal`, `${target}.wal`);
        notes.push(`DuckDB file ${file} moved to ${target} (connection "${row.name}" of workspace ${row.workspace_id})`);
      }
    } else {
      notes.push(
        `Connection "${row.name}" of workspace ${row.workspace_id} named ${file}, which is not its workspace's: it now names ` +
          `"${relative}" in ${workspaceDirectory(dataDir, row.workspace_id)}; copy a file there if that workspace should read it`,
      );
    }
    // Only if no one changed it meanwhile (another instance upgrading the same store).
    const updated = await store.db
      .updateTable('connections')
      .set({ config: JSON.stringify({ path: relative }) })
      .where('id', '=', row.id)
      .where(sql<boolean>`config = ${JSON.stringify(row.config)}::jsonb`)
      .executeTakeFirst();
    if (updated.numUpdatedRows > 0n) touched.add(row.workspace_id);
  }
  for (const workspaceId of touched) await changed(workspaceId);
  return notes;
}

async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    // Another file system under the workspaces directory: copy, then remove.
    if ((error as { code?: unknown }).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from);
  }
}
