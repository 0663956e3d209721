// The one error for "a service we depend on does not answer": the metadata store or Redis is down, hung
// or refusing. It is raised where the failure is seen (the store's drivers, the shared state's client),
// never guessed later from a message, and answers 503 with Retry-After: the request may well succeed a
// few seconds later, and nothing about it was the client's fault.
import { AppError } from './core/errors.js';

export type Dependency = 'store' | 'redis';

/**
 * What a client is told to wait. Store and Redis restarts and failovers take seconds; the service
 * reconnects by itself on the next request after they are back, so a short, fixed wait is honest.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export class DependencyUnavailableError extends AppError {
  readonly retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;

  constructor(
    readonly dependency: Dependency,
    /** What the driver reported, for the log only: the client's message stays generic. */
    readonly reason: string,
  ) {
    super(503, 'service_unavailable', 'The service is temporarily unavailable; retry after the number of seconds in Retry-After');
  }
}

export function unavailable(dependency: Dependency, cause: unknown): DependencyUnavailableError {
  if (cause instanceof DependencyUnavailableError) return cause;
  return new DependencyUnavailableError(dependency, cause instanceof Error ? cause.message : String(cause));
}

/**
 * Errors that are bugs in what we asked of a client (a value it cannot serialise), not failures of the
 * server or the network: they must stay 500s. Drivers report everything else they throw, outside the
 * server's own error replies, from their sockets and timers.
 */
export function isProgrammingError(error: unknown): boolean {
  return !(error instanceof Error) || error instanceof TypeError || error instanceof RangeError;
}
