// A MariaDB server of the test's own, on a spare loopback port with its own data directory, for what
// the shared server must not be made to be: here, a server whose time zone tables were never loaded
// (mariadb-install-db creates them empty). Root has no password. stop() ends the server and removes
// its directory. Without the binaries the tests that need it are skipped, with the reason.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { closedPort, waitFor } from './network.js';

const SERVER = '/usr/sbin/mariadbd';

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Why no throwaway server can be started here, or undefined when one can. */
export const throwawayMariaDbUnavailable: string | undefined = !existsSync(SERVER)
  ? `${SERVER} is not installed (the MariaDB server package)`
  : !onPath('mariadb-install-db')
    ? 'mariadb-install-db is not installed (the MariaDB server package)'
    : undefined;

export interface ThrowawayMariaDb {
  readonly port: number;
  /** mysql://root@127.0.0.1:<port>/ */
  readonly url: string;
  /** Loads one zone's rules into the time zone tables, as an operator would (mariadb-tzinfo-to-sql). */
  loadTimeZone(zone: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startThrowawayMariaDb(): Promise<ThrowawayMariaDb> {
  if (throwawayMariaDbUnavailable) throw new Error(throwawayMariaDbUnavailable);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-mariadb-'));
  const datadir = path.join(dir, 'data');
  // Running as root needs --user=root; as anyone else the option is ignored.
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  }
  const port = await closedPort();
  const server: ChildProcess = spawn(
    SERVER,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(dir, 'sock')}`,
      `--pid-file=${path.join(dir, 'pid')}`,
      `--log-error=${path.join(dir, 'error.log')}`,
      '--innodb-buffer-pool-size=16M',
      '--skip-log-bin',
      '--user=root',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  // If the test process ends without stop(), the server must not outlive it.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `mysql://root@127.0.0.1:${port}/`;
  const stop = async () => {
    process.off('exit', killOnExit);
    server.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      'the throwaway MariaDB server',
      async () => {
        const probe = await mysql.createConnection(url).catch(() => undefined);
        await probe?.end();
        return probe !== undefined;
      },
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    url,
    async loadTimeZone(zone) {
      const sql = spawnSync('mariadb-tzinfo-to-sql', [path.join('/usr/share/zoneinfo', zone), zone], { encoding: 'utf8' });
      if (sql.status !== 0) throw new Error(`mariadb-tzinfo-to-sql failed: ${sql.stderr}`);
      const connection = await mysql.createConnection({ uri: `${url}mysql`, multipleStatements: true });
      await connection.query(sql.stdout);
      await connection.end();
    },
    stop,
  };
}
