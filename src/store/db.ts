// Opens the metadata store: PostgreSQL through `pg` when a URL is given, embedded PGlite otherwise.
// Both speak PostgreSQL, so one set of migrations and one set of kysely queries serve both.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PgliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type StoreKind = 'postgres' | 'pglite';

export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type StoreLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string };

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

export async function openStore(location: StoreLocation): Promise<Store> {
  return location.kind === 'postgres' ? openPostgres(location.url) : openPglite(location.dataDir);
}

async function openPostgres(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: storeTypes, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    ping: () => pingWith(db),
    close: () => db.destroy(),
  };
}

async function openPglite(dataDir?: string): Promise<Store> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir ?? 'memory://');
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) });
  return {
    kind: 'pglite',
    db,
    ping: () => pingWith(db),
    close: () => db.destroy(),
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
