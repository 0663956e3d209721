// MySQL / MariaDB driver. Read-only by construction:
// - one statement only (`multipleStatements: false`) and no LOAD DATA LOCAL (`-LOCAL_FILES`);
// - the session's transactions are all read-only (`transaction_read_only`, `tx_read_only` before MySQL
//   5.7.20 and MariaDB 11.1), set with the time limit and the lexical settings in one SET statement;
//   the statement runs in its own autocommitted read-only transaction, and so would anything after an
//   implicit commit (DDL);
// - the statement is prepared first and refused unless it returns columns, which stops what a
//   read-only transaction lets through: `SELECT … INTO OUTFILE/DUMPFILE` (a file on the server),
//   `SELECT … INTO @var`, `SET`, `DO`, `CALL`, `LOCK TABLES`;
// - a session time limit (`max_statement_time` on MariaDB, `max_execution_time` on MySQL);
//   `RELEASE_ALL_LOCKS()` (MariaDB) and COM_RESET_CONNECTION (which also rolls back) before the
//   connection goes back to the pool, then the session set up again for the next run: all after the
//   answer, so that a run on a reused connection costs two round trips (prepare, execute);
// - past the time limit (should the server's own not fire) or when the caller cancels, KILL QUERY over
//   a separate connection stops the statement, the run fails at once, and the connection is dropped,
//   never reused: a KILL that arrives late would stop the next run's statement.
// The user should still be minimal: SUPER can change global variables and FILE can read server
// files with LOAD_FILE() inside a SELECT.
import mysql, { type FieldPacket, type PoolConnection } from 'mysql2';
import { MYSQL_LEXICAL_SESSION } from '../sql/guard/mysql-session.js';
import { queryFailed, readOnlyRefused, scrubSecrets, statementRefused, timedOut, unreachable, WarehouseError } from './errors.js';
import { MYSQL_GRANTS_SQL, MYSQL_PRIVILEGES_SQL, mysqlPrivileges } from './mysql-privileges.js';
import { CONVERT_TZ_PROBE_SQL, needsTimeZoneCheck, timeZoneUnsupported } from './mysql-time-zones.js';
import { mysqlConverter, mysqlTypeName } from './mysql-values.js';
import { DEFAULT_MAX_CONNECTIONS, type PoolOptions } from './pool-options.js';
import { checkRunOptions, RunStop, runCollected, SCHEMA_RUN_OPTIONS, STREAM_BATCH_ROWS, stoppedError, streamCapped, uniqueNames, WATCHDOG_SLACK_MS, type StopReason } from './run-support.js';
import { groupSchemaRows } from './schema-rows.js';
import type { ColumnInfo, ConnectionConfig, ConnectionInspection, PoolStats, RowSink, RunOptions, RunResult, SchemaTable, StreamSummary, Warehouse, WarehouseValue } from './types.js';

type MysqlConfig = Extract<ConnectionConfig, { engine: 'mysql' }>;

const ENGINE = 'MySQL';

// When more rows than needed are still arriving, how long to drain them before dropping the
// connection instead (dropping costs a reconnect; draining a small overshoot is cheaper).
const DRAIN_GRACE_MS = 100;

const SCHEMA_SQL = `
  select c.table_schema as \`schema\`, c.table_name as name, c.column_name, upper(c.data_type) as column_type
  from information_schema.columns c
  where c.table_schema not in ('mysql', 'information_schema', 'performance_schema', 'sys')
  order by c.table_schema, c.table_name, c.ordinal_position`;

// Server error numbers with a meaning of their own.
const ER_READ_ONLY_TRANSACTION = 1792;
const ER_QUERY_INTERRUPTED = 1317;
const ER_STATEMENT_TIMEOUT_MARIADB = 1969;
const ER_QUERY_TIMEOUT_MYSQL = 3024;
const ER_OPTION_PREVENTS_STATEMENT = 1290;
// The connection ended by the server (KILL CONNECTION on MariaDB, a shutdown): the warehouse, not the SQL.
const ER_CONNECTION_KILLED = 1927;
const ER_SERVER_SHUTDOWN = 1053;

