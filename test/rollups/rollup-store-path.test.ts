// The rollup file holds every row of every rollup, data keys not yet applied (they apply when a rollup
// is read): it must lie outside the directory a workspace's DuckDB connections may name, or such a
// connection could read it whole. Each way a relative path could reach it is refused: its own relative
// spelling, the spelling it had inside the workspace's directory, and symbolic links planted there.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDuckDbPath, workspaceDirectory } from '../../src/connections/workspace-files.js';
import { resolveConfined } from '../../src/core/warehouse/duckdb-path.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import { RollupStore, rollupStorePath } from '../../src/rollups/rollup-store.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'rollup-path-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('rollupStorePath', () => {
  it('lies outside the workspace directory: no relative path of a DuckDB connection there names it', async () => {
    const workspaceId = randomUUID();
    const file = rollupStorePath(dataDir, workspaceId);
    const store = await RollupStore.open(file);
    try {
      await store.replace('secret', undefined, async (sink) => {
        await sink.columns([{ name: 'n', type: 'INTEGER' }]);
        sink.rows([[42]]);
      });
    } finally {
      store.close();
    }
    const directory = workspaceDirectory(dataDir, workspaceId);
    mkdirSync(directory, { recursive: true });
    const relative = path.relative(realpathSync(directory), realpathSync(file));
    expect(relative.split(path.sep)[0]).toBe('..');

    // Its own relative spelling climbs out: refused before the file system is asked.
    expect(() => checkDuckDbPath(directory, relative)).toThrow('must not contain ".."');
    // Where it used to be, there is nothing.
    expect(resolveConfined(directory, 'rollups/rollups.duckdb')).toEqual({ kind: 'missing' });
    // Links to the file, or to its directory, lead outside and are refused.
    symlinkSync(file, path.join(directory, 'rollups.duckdb'));
    symlinkSync(path.dirname(file), path.join(directory, 'stored'));
    for (const linked of ['rollups.duckdb', 'stored/rollups.duckdb']) {
      expect(resolveConfined(directory, linked)).toEqual({ kind: 'outside' });
      expect(() => checkDuckDbPath(directory, linked)).toThrow("leads outside the workspace's directory");
      const warehouse = openWarehouse({ engine: 'duckdb', path: linked, root: directory });
      try {
        await expect(warehouse.run('SELECT n FROM secret', [], { maxRows: 1, timeoutMs: 5_000 })).rejects.toThrow(`the path "${linked}" leads outside this workspace's directory`);
      } finally {
        await warehouse.close();
      }
    }
  });

  it('refuses a workspace id that is not one, so no id names another directory', () => {
    expect(() => rollupStorePath(dataDir, '../workspaces/x')).toThrow('A workspace id is a UUID');
  });
});
