// Snowflake driver. The SDK is large and most installations never use it, so it is imported on the
// first run only. Snowflake has no read-only transaction: every run opens its own session (nothing
// a statement leaves in it reaches another run), sets one statement per call, a time limit and
// autocommit off, runs the statement and rolls back. The role in the connection must be minimal
// (USAGE and SELECT only): DDL commits by itself and no session setting prevents it. Past the time
// limit (should Snowflake's own not fire) or when the caller cancels, the SDK's statement cancel stops
// the statement; the session ends with the run either way.
import type { Column, Connection, RowStatement } from 'snowflake-sdk';
import { queryFailed, scrubSecrets, timedOut, unreachable, WarehouseError } from './errors.js';
import type { PoolOptions } from './pool-options.js';
import { checkRunOptions, RunStop, runCollected, SCHEMA_RUN_OPTIONS, STREAM_BATCH_ROWS, stoppedError, streamCapped, uniqueNames, WATCHDOG_SLACK_MS, type StopReason } from './run-support.js';
import { groupSchemaRows } from './schema-rows.js';
import { snowflakeConnectionOptions, snowflakeSessionSql, type SnowflakeConfig } from './snowflake-options.js';
import { snowflakeGrantsSql, snowflakePrivileges } from './snowflake-privileges.js';
import { SnowflakeRollupWriter, type SnowflakeWriteRun } from './snowflake-rollup-writer.js';
import type { RollupWriteOptions, RollupWriter } from './rollup-writer.js';
import { snowflakeConverter, snowflakeTypeName } from './snowflake-values.js';
import type { ColumnInfo, ConnectionInspection, PoolStats, RowSink, RunOptions, RunResult, SchemaTable, StreamSummary, Warehouse, WarehouseValue } from './types.js';

const ENGINE = 'Snowflake';

// Snowflake's "statement reached its statement or warehouse timeout" error number.
const STATEMENT_TIMEOUT = '000630';

const SCHEMA_SQL = `
  select table_schema as "schema", table_name as "name", column_name as "column_name", data_type as "column_type"
  from information_schema.columns
  where table_schema <> 'INFORMATION_SCHEMA'
  order by table_schema, table_name, ordinal_position`;

type Sdk = typeof import('snowflake-sdk');
let sdk: Promise<Sdk> | undefined;

function loadSdk(): Promise<Sdk> {
  sdk ??= import('snowflake-sdk').then((module) => {
    const loaded = ((module as { default?: Sdk }).default ?? module) as Sdk;
    loaded.configure({ logLevel: 'ERROR' });
    return loaded;
  });
  return sdk;
}

export class SnowflakeWarehouse implements Warehouse {
  readonly engine = 'snowflake' as const;
  /** Sessions of the runs under way, opening or open (for poolStats). */
  private sessions = 0;

  constructor(
    private readonly config: SnowflakeConfig,
    // Sessions are not pooled (see above); the option is accepted for a uniform constructor.
    _options: PoolOptions = {},
  ) {}

  run(sql: string, params: readonly unknown[], options: RunOptions): Promise<RunResult> {
    return runCollected((sink) => this.read(sql, params, options, sink), options.maxRows);
  }

