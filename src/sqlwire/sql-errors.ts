// The service's errors as a PostgreSQL client reads them: the SQLSTATE a database would send in the same
// situation, the service's own message, and a hint where one helps. Errors that already carry a SQLSTATE
// pass through; anything that is not an AppError is a bug and stays one (the session logs it as XX000).
import { AppError, RateLimitedError } from '../core/errors.js';
import { SqlStateError, type SqlState } from '../core/sqlapi/sql-state-error.js';

/** SQLSTATE by the service's error code, where the HTTP status alone would say too little. */
const BY_CODE: Record<string, SqlState> = {
  warehouse_timeout: '57014', // query_canceled, as statement_timeout reports it
  warehouse_canceled: '57014', // query_canceled, as a CancelRequest ends a statement
  warehouse_unreachable: '08006', // connection_failure
  warehouse_read_only: '25006',
  warehouse_statement_refused: '0A000',
  warehouse_time_zone_unsupported: '22023',
  warehouse_query_failed: '58000', // system_error: the warehouse refused what the compiler wrote
  unknown_node: '42P01',
  unknown_field: '42703',
};

/** SQLSTATE by HTTP status, for the rest. */
const BY_STATUS: Record<number, SqlState> = {
  400: '22023',
  403: '42501',
  404: '42704',
  409: '55000', // object_not_in_prerequisite_state
  422: '22023',
  429: '53400', // configuration_limit_exceeded
  503: '57P03', // cannot_connect_now
};

export function sqlStateOf(error: unknown): unknown {
  if (error instanceof SqlStateError || !(error instanceof AppError)) return error;
  const sqlstate = BY_CODE[error.code] ?? BY_STATUS[error.status] ?? 'XX000';
  const hint = error instanceof RateLimitedError ? `Retry after ${error.retryAfterSeconds} s.` : undefined;
  return new SqlStateError(sqlstate, error.message, hint);
}
