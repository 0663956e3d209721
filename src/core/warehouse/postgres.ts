// PostgreSQL driver. Read-only by construction:
// - every connection opens with default_transaction_read_only on, fixed date/time formats and
//   standard_conforming_strings on (startup options: no round trip, and RESET returns to them); a
//   one-trip run sets the same for its own transaction too, in the same round trip;
// - the user's SQL goes over the extended protocol (Parse/Bind/Execute), which accepts exactly one
//   statement: `SELECT 1; DELETE …` is refused by the server itself;
// - it runs inside `BEGIN READ ONLY`, always rolled back, with `SET LOCAL statement_timeout`;
// - one plain SELECT (proven with PostgreSQL's grammar, postgres-capped-select.ts) is capped in SQL
//   and sent with BEGIN, ROLLBACK and the advisory unlock in one round trip (postgres-one-trip.ts),
//   which keeps parallel plans and leaves the session as it found it;
// - anything else is first described without running (statements that return no rows — COPY,
//   PREPARE, LOCK, SET, DO, CALL… — are refused), then read through pg-cursor, and the connection is
//   wiped with `DISCARD ALL` (plus an explicit advisory unlock) before it goes back to the pool; so is
//   a connection after any failed run;
// - a cancel request stops the statement from outside, at the time limit (should the server's own not
//   fire) or when the caller cancels; the connection it was sent to is then closed, never reused: a
//   cancel that arrives late would stop the next run on it.
// The role used should still be minimal (no superuser, no pg_write_server_files): functions such as
// lo_export() write to the server's disk from inside a SELECT, read-only transaction or not.
import pg from 'pg';
import Cursor, { type CursorResult } from 'pg-cursor';
import { queryFailed, readOnlyRefused, scrubSecrets, statementRefused, timedOut, unreachable, WarehouseError } from './errors.js';
import { cancelRunning } from './postgres-cancel.js';
import { cappedSelect, plainSelectText } from './postgres-capped-select.js';
import { describeStatement } from './postgres-describe.js';
import { runInOneTrip, type Field } from './postgres-one-trip.js';
import { POSTGRES_PRIVILEGES_SQL, postgresPrivileges } from './postgres-privileges.js';
import { PostgresRollupWriter } from './postgres-rollup-writer.js';
import type { RollupWriter } from './rollup-writer.js';
import { DEFAULT_MAX_CONNECTIONS, type PoolOptions } from './pool-options.js';
import { pgTypes } from './postgres-values.js';
import { buildResult, CappedSink, checkRunOptions, RunStop, SCHEMA_RUN_OPTIONS, STREAM_BATCH_ROWS, stoppedError, uniqueNames, WATCHDOG_SLACK_MS, type StopReason } from './run-support.js';
import { groupSchemaRows } from './schema-rows.js';
import type { ColumnInfo, ConnectionConfig, ConnectionInspection, PoolStats, RowSink, RunOptions, RunResult, SchemaTable, StreamSummary, Warehouse, WarehouseValue } from './types.js';

type PostgresConfig = Extract<ConnectionConfig, { engine: 'postgres' }>;

const ENGINE = 'PostgreSQL';

/** What every run relies on: values as the parsers expect them, strings read as the guard's parser reads them. */
const RUN_SETTINGS: Readonly<Record<string, string>> = {
  standard_conforming_strings: 'on',
  DateStyle: 'ISO,YMD',
  IntervalStyle: 'iso_8601',
  TimeZone: 'UTC',
};
/** The session's defaults (values without spaces: they travel in the startup options). */
const SESSION_SETTINGS = { default_transaction_read_only: 'on', ...RUN_SETTINGS };

const SCHEMA_SQL = `
  select n.nspname as schema, c.relname as name, a.attname as column_name,
         pg_catalog.upper(pg_catalog.format_type(a.atttypid, null)) as column_type
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where c.relkind in ('r', 'v', 'm', 'p', 'f')
    and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    and n.nspname not like 'pg\\_temp\\_%' and n.nspname not like 'pg\\_toast\\_temp\\_%'
    and pg_catalog.has_table_privilege(c.oid, 'SELECT')
  order by 1, 2, a.attnum`;

