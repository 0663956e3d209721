// What the protocol loop (session.ts) needs from whatever gives statements their meaning: prepare a
// statement (the checks of Parse, and what Describe answers), run it with its parameters, and keep the
// session's transaction state for ReadyForQuery. The loop knows messages; the handler knows SQL.
import type { FieldDescription, ServerNotice, TransactionStatus } from './protocol/backend-messages.js';

/** A statement checked and described, ready to be bound to parameters and run (any number of times). */
export interface PreparedStatement {
  readonly sql: string;
  /** The type OID of each `$n`: as the client declared it, else as the statement implies (text when nothing does). */
  readonly paramTypes: readonly number[];
  /** The columns it returns, or null for a statement without rows (SET, BEGIN). */
  readonly fields: readonly FieldDescription[] | null;
}

export interface StatementOutcome {
  readonly fields: readonly FieldDescription[] | null;
  /** Each value already in PostgreSQL's text format; null for NULL. */
  readonly rows: ReadonlyArray<ReadonlyArray<Buffer | null>>;
  /** CommandComplete's tag: `SELECT 3`, `SET`, `BEGIN`; empty for an empty statement (EmptyQueryResponse). */
  readonly tag: string;
  /** COPY … TO STDOUT: the rows go out as CopyData lines in this format. */
  readonly copy?: { readonly format: 'text' | 'csv'; readonly header: boolean };
  readonly notices?: readonly ServerNotice[];
  /** Settings whose new values the client must be told (ParameterStatus): `SET application_name`. */
  readonly parameterStatus?: Readonly<Record<string, string>>;
  /** DEALLOCATE / DISCARD ALL: prepared statements to drop (null: all of them). */
  readonly deallocate?: string | null;
}

/** An error to send as ErrorResponse: anything the handler throws that has a SQLSTATE. */
export interface SqlStateLike {
  readonly sqlstate: string;
  readonly message: string;
  readonly hint?: string;
  readonly detail?: string;
  readonly position?: number;
  /** The connection cannot go on (its key was revoked): sent as FATAL, then the connection is closed. */
  readonly fatal?: boolean;
}

export function isSqlStateLike(error: unknown): error is SqlStateLike & Error {
  return error instanceof Error && typeof (error as Partial<SqlStateLike>).sqlstate === 'string';
}

export interface StatementHandler {
  /** The transaction state ReadyForQuery reports. */
  readonly transaction: TransactionStatus;
  /** One statement of the extended protocol (Parse): checked now, so that errors come at Parse. */
  prepare(sql: string, declaredParamTypes: readonly number[]): Promise<PreparedStatement>;
  /** The statements of one simple Query message, in order (an empty string: none). */
  prepareSimple(sql: string): Promise<PreparedStatement[]>;
  run(statement: PreparedStatement, params: ReadonlyArray<string | null>, signal: AbortSignal): Promise<StatementOutcome>;
  /** A statement failed: inside a transaction block the block is now failed ('E') until it ends. */
  failed(): void;
}
