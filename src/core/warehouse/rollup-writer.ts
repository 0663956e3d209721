// The one way to write into a warehouse: the rollup tables of a connection's `rollup_schema`. Every other
// run of a driver is read-only (types.ts). A writer takes no SQL of its own beyond the build SELECT the
// service compiled from the model; it writes the statements around it itself (rollup-write-sql.ts),
// names only tables of its one schema, and quotes every name. Nothing a user sends (the SQL editor, the
// SQL wire protocol, a question) reaches it: the rollup builds are its only caller.

/** A schema or table name a writer accepts: a plain identifier, quoted as written wherever it is used. */
export const ROLLUP_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Wall times (`YYYY-MM-DD HH:mm:ss.SSS`) of the stored time bucket, half-open: [start, end). */
export interface RollupTimeRange {
  readonly timeColumn: string;
  readonly start: string;
  readonly end: string;
}

/** One stored column: the build SELECT's output `key` stored as `name` (`time`: the time bucket, stored as a wall timestamp). */
export interface RollupWriteColumn {
  readonly key: string;
  readonly name: string;
  readonly time: boolean;
}

export interface RollupWrite {
  readonly table: string;
  /** The build SELECT, in the warehouse's dialect, with its parameters. */
  readonly select: { readonly sql: string; readonly params: readonly unknown[] };
  readonly columns: readonly RollupWriteColumn[];
  /** The output key of each group's latest source time (one of the stored columns), when the rollup has a time. */
  readonly sourceMaxTimeKey?: string;
  /** The rows replaced: one time range of the table, or (absent) all of them. */
  readonly target?: RollupTimeRange;
  /** Groups one write may store: past it nothing is written and `truncated` says so. */
  readonly maxRows: number;
}

export interface RollupWriteResult {
  readonly rows: number;
  /** The latest of the groups' source times, as the driver reads a value of its type; null without. */
  readonly sourceMaxTime: string | null;
  /** The SELECT held more than maxRows groups: the write was rolled back, the old rows kept. */
  readonly truncated: boolean;
}

export interface RollupWriteOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface RollupWriter {
  readonly schema: string;
  /**
   * Creates the schema and the table if needed and replaces the target's rows by the SELECT's groups in
   * one transaction: readers see the old rows until it commits, and a failure (the time limit, a cancel,
   * too many groups) keeps them.
   */
  replace(write: RollupWrite, options: RollupWriteOptions): Promise<RollupWriteResult>;
  /** Deletes one time range of a table (partitions that left a moving build range); nothing if the table is missing. */
  clear(table: string, range: RollupTimeRange, options: RollupWriteOptions): Promise<void>;
  drop(table: string, options: RollupWriteOptions): Promise<void>;
}

/** Throws unless `name` is a plain identifier. */
export function checkRollupIdentifier(name: string, what: string): string {
  if (!ROLLUP_IDENTIFIER.test(name)) throw new Error(`The ${what} ${JSON.stringify(name)} is not a plain identifier (letters, digits and "_", at most 63)`);
  return name;
}
