// An error a catalog statement ended with, as PostgreSQL said it: the ErrorResponse fields a client
// reads (C, M, D, H, P). Shaped as the SQL interface's SqlStateError (`sqlstate`, `message`, `hint`,
// `position`), so that the protocol server sends either the same way.

/** SQLSTATEs the mirror itself answers with, when PostgreSQL could not answer. */
export const CATALOG_SQLSTATE = {
  /** A statement outlived its time and its mirror was stopped: what statement_timeout says. */
  QUERY_CANCELED: '57014',
  /** The mirror's PostgreSQL failed, or answered in a way that was not understood. */
  INTERNAL_ERROR: 'XX000',
  /** The mirror was closed (evicted, or the service is stopping). */
  ADMIN_SHUTDOWN: '57P01',
} as const;

export class CatalogError extends Error {
  constructor(
    readonly sqlstate: string,
    message: string,
    readonly hint?: string,
    /** 1-based character offset in the statement's text (ErrorResponse field P). */
    readonly position?: number,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}
