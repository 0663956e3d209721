// A kysely dialect for embedded PGlite. PGlite is a single connection, so the driver hands it out
// to one borrower at a time: a transaction's statements can never interleave with another request's.
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
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

class PgliteDriver implements Driver {
  private readonly turnstile = new Turnstile();
  private readonly connection: PgliteConnection;
  // Set while a borrower holds the connection; calling it lets the next one in.
  private leaveCurrent: (() => void) | undefined;

  constructor(private readonly db: PGlite) {
    this.connection = new PgliteConnection(db);
  }

  async init(): Promise<void> {
    await this.db.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.leaveCurrent = await this.turnstile.enter();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
      settings.accessMode ?? '',
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(`begin ${modes.join(' ')}`.trim()));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const leave = this.leaveCurrent;
    this.leaveCurrent = undefined;
    leave?.();
  }

  async destroy(): Promise<void> {
    await this.db.close();
  }
}

export class PgliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.db);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