// SQLSTATEs with a meaning of their own; everything else is the user's SQL failing.
const READ_ONLY_VIOLATION = '25006';
const QUERY_CANCELED = '57014';
const SYNTAX_ERROR = '42601';

export class PostgresWarehouse implements Warehouse {
  readonly engine = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  private readonly typeNames = new Map<number, string>();

  constructor(
    private readonly config: PostgresConfig,
    options: PoolOptions = {},
  ) {
    this.clientConfig = {
      host: config.host,
      port: config.port ?? 5432,
      database: config.database,
      user: config.user,
      password: config.password,
      ssl: config.ssl ? true : undefined,
      application_name: 'analytics-warehouse',
      connectionTimeoutMillis: 10_000,
    };
    // Session defaults, set in the startup packet: no statement of a run outlives its rolled-back
    // transaction, so they hold for every run on the connection.
    const sessionOptions = Object.entries(SESSION_SETTINGS)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ');
    this.pool = new pg.Pool({
      ...this.clientConfig,
      options: sessionOptions,
      max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      idleTimeoutMillis: 30_000,
      // Per-pool parsers: the global pg type parsers are shared with the metadata store.
      types: pgTypes,
    });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    // Nor one dropped while a run holds it: pg-pool listens on idle clients only, and pg emits 'error'
    // on the client as well as failing the query in flight. The query's failure is the answer (502);
    // the event is noise, but one nobody listens to ends the process for every tenant.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  async run(sql: string, params: readonly unknown[], options: RunOptions): Promise<RunResult> {
    checkRunOptions(ENGINE, options);
    const startedAt = performance.now();
    const select = await plainSelectText(sql);
    return this.withClient(options, async (client, stop) => {
      const { rows, fields } =
        select === null
          ? await this.readCursorPath(client, sql, params, options, stop)
          : await runInOneTrip(client, cappedSelect(select, options.maxRows + 1), params, { timeoutMs: options.timeoutMs, settings: RUN_SETTINGS, keep: options.maxRows + 1, types: pgTypes });
      const columns = await this.columnsOf(client, fields);
      return { value: buildResult(columns, rows as WarehouseValue[][], options.maxRows, startedAt), clean: select !== null };
    });
  }