type PreparedStatement = { columns: FieldPacket[]; execute(params: unknown[]): mysql.Query; close(): void };

export class MysqlWarehouse implements Warehouse {
  readonly engine = 'mysql' as const;
  private readonly pool: mysql.Pool;
  private readonly connectionOptions: mysql.ConnectionOptions;
  private server: ServerKind | undefined;
  /** The time limit each pooled connection's session was last set up with (see readySession). */
  private readonly sessionLimits = new WeakMap<PoolConnection, number>();
  /** Named zones this server was seen to convert into; kept for the pool's lifetime. */
  private readonly convertibleZones = new Set<string>();

  constructor(
    private readonly config: MysqlConfig,
    options: PoolOptions = {},
  ) {
    this.connectionOptions = {
      host: config.host,
      port: config.port ?? 3306,
      database: config.database,
      user: config.user,
      password: config.password,
      ssl: config.ssl ? {} : undefined,
      multipleStatements: false,
      flags: ['-LOCAL_FILES'],
      // Text for dates, BIGINT and DECIMAL: no JS Date in the local time zone, no precision lost.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      // Arrays keep every column, even when two share a name.
      rowsAsArray: true,
      connectTimeout: 10_000,
    };
    this.pool = mysql.createPool({ ...this.connectionOptions, connectionLimit: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS });
    // A connection lost (cut, killed by the server) emits 'error': the pool listens only once, and a
    // second event, or one while a run holds the connection, would end the process for every tenant.
    // A run in flight learns of the loss through its own listener (readRows); the pool drops the connection.
    this.pool.on('connection', (connection) => connection.on('error', () => undefined));
  }

  run(sql: string, params: readonly unknown[], options: RunOptions): Promise<RunResult> {
    return runCollected((sink) => this.read(sql, params, options, sink), options.maxRows);
  }

