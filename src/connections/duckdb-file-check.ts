// Which DuckDB connections name a file this instance cannot find. A DuckDB file lives in the data
// directory of the instance that reads it (workspaces/<workspace id>/), while its connection lives in the
// metadata store: instances that share the store but not the workspaces directory each see their own
// files, and a connection saved through one fails on the others. /readyz reports what this instance
// lacks (docs/operations.md, "Several instances"), without failing readiness: one workspace's missing
// file fails only that connection's runs.
import type { Clock } from '../clock.js';
import { resolveConfined } from '../core/warehouse/duckdb-path.js';
import type { Store } from '../store/db.js';
import { workspaceDirectory } from './workspace-files.js';

export interface MissingDuckDbFile {
  workspace_id: string;
  connection_id: string;
  connection: string;
  path: string;
}

export interface DuckDbFileReport {
  /** DuckDB connections checked, of every workspace. */
  checked: number;
  missing: MissingDuckDbFile[];
}

/**
 * How long a reading is kept: /readyz is public and probed every few seconds, and each reading is a
 * query over every DuckDB connection and a walk of each path.
 */
export const DUCKDB_FILE_CHECK_MAX_AGE_MS = 10_000;

/** Whether the file a DuckDB path names is absent from the workspace's directory (on this instance). */
export function duckDbFileMissing(directory: string, relative: string): boolean {
  return resolveConfined(directory, relative).kind === 'missing';
}

export class DuckDbFileCheck {
  private last: { atMs: number; report: Promise<DuckDbFileReport> } | undefined;

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  /** The DuckDB connections whose file this instance lacks, read at most every DUCKDB_FILE_CHECK_MAX_AGE_MS. */
  report(): Promise<DuckDbFileReport> {
    const nowMs = this.clock.now().getTime();
    if (this.last && nowMs - this.last.atMs < DUCKDB_FILE_CHECK_MAX_AGE_MS) return this.last.report;
    const report = this.read();
    this.last = { atMs: nowMs, report };
    // A failed reading (the store did not answer) is not kept: the next probe reads again.
    report.catch(() => {
      if (this.last?.report === report) this.last = undefined;
    });
    return report;
  }

  private async read(): Promise<DuckDbFileReport> {
    const rows = await this.store.db
      .selectFrom('connections')
      .select(['id', 'workspace_id', 'name', 'config'])
      .where('engine', '=', 'duckdb')
      .orderBy('workspace_id')
      .orderBy('name')
      .execute();
    const missing = rows
      .filter((row) => duckDbFileMissing(workspaceDirectory(this.dataDir, row.workspace_id), String(row.config.path)))
      .map((row) => ({ workspace_id: row.workspace_id, connection_id: row.id, connection: row.name, path: String(row.config.path) }));
    return { checked: rows.length, missing };
  }
}
