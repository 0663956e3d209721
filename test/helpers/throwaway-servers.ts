// Throwaway PostgreSQL and MariaDB servers, each in a temporary directory on a free loopback port,
// for tests that must configure a server (roles with passwords, subscriptions, ALTER SYSTEM, a default
// sql_mode, time zone tables never loaded) without touching the shared ones. Started as child processes and stopped by their handle
// (and killed when the test process exits, should a test file fail before stopping them). Start them
// in beforeAll, after checking that the binaries are installed (the caller skips, visibly, if not).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { closedPort } from './network.js';

export interface ThrowawayServer {
  readonly port: number;
  /** Connection URL of the administrative user (postgres / root), to the given database. */
  url(database: string): string;
  stop(): Promise<void>;
}

const STARTUP_MS = 30_000;


const MARIADB_INSTALLER = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => existsSync(p));
const MARIADB_SERVER = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((p) => existsSync(p));

/** Why no throwaway PostgreSQL can be started here (for a visible skip), or undefined when one can. */
export function whyNoThrowawayPostgres(): string | undefined {
  return postgresBin() ? undefined : 'the PostgreSQL server binaries (initdb, postgres) are not installed';
}

/** Why no throwaway MariaDB can be started here (for a visible skip), or undefined when one can. */
export function whyNoThrowawayMariadb(): string | undefined {
  return MARIADB_INSTALLER && MARIADB_SERVER ? undefined : 'the MariaDB server binaries (mariadb-install-db, mariadbd) are not installed';
}

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** initdb refuses to run as root: as root, the server runs as the `postgres` system user. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/**
 * Waits until `accepts()` connects to the server the child runs, and returns its handle; stops it
 * (the child by its handle, with `signal`) and removes `dir` if it does not start.
 */
async function started(
  child: ChildProcess,
  signal: NodeJS.Signals,
  dir: string,
  port: number,
  url: (database: string) => string,
  accepts: () => Promise<unknown>,
): Promise<ThrowawayServer> {
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = performance.now() + STARTUP_MS;
  while (performance.now() < deadline && child.exitCode === null) {
    if (await accepts().then(() => true, () => false)) return { port, url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`throwaway server did not start: ${output}`);
}

export async function startThrowawayPostgres(): Promise<ThrowawayServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL binaries are not installed');
  const owner = postgresOwner();
  const dir = mkdtempSync(join(tmpdir(), 'svc-guard-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...as, stdio: 'ignore' });
  const port = await closedPort();
  const child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'], {
    ...as,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  // SIGINT: PostgreSQL's fast shutdown.
  return started(child, 'SIGINT', dir, port, url, async () => {
    const client = new pg.Client({ connectionString: url('postgres') });
    client.on('error', () => undefined);
    await client.connect();
    await client.end();
  });
}

/** A MariaDB server with root and no password; `sqlMode` replaces the default sql_mode. Its time zone tables are empty. */
export async function startThrowawayMariadb(options: { sqlMode?: string } = {}): Promise<ThrowawayServer> {
  const installer = MARIADB_INSTALLER;
  const server = MARIADB_SERVER;
  if (!installer || !server) throw new Error('MariaDB binaries are not installed');
  const dir = mkdtempSync(join(tmpdir(), 'svc-guard-maria-'));
  const data = join(dir, 'data');
  const user = userInfo().username;
  execFileSync(installer, ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'ignore' });
  const port = await closedPort();
  const child = spawn(
    server,
    ['--no-defaults', `--datadir=${data}`, `--port=${port}`, `--socket=${join(dir, 'sock')}`, '--bind-address=127.0.0.1', `--user=${user}`, ...(options.sqlMode !== undefined ? [`--sql-mode=${options.sqlMode}`] : []), '--skip-log-bin', '--innodb-buffer-pool-size=16M'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = (database: string) => `mysql://root@127.0.0.1:${port}/${database}`;
  return started(child, 'SIGTERM', dir, port, url, async () => (await mysql.createConnection(url('mysql'))).end());
}

/** Loads one zone's rules into a MariaDB server's time zone tables, as an operator would (mariadb-tzinfo-to-sql). */
export async function loadMariadbTimeZone(server: ThrowawayServer, zone: string): Promise<void> {
  const sql = execFileSync('mariadb-tzinfo-to-sql', [join('/usr/share/zoneinfo', zone), zone], { encoding: 'utf8' });
  const connection = await mysql.createConnection({ uri: server.url('mysql'), multipleStatements: true });
  await connection.query(sql);
  await connection.end();
}
