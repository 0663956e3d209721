// The embedded DuckDB file a workspace's rollups are stored in: <data dir>/rollups/<workspace id>/rollups.duckdb,
// one table per rollup definition (rollup-table.ts names it). Not under the workspace's own directory:
// a DuckDB connection of the workspace may name any file there, and would read every stored row past
// the data keys that apply when a rollup is read. One process owns the file read-write (DuckDB allows
// one writer per file); it writes rows with DuckDB's appender, which casts each value from its text to
// the column's type exactly (a decimal's text to DECIMAL, a timestamp's to TIMESTAMP).
// A partition is replaced in one transaction, its old rows deleted and its new ones appended: readers
// on other connections see the old partition until the commit, never a half-built one. Writes share
// the writer connection, so they are queued: one transaction at a time.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { readRows } from '../core/warehouse/duckdb.js';
import { runCollected } from '../core/warehouse/run-support.js';
import type { ColumnInfo, RowSink, RunResult, WarehouseValue } from '../core/warehouse/types.js';
import { checkedWorkspaceId } from '../connections/workspace-files.js';
import type { WallRange } from '../core/semantic/rollup-build-sql.js';
import { formatWall } from '../core/semantic/time.js';
import type { RollupStorage } from './rollup-storage.js';

/** Sub-directory of the data directory that holds one directory of rollups per workspace. */
export const ROLLUPS_DIR = 'rollups';

/** The rollup file of a workspace, outside every workspace's directory of DuckDB files. */
export function rollupStorePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, ROLLUPS_DIR, checkedWorkspaceId(workspaceId), 'rollups.duckdb');
}

/** Where a replace writes: the rows of one partition of the time bucket column, or the whole table. */
export interface PartitionTarget {
  readonly timeColumn: string;
  readonly range: WallRange;
}

export class RollupStore implements RollupStorage {
  readonly kind = 'embedded' as const;
  readonly engine = 'duckdb' as const;
  /** The write under way: writes share one connection, so they go one after the other. */
  private writing: Promise<unknown> = Promise.resolve();
  /**
   * Idle read connections, reused: opening one costs about a millisecond, a good part of a rollup
   * answer's time. A connection goes back only after a read that left no result half-read.
   */
  private readonly idleReaders: DuckDBConnection[] = [];
  /**
   * Column types of the stored tables by name. A table's name carries a hash of its definition, so its
   * columns never change while it exists; only a drop forgets them.
   */
  private readonly knownColumns = new Map<string, Map<string, string>>();

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

  /** The file is the workspace's own: a table is stored under its rollup's name. */
  stored(table: string): string {
    return table;
  }