  stream(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<StreamSummary> {
    return streamCapped((capped) => this.read(sql, params, options, capped), sink, options.maxRows);
  }

  /** A new session, counted in `sessions` (the caller's `finally` counts it out). */
  private async openSession(): Promise<Connection> {
    this.sessions++;
    try {
      return await this.connect();
    } catch (error) {
      this.sessions--;
      throw error;
    }
  }

  /** Ends a session of openSession's: what it did not commit is rolled back as it ends. */
  private closeSession(connection: Connection): void {
    this.sessions--;
    connection.destroy(() => undefined);
  }

  /** Runs the statement in a session of its own and hands its rows to `sink`, maxRows + 1 at most. */
  private async read(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<void> {
    checkRunOptions(ENGINE, options);
    const connection = await this.openSession();
    let running: RowStatement | undefined;
    const stop = new RunStop(options.timeoutMs + WATCHDOG_SLACK_MS, options.signal, () => running?.cancel());
    try {
      // Cancelled while the session opened: nothing runs.
      stop.check(ENGINE, options.timeoutMs);
      await execute(connection, snowflakeSessionSql(options.timeoutMs), []);
      stop.check(ENGINE, options.timeoutMs);
      await streamRows(connection, sql, params, options.maxRows + 1, stop.guard(sink, ENGINE, options.timeoutMs), (s) => (running = s));
      // A cancel that came too late to stop the statement still means the caller wants no rows.
      if (stop.reason === 'canceled') stop.check(ENGINE, options.timeoutMs);
      await execute(connection, 'ROLLBACK', []);
    } catch (error) {
      throw this.translate(error, options.timeoutMs, stop.reason);
    } finally {
      stop.end();
      this.closeSession(connection);
    }
  }

  /** The writer of the rollup tables of `schema` (rollup-writer.ts), each write in a session of its own. */
  rollupWriter(schema: string): RollupWriter {
    return new SnowflakeRollupWriter(schema, (options, body) => this.writeSession(options, body));
  }

  private async writeSession<T>(options: RollupWriteOptions, body: (run: SnowflakeWriteRun) => Promise<T>): Promise<T> {
    const connection = await this.openSession();
    let running: RowStatement | undefined;
    const stop = new RunStop(options.timeoutMs + WATCHDOG_SLACK_MS, options.signal, () => running?.cancel());
    const run: SnowflakeWriteRun = async (statement) => {
      stop.check(ENGINE, options.timeoutMs);
      return executeRows(connection, statement.sql, statement.params, (s) => (running = s));
    };
    try {
      await run({ sql: snowflakeSessionSql(options.timeoutMs), params: [] });
      const value = await body(run);
      // Stopped after the last statement: what it committed stays, but the caller is told it was stopped.
      stop.check(ENGINE, options.timeoutMs);
      return value;
    } catch (error) {
      throw this.translate(error, options.timeoutMs, stop.reason);
    } finally {
      stop.end();
      this.closeSession(connection);
    }
  }

  async schema(): Promise<SchemaTable[]> {
    const result = await this.run(SCHEMA_SQL, [], SCHEMA_RUN_OPTIONS);
    return groupSchemaRows(result.rows);
  }

  async inspect({ timeoutMs }: { timeoutMs: number }): Promise<ConnectionInspection> {
    const role = String((await this.run('SELECT CURRENT_ROLE() AS "role"', [], { maxRows: 1, timeoutMs })).rows[0]?.role ?? '');
    const grants = await this.run(snowflakeGrantsSql(role), [], { maxRows: 10_000, timeoutMs });
    return { privileges: snowflakePrivileges(role, grants.rows) };
  }

  async close(): Promise<void> {
    // Nothing is kept open between runs.
  }

  /**
   * Sessions are not pooled (see above), so the SDK holds no pool whose state could be read: the
   * driver counts the sessions of the runs under way itself. None is ever idle, and no run waits:
   * each opens its own.
   */
  poolStats(): PoolStats {
    return { total: this.sessions, idle: 0, waiting: 0 };
  }

  private async connect(): Promise<Connection> {
    const snowflake = await loadSdk();
    try {
      return await snowflake.createConnection(snowflakeConnectionOptions(this.config)).connectAsync();
    } catch (error) {
      throw unreachable(ENGINE, scrubSecrets(messageOf(error), this.config.password));
    }
  }

  private translate(error: unknown, timeoutMs: number, stopped: StopReason | undefined): WarehouseError {
    if (error instanceof WarehouseError) return error;
    if (stopped) return stoppedError(ENGINE, stopped, timeoutMs);
    const message = scrubSecrets(messageOf(error), this.config.password);
    const code = String((error as { code?: unknown }).code ?? '');
    if (code === STATEMENT_TIMEOUT || code === '630') return timedOut(ENGINE, timeoutMs);
    if ((error as { isFatal?: unknown }).isFatal === true) return unreachable(ENGINE, message);
    return queryFailed(ENGINE, message);
  }
}

function typeOf(column: Column): string {
  return snowflakeTypeName(column.getType(), column.getPrecision(), column.getScale());
}

function execute(connection: Connection, sqlText: string, binds: readonly unknown[]): Promise<RowStatement> {
  return new Promise((resolve, reject) => {
    connection.execute({
      sqlText,
      binds: binds as never,
      parameters: { MULTI_STATEMENT_COUNT: 1 },
      complete: (error, statement) => (error ? reject(error) : resolve(statement)),
    });
  });
}

/** Runs one statement and reads its (few) rows, converted as streamed rows are. */
function executeRows(connection: Connection, sqlText: string, binds: readonly unknown[], started: (statement: RowStatement) => void): Promise<WarehouseValue[][]> {
  return new Promise((resolve, reject) => {
    const statement = connection.execute({
      sqlText,
      binds: binds as never,
      parameters: { MULTI_STATEMENT_COUNT: 1 },
      complete: (error, stmt, rows) => {
        if (error) return reject(error);
        const converters = (stmt.getColumns() ?? []).map((c) => snowflakeConverter(c.getType()));
        resolve(((rows ?? []) as unknown[][]).map((row) => row.map((v, i) => converters[i]!(v))));
      },
    });
    started(statement);
  });
}

/**
 * Streams at most `limit` rows into `sink`, STREAM_BATCH_ROWS at a time; the SDK fetches result chunks
 * only as the stream asks for them, and the stream is paused while the sink takes a batch.
 */
function streamRows(
  connection: Connection,
  sqlText: string,
  binds: readonly unknown[],
  limit: number,
  sink: RowSink,
  started: (statement: RowStatement) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const statement = connection.execute({
      sqlText,
      binds: binds as never,
      streamResult: true,
      parameters: { MULTI_STATEMENT_COUNT: 1 },
      complete: (error, stmt) => {
        if (error) return reject(error);
        const sdkColumns = stmt.getColumns() ?? [];
        const names = uniqueNames(sdkColumns.map((c) => c.getName()));
        const columns: ColumnInfo[] = sdkColumns.map((c, i) => ({ name: names[i]!, type: typeOf(c) }));
        const converters = sdkColumns.map((c) => snowflakeConverter(c.getType()));
        const total = stmt.getNumRows?.() ?? limit;
        let batch: WarehouseValue[][] = [];
        let handed = Promise.resolve(sink.columns(columns));
        if (total === 0) return void handed.then(() => resolve(), reject);
        const rows = stmt.streamRows({ start: 0, end: Math.min(limit, total) - 1 });
        const hand = (give: () => void | Promise<void>, then: () => void) => {
          rows.pause();
          handed = handed.then(give).then(then, (failure: unknown) => {
            rows.destroy();
            reject(failure);
          });
        };
        rows
          .on('error', reject)
          .on('data', (row: unknown[]) => {
            batch.push(row.map((v, i) => converters[i]!(v)));
            if (batch.length < STREAM_BATCH_ROWS) return;
            const full = batch;
            batch = [];
            hand(() => sink.rows(full), () => rows.resume());
          })
          .on('end', () => {
            const last = batch;
            batch = [];
            hand(() => (last.length > 0 ? sink.rows(last) : undefined), resolve);
          });
      },
    });
    started(statement);
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
