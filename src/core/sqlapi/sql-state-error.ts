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
