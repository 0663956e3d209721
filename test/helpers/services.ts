// Real services for tests: PostgreSQL, Redis and MySQL/MariaDB on this machine (URLs overridable). With
// REQUIRE_SERVICES=1 (CI) a missing service, or a MariaDB without its time-zone tables, fails the run;
// otherwise the tests that need it are reported skipped, with the reason.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { randomHex } from '../../src/identity/tokens.js';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const REQUIRED = process.env.REQUIRE_SERVICES === '1';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/**
 * True when a command-line tool the tests drive is installed (`command args` exits 0); with
 * REQUIRE_SERVICES=1 a missing one throws instead, naming `purpose`, so CI cannot skip what it tests.
 */
export function hasTool(command: string, args: string[], purpose: string): boolean {
  const ok = spawnSync(command, args).status === 0;
  if (!ok && REQUIRED) throw new Error(`${command} is required (REQUIRE_SERVICES=1) ${purpose}`);
  if (!ok) console.warn(`${command} is not installed: ${purpose} is not tested`);
  return ok;
}

/** True when the service answers; with REQUIRE_SERVICES=1 a missing service throws instead. */
export async function hasService(name: 'postgres' | 'redis' | 'mysql'): Promise<boolean> {
  const ok =
    name === 'postgres'
      ? await reachable(POSTGRES_URL, 5432)
      : name === 'mysql'
        ? await reachable(MYSQL_URL, 3306)
        : await reachable(REDIS_URL, 6379);
  if (!ok && REQUIRED) throw new Error(`${name} is required (REQUIRE_SERVICES=1) but does not answer`);
  return ok;
}

let timeZoneCheck: Promise<string | undefined> | undefined;

/**
 * Why the MySQL/MariaDB server cannot convert named time zones, or undefined when it can. Without its
 * time-zone tables CONVERT_TZ(…, 'Europe/Paris') is NULL, so every query in a named zone on that engine
 * goes wrong: those tests skip with this reason (said once on stderr as well, since the default reporter
 * only counts skips). CI (REQUIRE_SERVICES=1) loads the tables in .ci/run, so there a missing table fails.
 */
export function missingMysqlTimeZones(): Promise<string | undefined> {
  timeZoneCheck ??= (async () => {
    const connection = await mysql.createConnection(MYSQL_URL);
    try {
      const [rows] = await connection.query<mysql.RowDataPacket[]>(`SELECT CONVERT_TZ('2025-01-01 12:00:00', 'UTC', 'Europe/Paris') AS paris`);
      if (rows[0]?.paris !== null) return undefined;
    } finally {
      await connection.end();
    }
    const { host } = new URL(MYSQL_URL);
    const reason =
      `MySQL/MariaDB at ${host} has no time-zone tables (CONVERT_TZ gives NULL for named zones): ` +
      'load them with `mariadb-tzinfo-to-sql /usr/share/zoneinfo | mariadb -uroot mysql`, as .ci/run does';
    if (REQUIRED) throw new Error(`${reason} (REQUIRE_SERVICES=1)`);
    console.warn(`Skipping tests in named time zones on MySQL/MariaDB: ${reason}`);
    return reason;
  })();
  return timeZoneCheck;
}

/** A fresh, empty PostgreSQL database for one test file; drop() removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomHex(6)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh, empty MySQL/MariaDB database for one test file; drop() removes it. */
export async function createTestMysqlDatabase(): Promise<{ url: string; database: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomHex(6)}`;
  const admin = await mysql.createConnection(MYSQL_URL);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    database: name,
    async drop() {
      const client = await mysql.createConnection(MYSQL_URL);
      await client.query(`drop database if exists ${name}`);
      await client.end();
    },
  };
}