  stream(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<StreamSummary> {
    return streamCapped((capped) => this.read(sql, params, options, capped), sink, options.maxRows);
  }

  /** Runs the statement and hands its rows to `sink` as they arrive, maxRows + 1 at most. */
  private async read(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<void> {
    checkRunOptions(ENGINE, options);
    const connection = await this.connect();
    let usable = true;
    // Settles when the run is stopped from outside: a destroyed connection does not fail the command
    // it runs (its answer may still arrive), so the run does not wait for one.
    let stopped!: (reason: StopReason) => void;
    const whenStopped = new Promise<never>((_, reject) => (stopped = (reason) => reject(stoppedError(ENGINE, reason, options.timeoutMs))));
    const stop = new RunStop(options.timeoutMs + WATCHDOG_SLACK_MS, options.signal, (reason) => {
      usable = false;
      this.killQuery(connection.threadId);
      drop(connection);
      stopped(reason);
    });
    const progress: ReadProgress = { complete: true };
    try {
      // Cancelled while it waited for a connection: nothing is sent.
      stop.check(ENGINE, options.timeoutMs);
      await Promise.race([this.execute(connection, sql, params, options, stop.guard(sink, ENGINE, options.timeoutMs), progress), whenStopped]);
    } catch (error) {
      throw this.translate(error, options.timeoutMs, stop.reason);
    } finally {
      stop.end();
      // The answer does not wait for the reset: the connection goes back to the pool once it is done.
      if (usable && progress.complete) void this.resetAndRelease(connection, options.timeoutMs);
      else drop(connection);
    }
  }

  /** Sets the session up, prepares the statement (refused unless it returns rows) and reads its rows. */
  private async execute(connection: PoolConnection, sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink, progress: ReadProgress): Promise<void> {
    await this.readySession(connection, options.timeoutMs);
    await this.checkTimeZone(connection, options.timeZone);
    const statement = await call<PreparedStatement>((cb) => connection.prepare(sql, cb as never));
    if (statement.columns.length === 0) {
      throw statementRefused(ENGINE, 'only statements that return rows can run (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN)');
    }
    await readRows(connection, statement, [...params], options.maxRows + 1, sink, progress);
  }

  async schema(): Promise<SchemaTable[]> {
    const result = await this.run(SCHEMA_SQL, [], SCHEMA_RUN_OPTIONS);
    return groupSchemaRows(result.rows);
  }

  async inspect({ timeoutMs, timeZone }: { timeoutMs: number; timeZone?: string }): Promise<ConnectionInspection> {
    const own = await this.run(MYSQL_PRIVILEGES_SQL, [], { maxRows: 10_000, timeoutMs });
    const lines = (await this.run(MYSQL_GRANTS_SQL, [], { maxRows: 10_000, timeoutMs })).rows.map((row) => String(Object.values(row)[0]));
    const privileges = mysqlPrivileges(own.rows, lines);
    // Any named zone tells whether the tables are loaded; the workspace's own is the one that matters.
    const zone = needsTimeZoneCheck(timeZone) ? timeZone : 'Europe/Paris';
    const probe = await this.run(CONVERT_TZ_PROBE_SQL, [zone], { maxRows: 1, timeoutMs });
    return { privileges, namedTimeZones: probe.rows[0]?.converted !== null };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.pool.end(() => resolve()));
  }

  /**
   * The pool's own state. A connection being reset after a run (resetAndRelease) is not idle yet:
   * it counts as in use until it goes back to the pool.
   */
  poolStats(): PoolStats | undefined {
    return mysqlPoolStats(this.pool);
  }

  private async connect(): Promise<PoolConnection> {
    try {
      return await call<PoolConnection>((cb) => this.pool.getConnection(cb));
    } catch (error) {
      throw unreachable(ENGINE, scrubSecrets(messageOf(error), this.config.password));
    }
  }

  /** Sets the session up unless the reset before this run already did, with the same time limit. */
  private async readySession(connection: PoolConnection, timeoutMs: number): Promise<void> {
    if (this.sessionLimits.get(connection) === timeoutMs) return;
    this.sessionLimits.delete(connection);
    await this.startReadOnly(connection, timeoutMs);
    this.sessionLimits.set(connection, timeoutMs);
  }

  private async startReadOnly(connection: PoolConnection, timeoutMs: number): Promise<void> {
    if (this.server === undefined) {
      const [row] = await query<string[][]>(connection, 'SELECT VERSION()');
      this.server = serverKind(row?.[0] ?? '');
    }
    // MariaDB counts in seconds (fractions allowed) and covers every statement; MySQL counts in
    // milliseconds and covers SELECT only, which is all that can run here.
    const limit = this.server.mariaDb
      ? `max_statement_time = ${(Math.ceil(timeoutMs) / 1000).toFixed(3)}`
      : `max_execution_time = ${Math.ceil(timeoutMs)}`;
    // One statement, one round trip: every transaction of the session read-only (the statement runs in
    // its own, autocommitted one, and so would anything after an implicit commit), the time limit, UTC,
    // and the lexical settings the read-only guard reads SQL with (see the guard's mysql-session.ts).
    await query(connection, `SET SESSION ${this.server.readOnlyVariable} = 1, SESSION time_zone = '+00:00', SESSION ${limit}, ${MYSQL_LEXICAL_SESSION}`);
  }

  /** Refuses a run that converts into a zone the server cannot convert into (see mysql-time-zones.ts). */
  private async checkTimeZone(connection: PoolConnection, zone: string | undefined): Promise<void> {
    if (!needsTimeZoneCheck(zone) || this.convertibleZones.has(zone)) return;
    const [row] = await call<unknown[][]>((cb) => connection.query({ sql: CONVERT_TZ_PROBE_SQL, values: [zone] }, cb as never));
    if (row?.[0] === null || row?.[0] === undefined) throw timeZoneUnsupported(ENGINE, zone);
    this.convertibleZones.add(zone);
  }

  /**
   * Resets the session (rolls back, drops user variables, temporary tables, locks and settings), then
   * sets it up again for the next run, with this run's time limit, before the connection goes back to
   * the pool. A connection that cannot be reset is destroyed.
   */
  private async resetAndRelease(connection: PoolConnection, timeoutMs: number): Promise<void> {
    this.sessionLimits.delete(connection);
    try {
      // Named locks (GET_LOCK) outlive transactions; COM_RESET_CONNECTION frees them on MySQL but
      // not on every MariaDB version, so there they are released explicitly.
      if (this.server?.mariaDb !== false) await query(connection, 'SELECT RELEASE_ALL_LOCKS()');
      await call<void>((cb) => connection.reset(cb as never));
      await this.readySession(connection, timeoutMs);
      connection.release();
    } catch {
      this.sessionLimits.delete(connection);
      connection.destroy();
    }
  }

  /** Stops the statement server-side, over a separate connection (the busy one cannot be used). */
  private killQuery(threadId: number): void {
    const killer = mysql.createConnection(this.connectionOptions);
    killer.on('error', () => undefined);
    killer.query(`KILL QUERY ${Number(threadId)}`, () => killer.end());
  }

  private translate(error: unknown, timeoutMs: number, stopped: StopReason | undefined): WarehouseError {
    if (error instanceof WarehouseError) return error;
    if (stopped) return stoppedError(ENGINE, stopped, timeoutMs);
    const errno = (error as { errno?: unknown }).errno;
    const message = scrubSecrets(messageOf(error), this.config.password);
    if (errno === ER_READ_ONLY_TRANSACTION || errno === ER_OPTION_PREVENTS_STATEMENT) return readOnlyRefused(ENGINE, message);
    if (errno === ER_STATEMENT_TIMEOUT_MARIADB || errno === ER_QUERY_TIMEOUT_MYSQL || errno === ER_QUERY_INTERRUPTED) {
      return timedOut(ENGINE, timeoutMs);
    }
    if ((error as { fatal?: unknown }).fatal === true || errno === ER_CONNECTION_KILLED || errno === ER_SERVER_SHUTDOWN) {
      return unreachable(ENGINE, message);
    }
    return queryFailed(ENGINE, message);
  }
}

interface ReadProgress {
  /** False when reading stopped before the server finished: the connection must then be dropped. */
  complete: boolean;
}

/**
 * Executes the prepared statement and hands at most `limit` rows to `sink`, converted as they arrive,
 * STREAM_BATCH_ROWS at a time. While the sink takes a batch the connection is paused (mysql2 then
 * stops reading the socket, and the server waits), so rows never pile up in memory.
 */
function readRows(connection: PoolConnection, statement: PreparedStatement, params: unknown[], limit: number, sink: RowSink, progress: ReadProgress): Promise<void> {
  return new Promise((resolve, reject) => {
    let fields: FieldPacket[] = [];
    let converters: ((value: unknown) => WarehouseValue)[] = [];
    let batch: WarehouseValue[][] = [];
    let read = 0;
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;
    // The sink's calls, one after another: a batch waits for the one before it.
    let handed: Promise<void> = Promise.resolve();
    const hand = (give: () => void | Promise<void>) => {
      connection.pause();
      handed = handed.then(give).then(
        () => {
          if (!settled) connection.resume();
        },
        (error: Error) => fail(error, false),
      );
    };
    const settle = () => {
      settled = true;
      clearTimeout(drainTimer);
      connection.off('error', lost);
    };
    let finishing = false;
    const finish = (complete: boolean) => {
      if (settled || finishing) return;
      finishing = true;
      clearTimeout(drainTimer);
      if (!complete) progress.complete = false;
      const last = batch;
      batch = [];
      handed = handed.then(() => (last.length > 0 ? sink.rows(last) : undefined));
      handed.then(
        () => {
          if (settled) return;
          settle();
          resolve();
        },
        (error: Error) => fail(error, false),
      );
    };
    const fail = (error: Error, complete = true) => {
      if (settled) return;
      if (!complete) progress.complete = false;
      settle();
      reject(error);
    };
    // A statement executed without a callback is not told when the connection is lost: mysql2 emits the
    // loss on the connection instead, so the run listens there too.
    const lost = (error: Error) => fail(error, false);
    connection.once('error', lost);
    const command = statement.execute(params);
    command.on('fields', (packets: FieldPacket[]) => {
      fields = packets;
      converters = packets.map(mysqlConverter);
      const names = uniqueNames(packets.map((f) => f.name));
      const columns: ColumnInfo[] = packets.map((f, i) => ({ name: names[i]!, type: mysqlTypeName(f) }));
      hand(() => sink.columns(columns));
    });
    command.on('result', (row: unknown) => {
      if (read >= limit) return;
      const values = Array.isArray(row) ? row : fields.map((f) => (row as Record<string, unknown>)[f.name]);
      batch.push(values.map((v, i) => converters[i]!(v)));
      read++;
      if (batch.length >= STREAM_BATCH_ROWS && read < limit) {
        const full = batch;
        batch = [];
        hand(() => sink.rows(full));
      }
      // Enough rows: give the rest a moment to arrive, else stop reading and drop the connection.
      if (read >= limit) drainTimer = setTimeout(() => (connection.pause(), finish(false)), DRAIN_GRACE_MS);
    });
    command.on('error', fail);
    command.on('end', () => finish(true));
  });
}

interface ServerKind {
  readonly mariaDb: boolean;
  /** The session variable that makes every transaction read-only (renamed in MySQL 5.7.20 and MariaDB 11.1). */
  readonly readOnlyVariable: 'tx_read_only' | 'transaction_read_only';
}

function serverKind(version: string): ServerKind {
  const mariaDb = /mariadb/i.test(version);
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  const renamed = mariaDb ? major > 11 || (major === 11 && minor >= 1) : true;
  return { mariaDb, readOnlyVariable: renamed ? 'transaction_read_only' : 'tx_read_only' };
}

type Mysql2PoolState = Partial<Record<'_allConnections' | '_freeConnections' | '_connectionQueue', { length?: unknown }>>;

/**
 * mysql2 exposes no count of its pool, so these are its own queues (lib/base/pool.js), read as they
 * are rather than tallied beside them: `_allConnections` every connection (opening, lent or idle),
 * `_freeConnections` the idle ones, `_connectionQueue` the getConnection calls waiting for one.
 * Undefined should a mysql2 release rename them: the metric then leaves MySQL out instead of showing
 * zeros, and the driver's pool test fails.
 */
function mysqlPoolStats(pool: mysql.Pool): PoolStats | undefined {
  const state = pool as unknown as Mysql2PoolState;
  const [total, idle, waiting] = [state._allConnections?.length, state._freeConnections?.length, state._connectionQueue?.length];
  if (typeof total !== 'number' || typeof idle !== 'number' || typeof waiting !== 'number') return undefined;
  return { total, idle, waiting };
}

/**
 * Takes the connection out of the pool and closes its socket at once. mysql2's destroy() only ends it
 * (a FIN): with rows still unread, the server's thread would stay blocked writing them, its statement
 * listed as running, until net_write_timeout (a minute) — KILL QUERY does not wake a thread blocked in
 * a write. A socket closed with unread data is reset, which ends the server's write at once.
 */
function drop(connection: PoolConnection): void {
  connection.destroy();
  (connection as unknown as { stream?: { destroy(): void } }).stream?.destroy();
}

function query<T = unknown>(connection: PoolConnection, sql: string): Promise<T> {
  return call<T>((cb) => connection.query(sql, cb as never));
}

function call<T>(start: (cb: (err: unknown, value: T) => void) => unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    start((err, value) => (err ? reject(err) : resolve(value)));
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
