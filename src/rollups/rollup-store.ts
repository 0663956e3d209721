// The embedded DuckDB file a workspace's rollups are stored in: <workspace dir>/rollups/rollups.duckdb,
// one table per rollup definition (rollup-table.ts names it). One process owns the file read-write
// (DuckDB allows one writer per file); it writes rows with DuckDB's appender, which casts each value
// from its text to the column's type exactly (a decimal's text to DECIMAL, a timestamp's to TIMESTAMP).
// A partition is replaced in one transaction, its old rows deleted and its new ones appended: readers
// on other connections see the old partition until the commit, never a half-built one. Writes share
// the writer connection, so they are queued: one transaction at a time.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { readRows } from '../core/warehouse/duckdb.js';
import { buildResult } from '../core/warehouse/run-support.js';
import type { RunResult, WarehouseValue } from '../core/warehouse/types.js';
import { workspaceDirectory } from '../connections/workspace-files.js';
import type { WallRange } from '../core/semantic/rollup-build-sql.js';
import { formatWall } from '../core/semantic/time.js';

/** The rollup file of a workspace. */
export function rollupStorePath(dataDir: string, workspaceId: string): string {
  return path.join(workspaceDirectory(dataDir, workspaceId), 'rollups', 'rollups.duckdb');
}

export interface StoredColumn {
  readonly name: string;
  /** A DuckDB type, as rollup-table.ts chose it. */
  readonly type: string;
}

/** Where a replace writes: the rows of one partition of the time bucket column, or the whole table. */
export interface PartitionTarget {
  readonly timeColumn: string;
  readonly range: WallRange;
}

export class RollupStore {
  /** The write under way: writes share one connection, so they go one after the other. */
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
  ) {}

  /** Opens (creating) the file; no file or network access from SQL, as for warehouse DuckDB files. */
  static async open(file: string): Promise<RollupStore> {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const instance = await DuckDBInstance.create(file, { enable_external_access: 'false' });
    return new RollupStore(instance, await instance.connect());
  }

  /** Column types of a stored table, or undefined when it was never built. */
  async columnTypes(table: string): Promise<Map<string, string> | undefined> {
    const result = await this.writer.runAndReadAll('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [table]);
    const rows = result.getRows();
    if (rows.length === 0) return undefined;
    return new Map(rows.map(([name, type]) => [String(name), String(type)]));
  }

  /**
   * Replaces a partition (or, without `target`, every row) of `table` by the rows `batches` yields,
   * creating the table first if needed. One transaction: a failure anywhere leaves the old rows.
   * Returns the rows written.
   */
  replace(table: string, columns: readonly StoredColumn[], target: PartitionTarget | undefined, batches: AsyncIterable<ReadonlyArray<readonly WarehouseValue[]>>): Promise<number> {
    const write = this.writing.then(() => this.replaceNow(table, columns, target, batches));
    this.writing = write.catch(() => undefined);
    return write;
  }

  private async replaceNow(table: string, columns: readonly StoredColumn[], target: PartitionTarget | undefined, batches: AsyncIterable<ReadonlyArray<readonly WarehouseValue[]>>): Promise<number> {
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    await this.writer.run(`CREATE TABLE IF NOT EXISTS ${quote(table)} (${columns.map((c) => `${quote(c.name)} ${c.type}`).join(', ')})`);
    await this.writer.run('BEGIN TRANSACTION');
    let written = 0;
    try {
      if (target) {
        const bucket = quote(target.timeColumn);
        await this.writer.run(`DELETE FROM ${quote(table)} WHERE ${bucket} >= CAST($1 AS TIMESTAMP) AND ${bucket} < CAST($2 AS TIMESTAMP)`, [
          formatWall(target.range.start),
          formatWall(target.range.end),
        ]);
      } else {
        await this.writer.run(`DELETE FROM ${quote(table)}`);
      }
      const appender = await this.writer.createAppender(table);
      try {
        for await (const batch of batches) {
          for (const row of batch) {
            for (const value of row) appendValue(appender, value);
            appender.endRow();
          }
          // Each batch goes to the table before the next is read: memory holds one batch.
          appender.flushSync();
          written += batch.length;
        }
      } finally {
        appender.closeSync();
      }
      await this.writer.run('COMMIT');
    } catch (error) {
      await this.writer.run('ROLLBACK');
      throw error;
    }
    return written;
  }

  /** Runs a read on a connection of its own (not the writer's, so it never sees an open replace). */
  async query(sql: string, params: readonly unknown[], maxRows: number): Promise<RunResult> {
    const startedAt = performance.now();
    const connection = await this.instance.connect();
    try {
      const prepared = await connection.prepare(sql);
      try {
        prepared.bind(params as DuckDBValue[]);
        const result = await prepared.stream();
        const { columns, rows } = await readRows(result, maxRows + 1);
        return buildResult(columns, rows, maxRows, startedAt);
      } finally {
        prepared.destroySync();
      }
    } finally {
      connection.closeSync();
    }
  }

  close(): void {
    this.writer.closeSync();
    this.instance.closeSync();
  }
}

type Appender = Awaited<ReturnType<DuckDBConnection['createAppender']>>;

/** A value as the driver read it (see WarehouseValue): its text is cast to the column's type. */
function appendValue(appender: Appender, value: WarehouseValue): void {
  if (value === null) appender.appendNull();
  else if (typeof value === 'boolean') appender.appendBoolean(value);
  else appender.appendVarchar(String(value));
}
