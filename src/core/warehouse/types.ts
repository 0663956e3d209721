// The one interface every warehouse driver implements. Every run is read-only whatever the SQL, bounded
// in time (server-side limit plus a client-side watchdog) and in rows (enforced while reading, never by
// rewriting the SQL), and can be cancelled by its caller (RunOptions.signal). The one exception is the
// rollup writer of PostgreSQL and Snowflake (rollup-writer.ts), which only the rollup builds use.
import type { RollupWriter } from './rollup-writer.js';

export const WAREHOUSE_ENGINES = ['postgres', 'mysql', 'snowflake', 'duckdb'] as const;
export type WarehouseEngine = (typeof WAREHOUSE_ENGINES)[number];

export interface ColumnInfo {
  readonly name: string;
  /** The engine's type name as it reports it, upper case (e.g. INTEGER, VARCHAR, TIMESTAMP). */
  readonly type: string;
}

export interface RunOptions {
  /** Rows kept; reading stops after one more row proves there are more (then `truncated`). */
  readonly maxRows: number;
  readonly timeoutMs: number;
  /**
   * The IANA zone the statement converts UTC timestamps into (a compiled query's), when it converts
   * any: UTC needs no conversion. A driver whose server may not know the zone (MySQL and MariaDB
   * without their time zone tables, where the conversion yields NULL) checks it before running, and
   * refuses rather than return rows grouped under NULL.
   */
  readonly timeZone?: string;
  /**
   * The caller's cancel: on abort the driver stops the statement on the warehouse as it does at the
   * time limit (PostgreSQL's cancel request, MySQL's KILL QUERY, DuckDB's interrupt, Snowflake's
   * statement cancel) and the run fails with `warehouse_canceled`, never with rows. A signal already
   * aborted runs nothing.
   */
  readonly signal?: AbortSignal;
}

/**
 * Values are JSON-ready and the same across engines: integers and decimals as numbers (as strings only
 * beyond ±2^53), booleans as booleans, dates as `YYYY-MM-DD`, timestamps without a time zone as
 * `YYYY-MM-DDTHH:mm:ss.SSS`, timestamps with a time zone as the UTC instant `YYYY-MM-DDTHH:mm:ss.SSSZ`,
 * null as null, anything else as a string.
 */
export type WarehouseValue = string | number | boolean | null;
export type WarehouseRow = Record<string, WarehouseValue>;

export interface RunResult {
  readonly columns: readonly ColumnInfo[];
  readonly rows: readonly WarehouseRow[];
  readonly rowCount: number;
  readonly durationMs: number;
  readonly truncated: boolean;
}

/**
 * Where a streamed run (Warehouse.stream) sends its result: the columns once, then the rows in batches
 * as the driver reads them. The driver reads the next batch only once the promise a call returns has
 * settled, so a slow reader holds the warehouse back instead of rows piling up in memory; a call that
 * throws stops the run (the statement is stopped and its connection released) and fails it.
 */
export interface RowSink {
  /** Once, before any row (also for a result without rows). */
  columns(columns: readonly ColumnInfo[]): void | Promise<void>;
  /** Rows in the order of the columns, never more in all than the run's maxRows. */
  rows(batch: readonly (readonly WarehouseValue[])[]): void | Promise<void>;
}

/** What a streamed run reports once its rows have all gone to the sink. */
export interface StreamSummary {
  readonly columns: readonly ColumnInfo[];
  readonly rowCount: number;
  readonly durationMs: number;
  /** More rows existed than maxRows: the sink received the first maxRows. */
  readonly truncated: boolean;
}

export interface SchemaTable {
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
}

/**
 * What the connection's role can do beyond reading, as the warehouse itself reports it. `null`: it
 * could not be told (the catalogs that say were not readable).
 */
