// A warehouse connection lost in the middle of a run, killed by the server, or cut while idle in the
// pool: the run answers 502 warehouse_unreachable, nothing is left unhandled (an 'error' event without
// a listener would end the whole process, for every tenant), and the next run works. Real servers
// behind a loopback TCP proxy that the test cuts.
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { cancelRunning } from '../../src/core/warehouse/postgres-cancel.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { expectRefused } from './fixture.js';
import { watchUncaught } from '../helpers/uncaught.js';

const uncaught = watchUncaught();
afterEach(async () => {
  // Events of a dying socket arrive after the promise settled: give them time to surface.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(uncaught.drain()).toEqual([]);
});

const SLOW = { maxRows: 10, timeoutMs: 20_000 };
const QUICK = { maxRows: 10, timeoutMs: 5_000 };

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!(await hasService('postgres')))('PostgreSQL connection lost', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let viaProxy: Warehouse;
  let direct: Warehouse;
  let config: { host: string; port: number; database: string; user: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const url = new URL(database.url);
    config = { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) };
    proxy = await startTcpProxy({ host: config.host, port: config.port });
    viaProxy = openWarehouse({ engine: 'postgres', ...config, host: '127.0.0.1', port: proxy.port }, { maxConnections: 2 });
    direct = openWarehouse({ engine: 'postgres', ...config }, { maxConnections: 2 });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await direct?.close();
    await proxy?.close();
    await admin?.end();
    await database?.drop();
  });

  /** The backend running `pattern` in the test database, once it runs. */
  async function runningPid(pattern: string): Promise<number> {
    let pid = 0;
    await waitFor(pattern, async () => {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = $1 and state = 'active' and query like $2 and pid <> pg_backend_pid()`,
        [config.database, `${pattern}%`],
      );
      pid = rows[0]?.pid ?? 0;
      return pid > 0;
    });
    return pid;
  }

  it('cut in the middle of a query: 502, then the next run works', async () => {
    const running = viaProxy.run('select pg_sleep(5.01)', [], SLOW);
    await runningPid('select pg_sleep(5.01)');
    proxy.cutAll();
    const error = await expectRefused(running, [502]);
    expect(error.code).toBe('warehouse_unreachable');
    expect((await viaProxy.run('select 1 as one', [], QUICK)).rows).toEqual([{ one: 1 }]);
  });

  it('the backend terminated by the server (pg_terminate_backend): 502, then the next run works', async () => {
    const running = direct.run('select pg_sleep(5.02)', [], SLOW);
    const pid = await runningPid('select pg_sleep(5.02)');
    await admin.query('select pg_terminate_backend($1)', [pid]);
    const error = await expectRefused(running, [502]);
    expect(error.code).toBe('warehouse_unreachable');
    expect((await direct.run('select 2 as two', [], QUICK)).rows).toEqual([{ two: 2 }]);
  });

  it('a pooled idle connection cut between runs: the next run works', async () => {
    expect((await viaProxy.run('select 1 as one', [], QUICK)).rows).toEqual([{ one: 1 }]);
    proxy.cutAll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await viaProxy.run('select 3 as three', [], QUICK)).rows).toEqual([{ three: 3 }]);
  });

  it('the server unreachable while connecting: 502, then the next run works once it answers', async () => {
    await viaProxy.close();
    viaProxy = openWarehouse({ engine: 'postgres', ...config, host: '127.0.0.1', port: proxy.port }, { maxConnections: 2 });
    proxy.setMode('refuse');
    try {
      expect((await expectRefused(viaProxy.run('select 1', [], QUICK), [502])).code).toBe('warehouse_unreachable');
    } finally {
      proxy.setMode('forward');
    }
    expect((await viaProxy.run('select 4 as four', [], QUICK)).rows).toEqual([{ four: 4 }]);
  });

  it('a cancel request that cannot reach the server is no crash; one that can cancels', async () => {
    const client = new pg.Client({ ...config, host: '127.0.0.1', port: proxy.port });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const running = client.query('select pg_sleep(5.03)');
      running.catch(() => undefined);
      await runningPid('select pg_sleep(5.03)');
      // Nothing listens there: the cancel's own connection is refused.
      cancelRunning({ ...config, host: '127.0.0.1', port: await closedPort() }, client);
      proxy.setMode('refuse');
      cancelRunning({ ...config, host: '127.0.0.1', port: proxy.port }, client);
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.setMode('forward');
      cancelRunning({ ...config, host: '127.0.0.1', port: proxy.port }, client);
      await expect(running).rejects.toMatchObject({ code: '57014' });
    } finally {
      proxy.setMode('forward');
      await client.end();
    }
  });
});

describe.skipIf(!(await hasService('mysql')))('MySQL/MariaDB connection lost', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let proxy: TcpProxy;
  let viaProxy: Warehouse;
  let direct: Warehouse;
  let config: { host: string; port: number; database: string; user: string; password?: string };

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(database.url);
    const url = new URL(database.url);
    config = {
      host: url.hostname,
      port: Number(url.port || 3306),
      database: database.database,
      user: decodeURIComponent(url.username),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    };
    proxy = await startTcpProxy({ host: config.host, port: config.port });
    viaProxy = openWarehouse({ engine: 'mysql', ...config, host: '127.0.0.1', port: proxy.port }, { maxConnections: 2 });
    direct = openWarehouse({ engine: 'mysql', ...config }, { maxConnections: 2 });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await direct?.close();
    await proxy?.close();
    await admin?.end();
    await database?.drop();
  });

  async function runningId(pattern: string): Promise<number> {
    let id = 0;
    await waitFor(pattern, async () => {
      const [rows] = await admin.query<mysql.RowDataPacket[]>(
        `select id from information_schema.processlist where db = ? and info like ? and id <> connection_id()`,
        [config.database, `${pattern}%`],
      );
      id = Number(rows[0]?.id ?? 0);
      return id > 0;
    });
    return id;
  }

  it('cut in the middle of a query: 502, then the next run works', async () => {
    const running = viaProxy.run('SELECT SLEEP(5.01) AS s', [], SLOW);
    await runningId('SELECT SLEEP(5.01)');
    proxy.cutAll();
    const error = await expectRefused(running, [502]);
    expect(error.code).toBe('warehouse_unreachable');
    expect((await viaProxy.run('SELECT 1 AS one', [], QUICK)).rows).toEqual([{ one: 1 }]);
  });

  it('the connection killed by the server (KILL CONNECTION): 502, then the next run works', async () => {
    const running = direct.run('SELECT SLEEP(5.02) AS s', [], SLOW);
    const id = await runningId('SELECT SLEEP(5.02)');
    await admin.query(`KILL CONNECTION ${id}`);
    const error = await expectRefused(running, [502]);
    expect(error.code).toBe('warehouse_unreachable');
    expect((await direct.run('SELECT 2 AS two', [], QUICK)).rows).toEqual([{ two: 2 }]);
  });

  it('a pooled idle connection cut, or killed, between runs: the next run works', async () => {
    expect((await viaProxy.run('SELECT 1 AS one', [], QUICK)).rows).toEqual([{ one: 1 }]);
    proxy.cutAll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await viaProxy.run('SELECT 3 AS three', [], QUICK)).rows).toEqual([{ three: 3 }]);

    expect((await direct.run('SELECT 1 AS one', [], QUICK)).rows).toEqual([{ one: 1 }]);
    const [idle] = await admin.query<mysql.RowDataPacket[]>(
      `select id from information_schema.processlist where db = ? and command = 'Sleep' and id <> connection_id()`,
      [config.database],
    );
    for (const row of idle) await admin.query(`KILL CONNECTION ${Number(row.id)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await direct.run('SELECT 4 AS four', [], QUICK)).rows).toEqual([{ four: 4 }]);
  });

  it('the server unreachable while connecting: 502, then the next run works once it answers', async () => {
    await viaProxy.close();
    viaProxy = openWarehouse({ engine: 'mysql', ...config, host: '127.0.0.1', port: proxy.port }, { maxConnections: 2 });
    proxy.setMode('refuse');
    try {
      expect((await expectRefused(viaProxy.run('SELECT 1', [], QUICK), [502])).code).toBe('warehouse_unreachable');
    } finally {
      proxy.setMode('forward');
    }
    expect((await viaProxy.run('SELECT 5 AS five', [], QUICK)).rows).toEqual([{ five: 5 }]);
  });
});
