// An error as a PostgreSQL client reads it: an SQLSTATE code, a message, a hint, and the position in
// the statement the error is about (the ErrorResponse fields C, M, H and P). Clients branch on the
// code (a JDBC driver retries on some, BI tools explain others), so each refusal carries the code
// PostgreSQL itself would send for it.

/** The SQLSTATE codes the SQL interface sends, named as PostgreSQL's errcodes.txt names them. */
export const SQLSTATE = {
  SYNTAX_ERROR: '42601',
  UNDEFINED_TABLE: '42P01',
  UNDEFINED_COLUMN: '42703',
  AMBIGUOUS_COLUMN: '42702',
  UNDEFINED_FUNCTION: '42883',
  UNDEFINED_PARAMETER: '42P02',
  INVALID_COLUMN_REFERENCE: '42P10',
  GROUPING_ERROR: '42803',
  DATATYPE_MISMATCH: '42804',
  INSUFFICIENT_PRIVILEGE: '42501',
  FEATURE_NOT_SUPPORTED: '0A000',
  READ_ONLY_SQL_TRANSACTION: '25006',
  PROGRAM_LIMIT_EXCEEDED: '54000',
  INVALID_PARAMETER_VALUE: '22023',
  INVALID_TEXT_REPRESENTATION: '22P02',
  INVALID_DATETIME_FORMAT: '22007',
  INVALID_ESCAPE_SEQUENCE: '22025',
  INVALID_ROW_COUNT_IN_LIMIT_CLAUSE: '2201W',
  PROTOCOL_VIOLATION: '08P01',
  // Sent by the server around statements: sessions, connections, limits.
  QUERY_CANCELED: '57014',
  ADMIN_SHUTDOWN: '57P01',
  IDLE_SESSION_TIMEOUT: '57P05',
  CANNOT_CONNECT_NOW: '57P03',
  IN_FAILED_SQL_TRANSACTION: '25P02',
  NO_ACTIVE_SQL_TRANSACTION: '25P01',
  ACTIVE_SQL_TRANSACTION: '25001',
  INVALID_CURSOR_NAME: '34000',
  UNDEFINED_OBJECT: '42704',
  CONFIGURATION_LIMIT_EXCEEDED: '53400',
  TOO_MANY_CONNECTIONS: '53300',
  CONNECTION_FAILURE: '08006',
  SYSTEM_ERROR: '58000',
  OBJECT_NOT_IN_PREREQUISITE_STATE: '55000',
  INTERNAL_ERROR: 'XX000',
  INVALID_AUTHORIZATION_SPECIFICATION: '28000',
  INVALID_PASSWORD: '28P01',
  INVALID_CATALOG_NAME: '3D000',
  DUPLICATE_PREPARED_STATEMENT: '42P05',
  INVALID_SQL_STATEMENT_NAME: '26000',
  DUPLICATE_CURSOR: '42P03',
} as const;

export type SqlState = (typeof SQLSTATE)[keyof typeof SQLSTATE];

export const {
  SYNTAX_ERROR,
  UNDEFINED_TABLE,
  UNDEFINED_COLUMN,
  AMBIGUOUS_COLUMN,
  UNDEFINED_FUNCTION,
  UNDEFINED_PARAMETER,
  INVALID_COLUMN_REFERENCE,
  GROUPING_ERROR,
  DATATYPE_MISMATCH,
  INSUFFICIENT_PRIVILEGE,
  FEATURE_NOT_SUPPORTED,
  READ_ONLY_SQL_TRANSACTION,
  PROGRAM_LIMIT_EXCEEDED,
  INVALID_PARAMETER_VALUE,
  INVALID_TEXT_REPRESENTATION,
  INVALID_DATETIME_FORMAT,
  INVALID_ESCAPE_SEQUENCE,
  INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
  PROTOCOL_VIOLATION,
  QUERY_CANCELED,
  ADMIN_SHUTDOWN,
  IDLE_SESSION_TIMEOUT,
  CANNOT_CONNECT_NOW,
  IN_FAILED_SQL_TRANSACTION,
  NO_ACTIVE_SQL_TRANSACTION,
  ACTIVE_SQL_TRANSACTION,
  INVALID_CURSOR_NAME,
  UNDEFINED_OBJECT,
  CONFIGURATION_LIMIT_EXCEEDED,
  TOO_MANY_CONNECTIONS,
  CONNECTION_FAILURE,
  SYSTEM_ERROR,
  OBJECT_NOT_IN_PREREQUISITE_STATE,
  INTERNAL_ERROR,
  INVALID_AUTHORIZATION_SPECIFICATION,
  INVALID_PASSWORD,
  INVALID_CATALOG_NAME,
  DUPLICATE_PREPARED_STATEMENT,
  INVALID_SQL_STATEMENT_NAME,
  DUPLICATE_CURSOR,
} = SQLSTATE;

/** Said with every refusal of a write or a definition. */
export const READ_ONLY_HINT = 'This interface is read-only: it answers SELECT over the model\'s tables and catalog queries.';

export class SqlStateError extends Error {
  constructor(
    readonly sqlstate: SqlState,
    message: string,
    readonly hint?: string,
    /** 1-based character offset in the statement's text (ErrorResponse field P). */
    readonly position?: number,
  ) {
    super(message);
    this.name = 'SqlStateError';
  }
}

/** An error after which the connection cannot go on (a refused start-up, a revoked key): sent as FATAL, then the connection closes. */
export class FatalSqlStateError extends SqlStateError {
  readonly fatal = true;
}