export interface RolePrivileges {
  /** Bypasses permission checks: PostgreSQL superuser, MySQL SUPER, a Snowflake administrator role. */
  readonly superuser: boolean | null;
  /** Can change data or create objects (table writes, CREATE on a schema or database…). */
  readonly canWrite: boolean | null;
  /** Can read password hashes (pg_authid, pg_shadow, mysql.user, mysql.global_priv…). */
  readonly readsCredentials: boolean | null;
  /** Can read files of the database server (pg_read_server_files, pg_read_file(), FILE; Snowflake stages). */
  readonly readsServerFiles: boolean | null;
  /** What backs each `true`, a few examples each: `INSERT on public.orders`, `member of pg_read_server_files`. */
  readonly evidence: {
    readonly superuser?: readonly string[];
    readonly canWrite?: readonly string[];
    readonly readsCredentials?: readonly string[];
    readonly readsServerFiles?: readonly string[];
  };
}

export interface ConnectionInspection {
  readonly privileges: RolePrivileges;
  /**
   * Whether the server converts into named time zones (`false` for MySQL/MariaDB without their time
   * zone tables); absent where every server can.
   */
  readonly namedTimeZones?: boolean;
}

export interface Warehouse {
  readonly engine: WarehouseEngine;
  /**
   * Runs ONE statement with bound parameters (placeholders in the engine's own style: `$1` for
   * postgres and duckdb, `?` for mysql and snowflake) in a read-only transaction that is always rolled
   * back. Throws WarehouseError.
   */
  run(sql: string, params: readonly unknown[], options: RunOptions): Promise<RunResult>;
  /**
   * Runs ONE statement as run() does (read-only, the same time limit over the whole run, the caller's
   * cancel) but hands its rows to `sink` in batches as they are read instead of keeping them: memory
   * stays bounded by a batch whatever maxRows is. Throws WarehouseError, also when the sink throws.
   */
  stream(sql: string, params: readonly unknown[], options: RunOptions, sink: RowSink): Promise<StreamSummary>;
  /** Tables and views the connection's user can read, with typed columns (system schemas excluded). */
  schema(): Promise<SchemaTable[]>;
  /**
   * What the role can do beyond reading, read from the warehouse's own catalogs through run() (so
   * read-only and time-limited). `timeZone`: the named zone to check conversions into, if any.
   */
  inspect(options: { timeoutMs: number; timeZone?: string }): Promise<ConnectionInspection>;
  close(): Promise<void>;
  /**
   * The writer of a connection's `rollup_schema` (PostgreSQL and Snowflake only): the rollup builds'
   * narrow way to create, fill and drop their own tables there, which nothing a user sends reaches.
   */
  rollupWriter?(schema: string): RollupWriter;
  /**
   * Connections of the driver's pool, where the driver keeps one it can count (for GET /metrics);
   * undefined when the count cannot be read (the engine is then left out rather than shown as zeros).
   */
  poolStats?(): PoolStats | undefined;
}

export interface PoolStats {
  /** Open connections, in use or idle. */
  total: number;
  idle: number;
  /** Runs waiting for a connection. */
  waiting: number;
}

export type ConnectionConfig =
  | { engine: 'postgres'; host: string; port?: number; database: string; user: string; password?: string; ssl?: boolean; rollup_schema?: string }
  | { engine: 'mysql'; host: string; port?: number; database: string; user: string; password?: string; ssl?: boolean }
  | {
      engine: 'duckdb';
      /** The file; relative to `root` when a root is given. */
      path: string;
      /**
       * The directory the file must stay inside, symbolic links followed. Checked each time the file is
       * opened (a link can change after the connection was saved), and errors then name the file by
       * `path` only, never by its place on the server.
       */
      root?: string;
      /**
       * The name of the instance that opens the file, said when the file is missing: instances that do
       * not share their data directory each see their own files.
       */
      instance?: string;
    }
  | {
      engine: 'snowflake';
      account: string;
      username: string;
      password?: string;
      warehouse?: string;
      database?: string;
      schema?: string;
      role?: string;
      /** The schema the rollups of this connection's nodes are stored in (see rollup-writer.ts). */
      rollup_schema?: string;
    };
