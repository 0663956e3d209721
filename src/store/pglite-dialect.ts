// A kysely dialect for embedded PGlite. PGlite is a single connection, so the driver hands it out
// to one borrower at a time: a transaction's statements can never interleave with another request's.
//
// PGlite runs in this process and emits no events: everything that can go wrong surfaces as a rejected
// query. Besides the statement's own errors (a DatabaseError, passed on as is) that is a store closed
// or closing under a request (shutdown) or a WebAssembly abort, after which the instance is dead: both
// mean the store is unavailable (503), not that the request was wrong.
import type { PGlite } from '@electric-sql/pglite';
import type { CompiledQuery, DatabaseConnection, Dialect, QueryResult } from 'kysely';
import { unavailable } from '../dependency-unavailable.js';
import { StoreDriver, storeDialect } from './store-dialect.js';

// The WebAssembly global exists at run time; this project's type libraries only declare its types.
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } }).WebAssembly.RuntimeError;

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.run<R>(query);
    } catch (error) {
      if (!this.db.ready || error instanceof WasmRuntimeError) throw unavailable('store', error);
      throw error;
    }
  }

  private async run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol as `pg` does, so that a migration script of several
    // statements runs the same way on both stores. With parameters, one statement per message.
    const result =
      query.parameters.length === 0
        ? ((await this.db.exec(query.sql)).at(-1) ?? { rows: [] as R[], affectedRows: undefined })
        : await this.db.query<R>(query.sql, query.parameters as unknown[]);
    return {
      rows: result.rows as R[],
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the embedded metadata store');
  }
}

/** One borrower at a time, first come first served. */
class Turnstile {
  private tail: Promise<void> = Promise.resolve();

  async enter(): Promise<() => void> {
    let leave!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (leave = resolve));
    await previous;
    return leave;
  }
}

class PgliteDriver extends StoreDriver {
  private readonly turnstile = new Turnstile();
  private readonly connection: PgliteConnection;
  // Set while a borrower holds the connection; calling it lets the next one in.
  private leaveCurrent: (() => void) | undefined;

  constructor(private readonly db: PGlite) {
    super();
    this.connection = new PgliteConnection(db);
  }

  async init(): Promise<void> {
    await this.db.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.leaveCurrent = await this.turnstile.enter();
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const leave = this.leaveCurrent;
    this.leaveCurrent = undefined;
    leave?.();
  }

  async destroy(): Promise<void> {
    // Closing twice (a shutdown racing a failed start) is not an error.
    if (!this.db.closed) await this.db.close();
  }
}

export function pgliteDialect(db: PGlite): Dialect {
  return storeDialect(() => new PgliteDriver(db));
}
