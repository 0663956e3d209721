// Errors of the warehouse drivers, each with its HTTP meaning. Messages name the engine and the limit
// involved, never a password or a connection string: the config is never interpolated into them.
import { AppError, type ErrorDetails } from '../errors.js';

export type WarehouseErrorCode =
  | 'warehouse_query_failed'
  | 'warehouse_timeout'
  | 'warehouse_canceled'
  | 'warehouse_unreachable'
  | 'warehouse_read_only'
  | 'warehouse_statement_refused'
  | 'warehouse_time_zone_unsupported';

const STATUS: Record<WarehouseErrorCode, number> = {
  // The user's SQL is at fault: the engine's own message is the most useful answer.
  warehouse_query_failed: 400,
  // The warehouse did not answer in time: a gateway timeout, not the client's malformed request.
  warehouse_timeout: 504,
  // The caller cancelled (a SQL client's CancelRequest): nginx's "client closed request", since the
  // caller that asked is the one that stopped listening.
  warehouse_canceled: 499,
  warehouse_unreachable: 502,
  warehouse_read_only: 400,
  warehouse_statement_refused: 400,
  // The warehouse cannot do what the query asks until its operator changes it; asking again will not
  // help, asking in UTC will.
  warehouse_time_zone_unsupported: 422,
};

export class WarehouseError extends AppError {
  constructor(code: WarehouseErrorCode, message: string, details?: ErrorDetails) {
    super(STATUS[code], code, message, details);
  }
}

export function queryFailed(engine: string, engineMessage: string): WarehouseError {
  return new WarehouseError('warehouse_query_failed', `${engine}: ${engineMessage}`);
}

export function timedOut(engine: string, timeoutMs: number): WarehouseError {
  return new WarehouseError(
    'warehouse_timeout',
    `${engine}: the query was stopped after the time limit of ${timeoutMs} ms`,
    { timeoutMs },
  );
}

/** The caller cancelled the run (its signal aborted): the statement was stopped on the warehouse. */
export function canceled(engine: string): WarehouseError {
  return new WarehouseError('warehouse_canceled', `${engine}: the query was canceled`);
}

export function unreachable(engine: string, reason: string): WarehouseError {
  return new WarehouseError('warehouse_unreachable', `${engine}: cannot connect to the warehouse (${reason})`);
}

export function readOnlyRefused(engine: string, engineMessage: string): WarehouseError {
  return new WarehouseError(
    'warehouse_read_only',
    `${engine}: the connection is read-only; the statement tried to write (${engineMessage})`,
  );
}

export function statementRefused(engine: string, why: string): WarehouseError {
  return new WarehouseError('warehouse_statement_refused', `${engine}: ${why}`);
}

/** Strips anything that looks like `user:password@` from a driver message before it is shown. */
export function scrubSecrets(message: string, password?: string): string {
  let scrubbed = message.replace(/\/\/[^/\s:@]+:[^@\s]*@/g, '//***@');
  if (password) scrubbed = scrubbed.split(password).join('***');
  return scrubbed;
}
