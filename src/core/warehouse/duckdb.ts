// DuckDB driver (embedded). Read-only by construction:
// - the file is opened with access_mode=READ_ONLY, external access off (no files, no network, no
//   ATTACH of other files), extension autoload/autoinstall off, and the configuration locked so that
//   a statement cannot `SET` any of it back;
// - exactly one statement, and only a SELECT or EXPLAIN one (statement types checked after parsing);
// - connections are reused (a few kept idle): with only SELECT and EXPLAIN allowed and the
//   configuration locked, a run cannot create temporary tables, set variables or change settings, and
//   its prepared statement is destroyed afterwards; a connection interrupted or left with unread rows
//   is closed instead of reused;
// - the statement is parsed once: prepare() refuses several statements before running any.
// - a timer interrupts the connection past the time limit, and so does the caller's cancel.
// A file another process is writing cannot be opened read-only at the same time: loaders close first.
// With a `root`, the file must lie inside it, symbolic links followed, each time it is opened; what
// DuckDB says about it then names it by its relative path only.
import {
  DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBValue,
  StatementType,
} from '@duckdb/node-api';
import { resolveConfined } from './duckdb-path.js';
import { duckDbConverter } from './duckdb-values.js';
import { queryFailed, readOnlyRefused, statementRefused, unreachable, WarehouseError } from './errors.js';
import { DEFAULT_MAX_CONNECTIONS, type PoolOptions } from './pool-options.js';
import { checkRunOptions, RunStop, runCollected, SCHEMA_RUN_OPTIONS, stoppedError, streamCapped, uniqueNames, type StopReason } from './run-support.js';
import { groupSchemaRows } from './schema-rows.js';
import type { ConnectionConfig, ConnectionInspection, PoolStats, RowSink, RunOptions, RunResult, SchemaTable, StreamSummary, Warehouse, WarehouseValue } from './types.js';

type DuckDbConfig = Extract<ConnectionConfig, { engine: 'duckdb' }>;

const ENGINE = 'DuckDB';

/** Settings applied when the file is opened; lock_configuration makes them final. */
export const DUCKDB_READ_ONLY_SETTINGS: Readonly<Record<string, string>> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
  // DuckDB 1.5.1 to 1.5.5 answer wrongly when two parts of a query join the same tables and keep
  // different columns (duckdb/duckdb#25819): the common-subplan optimizer reads both from one copy. A
  // query aggregating two nodes apart over one join (an order's revenue and its customers, by product
  // category) does exactly that. Without the optimizer the answer is right; the fix ships after 1.5.5.
  disabled_optimizers: 'common_subplan',
  lock_configuration: 'true',
};

const ALLOWED_STATEMENTS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);

const SCHEMA_SQL = `
  select schema_name as schema, table_name as name, column_name, data_type as column_type
  from duckdb_columns()
  where not internal and database_name = current_database()
    and schema_name not in ('information_schema', 'pg_catalog')
  order by schema_name, table_name, column_index`;

export class DuckDbWarehouse implements Warehouse {
  readonly engine = 'duckdb' as const;
  private instance: Promise<DuckDBInstance> | undefined;
  /** The real path of the file opened under `root`, to keep it out of messages. */
  private openedFile: string | undefined;
  /** Connections of the current instance waiting for the next run. */
  private idle: DuckDBConnection[] = [];
  /** Connections lent to runs under way (for poolStats). */
  private busy = 0;
  /** The instance once open (idle connections belong to it). */
  private opened: DuckDBInstance | undefined;
  private readonly maxIdle: number;

  constructor(
    private readonly config: DuckDbConfig,
    options: PoolOptions = {},
  ) {
    this.maxIdle = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  }

  run(sql: string, params: readonly unknown[], options: RunOptions): Promise<RunResult> {
    return runCollected((sink) => this.read(sql, params, options, sink), options.maxRows);
  }

