// A scratch PostgreSQL database for a benchmark's warehouse or store: created fresh under a random name
// and dropped (with any session still on it) when the benchmark ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchPostgres {
  readonly name: string;
  readonly url: string;
  /** The service's connection settings for it (engine `postgres`). */
  readonly settings: { host: string; port: number; database: string; user: string };
  /** A client on the server's own database, open until drop(): for statistics of the scratch one. */
  readonly admin: pg.Client;
  drop(): Promise<void>;
}

/**
 * Creates the database (named `exactName` when given, so that a peer started beforehand can be pointed
 * at it); throws when PostgreSQL does not answer (callers report the row as skipped).
 */
export async function createScratchPostgres(prefix = 'svc_bench', exactName?: string): Promise<ScratchPostgres> {
  if (exactName !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(exactName)) throw new Error(`"${exactName}" is not a plain database name`);
  const name = exactName ?? `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    await admin.end().catch(() => {});
    throw error;
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    settings: { host: url.hostname, port: Number(url.port || 5432), database: name, user: url.username },
    admin,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end().catch(() => {});
    },
  };
}
