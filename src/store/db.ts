// Opens the metadata store: PostgreSQL through `pg` when a URL is given, embedded PGlite otherwise.
// Both speak PostgreSQL, so one set of migrations and one set of kysely queries serve both. Either
// way, a store that is down, hung or gone answers every query within a bounded time with a
// DependencyUnavailableError (503), and the next query after it is back simply works.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { pgStoreDialect } from './pg-dialect.js';
import { pgliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type StoreKind = 'postgres' | 'pglite';

export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /** True when the store answers a trivial query (within the store's time limits). */
  ping(): Promise<boolean>;
  /** The connection pool's counts, where the store has a pool (PostgreSQL). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** PGlite: its whole data directory as one archive, which `from` of another embedded store starts from. */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

/**
 * PGlite in `dataDir`, or in memory; `from`, an archive of another embedded store's data directory
 * (Store.dumpDataDir), starts it as a copy of that store: a second or two faster than a new cluster,
 * which is how the tests start each store already migrated.
 */
export type StoreLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string; from?: Blob };

/**
 * Time limits of the PostgreSQL store, for a server that refuses, hangs or vanishes. Metadata queries
 * are index lookups and small writes, answered in milliseconds; these limits only ever fire when
 * something is wrong, and then a request answers 503 within about two to four seconds instead of
 * hanging (clients and load balancers commonly give up after 30 to 60 seconds, far too late to be told
 * to retry).
 */
export const STORE_LIMITS = {
  /**
   * Opening a connection (TCP, TLS, authentication: milliseconds on a LAN) and, as pg's pool counts
   * it, waiting for a free connection when all are busy: beyond two seconds the server is down or hung,
   * or the pool is saturated, and shedding the request beats queueing it.
   */
  connectMs: 2_000,
  /** Server side: PostgreSQL cancels a statement running longer (a lock held elsewhere, an overload). */
  statementMs: 3_000,
  /**
   * Client side, for a server that stops answering altogether (the statement limit needs a live
   * server): a second after the statement limit, so that a live server always cancels first.
   */
  queryMs: 4_000,
} as const;

export interface StoreOptions {
  /**
   * Without the statement and query limits: for migrations, which may wait for another instance's
   * migration lock and rebuild large tables. Requests never use such a store.
   */
  unbounded?: boolean;
}

// `pg` returns int8 (count(*), bigint columns) as strings and PGlite returns numbers: the metadata
// store only holds counts and ids well within 2^53, so both are normalised to numbers here, and only
// for the store's own pool (warehouse drivers keep their own type handling).
const INT8_OID = 20;
const storeTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

export async function openStore(location: StoreLocation, options: StoreOptions = {}): Promise<Store> {
  return location.kind === 'postgres' ? openPostgres(location.url, options) : openPglite(location.dataDir, location.from);
}

async function openPostgres(url: string, { unbounded = false }: StoreOptions): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: storeTypes,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: STORE_LIMITS.connectMs,
    // A server that vanished without closing the socket is noticed by the kernel, not only at the next query.
    keepAlive: true,
    ...(unbounded ? {} : { statement_timeout: STORE_LIMITS.statementMs, query_timeout: STORE_LIMITS.queryMs }),
  });
  const db = new Kysely<Database>({ dialect: pgStoreDialect(pool) });
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    db,
    ping: () => pingWith(db),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // The pool, not kysely, is closed: a straggling query (a background write at shutdown) then fails
    // as "store unavailable" in the driver, instead of with kysely's own "destroyed" error.
    close: () => (closed ??= pool.end()),
  };
}

async function openPglite(dataDir?: string, from?: Blob): Promise<Store> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: dataDir ?? 'memory://', ...(from ? { loadDataDir: from } : {}) });
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  let closed: Promise<void> | undefined;
  return {
    kind: 'pglite',
    db,
    ping: () => pingWith(db),
    dumpDataDir: async () => (await pglite.dumpDataDir('none')) as Blob,
    // As above: a query after close reaches the dialect, which reports the store unavailable.
    close: () => (closed ??= pglite.close()),
  };
}

async function pingWith(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
