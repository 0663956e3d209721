// A kysely dialect for the metadata store on PostgreSQL, over one `pg.Pool`, written for a server that
// may die, restart or hang under us:
// - every client has an 'error' listener from the moment the pool creates it. A client checked out by a
//   query has none of the pool's, and an error event without a listener kills the process (a server
//   restart under load did exactly that);
// - a client whose connection failed is destroyed when released, never handed to the next query;
// - every failure of the connection rather than of the statement (refused, reset, timed out, server
//   shutting down) becomes a DependencyUnavailableError (503), so callers never see a raw socket error.
import type { CompiledQuery, DatabaseConnection, Dialect, QueryResult } from 'kysely';
import pg from 'pg';
import { isProgrammingError, unavailable } from '../dependency-unavailable.js';
import { StoreDriver, storeDialect } from './store-dialect.js';

/**
 * SQLSTATEs that say the server, not the statement, failed: connection exceptions (08), insufficient
 * resources such as too many connections (53), the server shutting down or starting up (57P01-57P03),
 * system errors (58), and a statement cancelled by our statement_timeout (57014): a store that cannot
 * answer a metadata query in seconds is as unavailable as one that is down.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|58|57P0)|^57014$/;

/**
 * True when `error` means the store could not be reached or did not answer. pg reports everything the
 * server says as a DatabaseError with a SQLSTATE; anything else it throws comes from the socket or its
 * timers ("Connection terminated unexpectedly", ECONNRESET, "Query read timeout"), except programming
 * errors in the values we pass, which stay what they are.
 */
export function isStoreConnectionFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return UNAVAILABLE_SQLSTATE.test(error.code ?? '');
  return !isProgrammingError(error);
}

class PgStoreConnection implements DatabaseConnection {
  /** The failure that made this client unusable; releasing it then destroys it. */
  broken: Error | undefined;

  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const result = await this.client.query(query.sql, [...query.parameters]);
      const counted = result.command === 'INSERT' || result.command === 'UPDATE' || result.command === 'DELETE' || result.command === 'MERGE';
      return { rows: (result.rows ?? []) as R[], ...(counted && result.rowCount !== null ? { numAffectedRows: BigInt(result.rowCount) } : {}) };
    } catch (error) {
      if (!isStoreConnectionFailure(error)) throw error;
      // After a client-side timeout the server may still answer later, out of turn: never reuse it.
      this.broken = error as Error;
      throw unavailable('store', error);
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not used by the metadata store');
  }
}

class PgStoreDriver extends StoreDriver {
  constructor(private readonly pool: pg.Pool) {
    super();
  }

  async init(): Promise<void> {
    // An idle client whose server goes away reports here; the pool then drops it.
    this.pool.on('error', ignoreClientError);
    // The pool creates clients on demand: give each its own listener before any query can use it.
    this.pool.on('connect', (client) => client.on('error', ignoreClientError));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new PgStoreConnection(await this.pool.connect());
    } catch (error) {
      // Refused, timed out (connectionTimeoutMillis also bounds the wait for a free client), or the
      // server is starting up or shutting down: all mean the same to a caller.
      throw unavailable('store', error);
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const { client, broken } = connection as PgStoreConnection;
    client.release(broken);
  }

  async destroy(): Promise<void> {
    if (!this.pool.ending) await this.pool.end();
  }
}

/**
 * The error also reaches the query in flight, if any, which reports it; the pool discards the client.
 * Nothing else is to be done here: the listener exists so that the event is not fatal.
 */
function ignoreClientError(): void {}

export function pgStoreDialect(pool: pg.Pool): Dialect {
  return storeDialect(() => new PgStoreDriver(pool));
}