  /**
   * Always through a cursor (a plain SELECT too: the one-trip path reads its whole capped result at
   * once), STREAM_BATCH_ROWS per fetch; the next fetch waits for the sink. The columns are described
   * before the cursor opens: the client runs nothing else while a cursor is its active query.
   */
  async stream(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<StreamSummary> {
    checkRunOptions(ENGINE, options);
    const startedAt = performance.now();
    return this.withClient(options, async (client, stop) => {
      const capped = new CappedSink(stop.guard(sink, ENGINE, options.timeoutMs), options.maxRows);
      const fields = await this.beginDescribed(client, sql, options, stop);
      await capped.columns(await this.columnsOf(client, fields));
      await readThroughCursor(client, sql, params, options.maxRows + 1, () => stop.check(ENGINE, options.timeoutMs), (batch) => capped.rows(batch as WarehouseValue[][]));
      return { value: capped.summary(startedAt), clean: false };
    });
  }

  /**
   * A connection for one run, stopped from outside at the time limit or on the caller's cancel, and
   * released afterwards: as it is when `body` says it left the session clean, else wiped (or closed).
   */
  private async withClient<T>(options: RunOptions, body: (client: pg.PoolClient, stop: RunStop) => Promise<{ value: T; clean: boolean }>): Promise<T> {
    const client = await this.connect();
    let running = false;
    let cancelSent = false;
    // The server-side limit should fire first; the client-side one cancels from outside if it does
    // not (for example when the statement itself changed statement_timeout). So does the caller's cancel.
    const stop = new RunStop(options.timeoutMs + WATCHDOG_SLACK_MS, options.signal, () => {
      if (!running) return;
      cancelSent = true;
      cancelRunning(this.clientConfig, client);
    });
    let clean = false;
    try {
      // Cancelled while it waited for a connection: nothing is sent.
      stop.check(ENGINE, options.timeoutMs);
      running = true;
      const done = await body(client, stop);
      clean = done.clean;
      running = false;
      // A cancel that came too late to stop the statement still means the caller wants no rows.
      if (stop.reason === 'canceled') stop.check(ENGINE, options.timeoutMs);
      return done.value;
    } catch (error) {
      throw this.translate(error, options.timeoutMs, stop.reason);
    } finally {
      stop.end();
      if (clean && !cancelSent) client.release();
      else await this.resetAndRelease(client, !cancelSent);
    }
  }

  /**
   * Opens the read-only transaction with the time limit and describes the statement without running
   * it: statements that return no rows are refused. Its columns as the server describes them.
   */
  private async beginDescribed(client: pg.PoolClient, sql: string, options: RunOptions, stop: RunStop): Promise<readonly Field[]> {
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.ceil(options.timeoutMs)}`);
    const described = await describeStatement(client, sql);
    if (described.shape === 'no-rows') {
      throw statementRefused(ENGINE, 'only statements that return rows can run (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN)');
    }
    stop.check(ENGINE, options.timeoutMs);
    return described.fields;
  }

  /**
   * The slow path for what is not one plain SELECT (EXPLAIN, SHOW…): described first, then a cursor.
   * A cancel request reaches only a statement the server is running (between round trips the server
   * waits for the client and ignores it), so `stop` is checked before each round trip.
   */
  private async readCursorPath(client: pg.PoolClient, sql: string, params: readonly unknown[], options: RunOptions, stop: RunStop) {
    await this.beginDescribed(client, sql, options, stop);
    const rows: unknown[][] = [];
    let fields: CursorResult['fields'] = [];
    await readThroughCursor(client, sql, params, options.maxRows + 1, () => stop.check(ENGINE, options.timeoutMs), (batch, seen) => {
      fields = seen;
      for (const row of batch) rows.push(row);
    });
    return { rows, fields };
  }

  /**
   * The writer of the rollup tables of `schema` (rollup-writer.ts): its own READ WRITE transactions,
   * with the time limit, the cancel and the wiping of the connection every run has.
   */
  rollupWriter(schema: string): RollupWriter {
    return new PostgresRollupWriter(schema, (options, body) =>
      this.withClient({ maxRows: 0, ...options }, async (client, stop) => ({ value: await body(client, () => stop.check(ENGINE, options.timeoutMs)), clean: false })),
    );
  }

  async schema(): Promise<SchemaTable[]> {
    const result = await this.run(SCHEMA_SQL, [], SCHEMA_RUN_OPTIONS);
    return groupSchemaRows(result.rows);
  }

  async inspect({ timeoutMs }: { timeoutMs: number }): Promise<ConnectionInspection> {
    const result = await this.run(POSTGRES_PRIVILEGES_SQL, [], { maxRows: 100, timeoutMs });
    return { privileges: postgresPrivileges(result.rows) };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
  poolStats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }


  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw unreachable(ENGINE, scrubSecrets(messageOf(error), this.config.password));
    }
  }

  /** Rolls back and wipes the session; a connection that cannot be wiped is destroyed instead. */
  private async resetAndRelease(client: pg.PoolClient, usable: boolean): Promise<void> {
    if (!usable) {
      // After a cancel request the protocol state is uncertain, and a late cancel would stop the next
      // run's statement: a fresh connection is cheaper than doubt.
      client.release(true);
      return;
    }
    try {
      await client.query('ROLLBACK');
      await client.query('DISCARD ALL');
      await client.query('SELECT pg_catalog.pg_advisory_unlock_all()');
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : true);
    }
  }

  /** Column types as PostgreSQL names them, looked up once per type OID. */
  private async columnsOf(client: pg.PoolClient, fields: readonly Field[]): Promise<ColumnInfo[]> {
    const unknown = [...new Set(fields.map((f) => f.dataTypeID).filter((oid) => !this.typeNames.has(oid)))];
    if (unknown.length > 0) {
      const found = await client.query<{ oid: number; name: string }>(
        'select t.oid::int4 as oid, pg_catalog.upper(pg_catalog.format_type(t.oid, null)) as name ' +
          'from pg_catalog.pg_type t where t.oid = any($1::oid[])',
        [unknown],
      );
      for (const row of found.rows) this.typeNames.set(row.oid, row.name);
    }
    const names = uniqueNames(fields.map((f) => f.name));
    return fields.map((f, i) => ({ name: names[i]!, type: this.typeNames.get(f.dataTypeID) ?? 'UNKNOWN' }));
  }

  private translate(error: unknown, timeoutMs: number, stopped: StopReason | undefined): WarehouseError {
    if (error instanceof WarehouseError) return error;
    if (stopped) return stoppedError(ENGINE, stopped, timeoutMs);
    const code = (error as { code?: unknown }).code;
    const message = scrubSecrets(messageOf(error), this.config.password);
    if (code === READ_ONLY_VIOLATION) return readOnlyRefused(ENGINE, message);
    if (code === QUERY_CANCELED) return timedOut(ENGINE, timeoutMs);
    if (code === SYNTAX_ERROR && /multiple commands/.test(message)) {
      return statementRefused(ENGINE, 'only one statement can run at a time');
    }
    if (typeof code === 'string' && /^(08|57P|53)/.test(code)) return unreachable(ENGINE, message);
    if (typeof code !== 'string' && /ECONN|ETIMEDOUT|terminated|Connection/i.test(message)) return unreachable(ENGINE, message);
    return queryFailed(ENGINE, message);
  }
}

/**
 * Opens a cursor on the statement, reads it (readBatches) and closes it, also when reading failed: the
 * client runs nothing else while the cursor is its active query, so a cursor left open (a sink that
 * threw) would hold the ROLLBACK that cleans the connection up, and the connection, for ever.
 */
async function readThroughCursor(
  client: pg.PoolClient,
  sql: string,
  params: readonly unknown[],
  limit: number,
  check: () => void,
  take: (batch: unknown[][], fields: CursorResult['fields']) => void | Promise<void>,
): Promise<void> {
  const cursor = client.query(new Cursor(sql, params, { rowMode: 'array', types: pgTypes }));
  try {
    await readBatches(cursor, limit, check, take);
  } finally {
    await cursor.close().catch(() => undefined);
  }
}

/**
 * Reads up to `limit` rows through the cursor, STREAM_BATCH_ROWS per round trip, so that a huge result
 * is never fetched, and hands each batch to `take` (the next is fetched once `take` has settled);
 * `check` throws when the run was stopped meanwhile.
 */
async function readBatches(
  cursor: Cursor,
  limit: number,
  check: () => void,
  take: (batch: unknown[][], fields: CursorResult['fields']) => void | Promise<void>,
): Promise<void> {
  let read = 0;
  let fields: CursorResult['fields'] = [];
  while (read < limit) {
    check();
    const { batch, result } = await new Promise<{ batch: unknown[][]; result: CursorResult | undefined }>((resolve, reject) =>
      cursor.read(Math.min(STREAM_BATCH_ROWS, limit - read), (err, rows: unknown[][], result) => (err ? reject(err) : resolve({ batch: rows, result }))),
    );
    // Once the cursor is exhausted it answers without a result: keep the fields seen before.
    if (result?.fields) fields = result.fields;
    if (batch.length > 0) await take(batch, fields);
    read += batch.length;
    if (batch.length === 0) return;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