  /** Column types of a stored table, or undefined when it was never built. */
  async columnTypes(table: string): Promise<Map<string, string> | undefined> {
    const known = this.knownColumns.get(table);
    if (known) return known;
    const rows = await this.readCatalog('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [table]);
    if (rows.length === 0) return undefined;
    const types = new Map(rows.map(([name, type]) => [String(name), String(type)]));
    this.knownColumns.set(table, types);
    return types;
  }

  /**
   * Replaces a partition (or, without `target`, every row) of `table` by the rows `fill` gives the sink
   * it is handed: the stored columns once, with DuckDB types (the table is created with them if needed), then rows batch
   * by batch, each appended before the call returns, so a source streaming into it holds one batch in
   * memory. One transaction: a failure anywhere (`fill` rejecting included) leaves the old rows.
   * Returns the rows written.
   */
  replace(table: string, target: PartitionTarget | undefined, fill: (sink: RowSink) => Promise<unknown>): Promise<number> {
    const write = this.writing.then(() => this.replaceNow(table, target, fill));
    this.writing = write.catch(() => undefined);
    return write;
  }

  private async replaceNow(table: string, target: PartitionTarget | undefined, fill: (sink: RowSink) => Promise<unknown>): Promise<number> {
    const writer = new PartitionWriter(this.writer, table, target);
    try {
      await fill(writer);
      return await writer.commit();
    } catch (error) {
      await writer.rollback();
      throw error;
    }
  }

  /** Runs a read on a connection of its own (not the writer's, so it never sees an open replace). */
  async query(sql: string, params: readonly unknown[], maxRows: number): Promise<RunResult> {
    const connection = this.idleReaders.pop() ?? (await this.instance.connect());
    let readToEnd = false;
    try {
      const prepared = await connection.prepare(sql);
      try {
        prepared.bind(params as DuckDBValue[]);
        const result = await prepared.stream();
        // The drivers' reader: also a result that fails after its first chunks fails the read.
        return await runCollected(async (sink) => {
          readToEnd = await readRows(result, maxRows + 1, sink, () => undefined);
        }, maxRows);
      } finally {
        prepared.destroySync();
      }
    } finally {
      this.release(connection, readToEnd);
    }
  }

  private release(connection: DuckDBConnection, reusable: boolean): void {
    if (reusable && this.idleReaders.length < MAX_IDLE_READERS) this.idleReaders.push(connection);
    else connection.closeSync();
  }

  /** Deletes the rows of one time range of a stored table (partitions that left a moving build range). */
  clear(table: string, target: PartitionTarget): Promise<void> {
    const write = this.writing.then(async () => {
      if ((await this.columnTypes(table)) === undefined) return;
      await this.writer.run(`DELETE FROM ${quote(table)} WHERE ${quote(target.timeColumn)} >= CAST($1 AS TIMESTAMP) AND ${quote(target.timeColumn)} < CAST($2 AS TIMESTAMP)`, [
        formatWall(target.range.start),
        formatWall(target.range.end),
      ]);
    });
    this.writing = write.catch(() => undefined);
    return write;
  }

  /** The stored tables. */
  async tables(): Promise<string[]> {
    const rows = await this.readCatalog("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name", []);
    return rows.map(([name]) => String(name));
  }

  /**
   * Reads the catalog on a connection of its own: the writer's may be in the middle of a replace (a
   * connection runs one statement at a time), and a read there would break it.
   */
  private async readCatalog(sql: string, params: DuckDBValue[]): Promise<DuckDBValue[][]> {
    const connection = this.idleReaders.pop() ?? (await this.instance.connect());
    let done = false;
    try {
      const rows = (await connection.runAndReadAll(sql, params)).getRows();
      done = true;
      return rows;
    } finally {
      this.release(connection, done);
    }
  }

  async dropOthers(keep: ReadonlySet<string>): Promise<string[]> {
    const others = (await this.tables()).filter((table) => !keep.has(table));
    for (const table of others) await this.drop(table);
    return others;
  }

  /** Not cheaply known per table: the overview gives the file's size (rollup-overview.ts). */
  tableBytes(): Promise<number | null> {
    return Promise.resolve(null);
  }

  /** Drops a stored table (a definition no longer in the model), queued after the writes under way. */
  drop(table: string): Promise<void> {
    const write = this.writing.then(async () => {
      this.knownColumns.delete(table);
      await this.writer.run(`DROP TABLE IF EXISTS ${quote(table)}`);
    });
    this.writing = write.catch(() => undefined);
    return write;
  }

  close(): void {
    for (const reader of this.idleReaders.splice(0)) reader.closeSync();
    this.writer.closeSync();
    this.instance.closeSync();
  }
}

/** Idle read connections kept for reuse; answers beyond this many at once open their own. */
const MAX_IDLE_READERS = 4;

type Appender = Awaited<ReturnType<DuckDBConnection['createAppender']>>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One replace as a sink: its columns create the table and open the transaction that deletes the
 * partition's rows; each batch of rows is appended and flushed to the table before the next is read.
 */
class PartitionWriter implements RowSink {
  private appender: Appender | undefined;
  private begun = false;
  private written = 0;

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly table: string,
    private readonly target: PartitionTarget | undefined,
  ) {}

  async columns(columns: readonly ColumnInfo[]): Promise<void> {
    if (this.begun) throw new Error(`The columns of rollup table ${this.table} were given twice`);
    const table = quote(this.table);
    await this.connection.run(`CREATE TABLE IF NOT EXISTS ${table} (${columns.map((c) => `${quote(c.name)} ${c.type}`).join(', ')})`);
    await this.connection.run('BEGIN TRANSACTION');
    this.begun = true;
    if (this.target) {
      const bucket = quote(this.target.timeColumn);
      await this.connection.run(`DELETE FROM ${table} WHERE ${bucket} >= CAST($1 AS TIMESTAMP) AND ${bucket} < CAST($2 AS TIMESTAMP)`, [
        formatWall(this.target.range.start),
        formatWall(this.target.range.end),
      ]);
    } else {
      await this.connection.run(`DELETE FROM ${table}`);
    }
    this.appender = await this.connection.createAppender(this.table);
  }

  rows(batch: readonly (readonly WarehouseValue[])[]): void {
    if (!this.appender) throw new Error(`Rows came before the columns of rollup table ${this.table}`);
    for (const row of batch) {
      for (const value of row) appendValue(this.appender, value);
      this.appender.endRow();
    }
    // Each batch goes to the table before the next is read: memory holds one batch.
    this.appender.flushSync();
    this.written += batch.length;
  }

  async commit(): Promise<number> {
    if (!this.begun) throw new Error(`No columns were given for rollup table ${this.table}`);
    this.closeAppender();
    await this.connection.run('COMMIT');
    return this.written;
  }

  async rollback(): Promise<void> {
    try {
      this.closeAppender();
    } finally {
      // Rows the appender still held are the failed build's: they go with the transaction.
      if (this.begun) await this.connection.run('ROLLBACK');
    }
  }

  private closeAppender(): void {
    const appender = this.appender;
    this.appender = undefined;
    appender?.closeSync();
  }
}

/** A value as the driver read it (see WarehouseValue): its text is cast to the column's type. */
function appendValue(appender: Appender, value: WarehouseValue): void {
  if (value === null) appender.appendNull();
  else if (typeof value === 'boolean') appender.appendBoolean(value);
  else appender.appendVarchar(String(value));
}