  stream(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<StreamSummary> {
    return streamCapped((capped) => this.read(sql, params, options, capped), sink, options.maxRows);
  }

  /** Runs the statement and hands its rows to `sink` chunk by chunk, maxRows + 1 at most. */
  private async read(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<void> {
    checkRunOptions(ENGINE, options);
    const instance = await this.openInstance();
    const connection = this.idle.pop() ?? (await this.connectTo(instance));
    this.busy++;
    let interrupted = false;
    let reusable = false;
    let streaming = false;
    // DuckDB has no server-side statement timeout: the timer is the limit.
    const stop = new RunStop(options.timeoutMs, options.signal, () => {
      interrupted = true;
      connection.interrupt();
    });
    let prepared: DuckDBPreparedStatement | undefined;
    try {
      // Cancelled while it waited for the file, or while the statement was prepared: nothing runs.
      stop.check(ENGINE, options.timeoutMs);
      prepared = await prepareOne(connection, sql);
      stop.check(ENGINE, options.timeoutMs);
      prepared.bind(params as DuckDBValue[]);
      streaming = true;
      const result = await prepared.stream();
      const complete = await readRows(result, options.maxRows + 1, stop.guard(sink, ENGINE, options.timeoutMs), () => stop.check(ENGINE, options.timeoutMs));
      // An interrupt may end the result early instead of failing it.
      stop.check(ENGINE, options.timeoutMs);
      reusable = complete;
    } catch (error) {
      // A statement refused or failing before it ran leaves nothing behind; one stopped while running
      // is not trusted.
      reusable = !interrupted && !streaming;
      throw translate(error, options.timeoutMs, stop.reason, (message) => this.hideOpenedFile(message));
    } finally {
      stop.end();
      prepared?.destroySync();
      this.busy--;
      this.release(instance, connection, reusable && !interrupted);
    }
  }

  async schema(): Promise<SchemaTable[]> {
    const result = await this.run(SCHEMA_SQL, [], SCHEMA_RUN_OPTIONS);
    return groupSchemaRows(result.rows);
  }

  /** Nothing to check: the file is opened read-only, without file or network access (see above). */
  async inspect(): Promise<ConnectionInspection> {
    // Opening the file is the check that matters: a file that cannot be opened fails here as in a run.
    const instance = await this.openInstance();
    this.release(instance, await this.connectTo(instance), true);
    return { privileges: { superuser: false, canWrite: false, readsCredentials: false, readsServerFiles: false, evidence: {} } };
  }

  /** Runs never wait here: each takes an idle connection or opens one. */
  poolStats(): PoolStats {
    return { total: this.busy + this.idle.length, idle: this.idle.length, waiting: 0 };
  }

  async close(): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    this.opened = undefined;
    for (const connection of this.idle.splice(0)) connection.closeSync();
    if (instance) (await instance.catch(() => undefined))?.closeSync();
  }

  private async openInstance(): Promise<DuckDBInstance> {
    this.instance ??= this.openFile();
    try {
      const instance = await this.instance;
      this.opened = instance;
      return instance;
    } catch (error) {
      // A failed open is not cached: the file may appear (or its writer close) later.
      this.instance = undefined;
      throw error instanceof WarehouseError ? error : unreachable(ENGINE, this.hidePaths(messageOf(error)));
    }
  }

  private async connectTo(instance: DuckDBInstance): Promise<DuckDBConnection> {
    try {
      return await instance.connect();
    } catch (error) {
      throw unreachable(ENGINE, this.hidePaths(messageOf(error)));
    }
  }

  /** Keeps the connection for the next run when it can be trusted and its instance is still the open one. */
  private release(instance: DuckDBInstance, connection: DuckDBConnection, reusable: boolean): void {
    if (reusable && this.opened === instance && this.idle.length < this.maxIdle) this.idle.push(connection);
    else connection.closeSync();
  }

  private async openFile(): Promise<DuckDBInstance> {
    const { path, root, instance } = this.config;
    if (root === undefined) return DuckDBInstance.create(path, { ...DUCKDB_READ_ONLY_SETTINGS });
    const found = resolveConfined(root, path);
    switch (found.kind) {
      case 'file':
        this.openedFile = found.file;
        return DuckDBInstance.create(found.file, { ...DUCKDB_READ_ONLY_SETTINGS });
      case 'missing':
        throw unreachable(ENGINE, `there is no file "${path}" in this workspace's directory${instance === undefined ? '' : ` on instance "${instance}"`}`);
      case 'not-a-file':
        throw unreachable(ENGINE, `"${path}" is not a file`);
      case 'outside':
        throw unreachable(ENGINE, `the path "${path}" leads outside this workspace's directory`);
      case 'too-many-links':
        throw unreachable(ENGINE, `the path "${path}" goes through too many symbolic links`);
    }
  }

  /**
   * In a run's error, the file's place on the server (say, a read that failed) becomes its relative
   * path; any other path in the message is the user's own SQL's and stays.
   */
  private hideOpenedFile(message: string): string {
    if (this.config.root === undefined || this.openedFile === undefined) return message;
    return message.split(this.openedFile).join(this.config.path);
  }

  /** DuckDB quotes the file it opened: with a root, the server's directories are not the user's business. */
  private hidePaths(message: string): string {
    const { path, root } = this.config;
    if (root === undefined) return message;
    return message
      .replace(/"\/[^"]*"/g, `"${path}"`)
      .replace(/'\/[^']*'/g, `'${path}'`)
      .replace(/(^|[\s(=])\/[^\s"')]+/g, '$1…');
  }
}

/** Prepares the SQL (parsed once) and keeps it only when it is exactly one allowed statement. */
async function prepareOne(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await connection.prepare(sql);
  } catch (error) {
    // prepare() parses every statement and refuses several before running any of them.
    const message = messageOf(error);
    if (/Cannot prepare multiple statements/i.test(message)) throw statementRefused(ENGINE, 'only one statement can run at a time');
    if (/No statement to prepare/i.test(message)) throw statementRefused(ENGINE, 'no statement to run');
    throw error;
  }
  if (!ALLOWED_STATEMENTS.has(prepared.statementType)) {
    prepared.destroySync();
    throw statementRefused(ENGINE, 'only statements that return rows can run (SELECT, WITH, VALUES, SHOW, DESCRIBE, EXPLAIN)');
  }
  return prepared;
}

/**
 * Reads chunk by chunk (DuckDB's own vectors, 2,048 rows) into `sink` until `limit` rows are read; the
 * rest of the result is never fetched. `check` throws when the run was stopped while the sink waited.
 * True when the result was read to its end. Also the reader of the rollup store's own file.
 */
export async function readRows(result: DuckDBResult, limit: number, sink: RowSink, check: () => void): Promise<boolean> {
  const names = uniqueNames(result.columnNames());
  const types = result.columnTypes();
  await sink.columns(names.map((name, i) => ({ name, type: types[i]!.toString().toUpperCase() })));
  const converters = types.map((type) => duckDbConverter(type.typeId));
  let read = 0;
  while (read < limit) {
    check();
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) {
      // A streamed result that fails after its first chunks ends as one read to its end: DuckDB's C API
      // returns no chunk for both, and the bindings do not expose duckdb_result_error. What tells them
      // apart is duckdb_result_is_streaming, false once the result holds an error. Without this check a
      // failed statement would answer its first rows as the whole result.
      if (!result.isStreaming) throw new Error('the statement failed while its rows were read (DuckDB does not say why for a streamed result)');
      return true;
    }
    // Column by column, straight from each vector into the rows: no intermediate row arrays.
    const count = Math.min(chunk.rowCount, limit - read);
    const batch: WarehouseValue[][] = [];
    for (let r = 0; r < count; r++) batch.push(new Array<WarehouseValue>(converters.length));
    for (let c = 0; c < converters.length; c++) {
      const vector = chunk.getColumnVector(c);
      const convert = converters[c]!;
      for (let r = 0; r < count; r++) batch[r]![c] = convert(vector.getItem(r));
    }
    read += count;
    await sink.rows(batch);
  }
  // Stopped with rows still unread: the connection is not reused.
  return false;
}

function translate(error: unknown, timeoutMs: number, stopped: StopReason | undefined, hide: (message: string) => string): WarehouseError {
  if (error instanceof WarehouseError) return error;
  if (stopped) return stoppedError(ENGINE, stopped, timeoutMs);
  const message = hide(messageOf(error));
  if (/read-only mode|read only mode|attached in read-only/i.test(message)) return readOnlyRefused(ENGINE, message);
  return queryFailed(ENGINE, message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
