// A warehouse connection lost in the middle of a run, killed by the server, or cut while idle in the
// pool: the run answers 502 warehouse_unreachable, nothing is left unhandled (an 'error' event without
// a listener would end the whole process, for every tenant), and the next run works. Real servers
// behind a loopback TCP proxy that the test cuts; the same scenarios on each engine.
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type ConnectionConfig, type Warehouse } from '../../src/core/warehouse/index.js';
import { cancelRunning } from '../../src/core/warehouse/postgres-cancel.js';
import { closedPort, waitFor } from '../helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { watchUncaught } from '../helpers/uncaught.js';
import { expectRefused } from './fixture.js';

const uncaught = watchUncaught();
afterEach(async () => {
  // Events of a dying socket arrive after the promise settled: give them time to surface.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(uncaught.drain()).toEqual([]);
});

const SLOW = { maxRows: 10, timeoutMs: 20_000 };
const QUICK = { maxRows: 10, timeoutMs: 5_000 };

/** What the scenarios need of an engine: a database, a slow statement, and an admin who can end sessions. */
interface Engine {
  name: string;
  available: boolean;
  /** Creates the database; returns the config to reach it directly and the admin's tools. */
  setUp(): Promise<{
    config: Extract<ConnectionConfig, { engine: 'postgres' | 'mysql' }>;
    /** The server's id of the session running `sql` (as written, or inside the driver's row cap), once it runs. */
    sessionRunning(sql: string): Promise<number>;
    /** Ends a session from the server's side (pg_terminate_backend, KILL CONNECTION). */
    endSession(id: number): Promise<void>;
    /** Ends every idle session of the database from the server's side. */
    endIdleSessions(): Promise<void>;
    tearDown(): Promise<void>;
  }>;
  /** A statement that runs about five seconds; `n` makes its text unique. */
  slow(n: number): string;
}

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    available: await hasService('postgres'),
    slow: (n) => `select pg_sleep(5.0${n})`,
    async setUp() {
      const database = await createTestDatabase();
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const url = new URL(database.url);
      const name = url.pathname.slice(1);
      const sessions = async (where: string, params: unknown[]) =>
        (await admin.query<{ pid: number }>(`select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and ${where}`, [name, ...params])).rows.map((r) => r.pid);
      return {
        config: { engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: name, user: decodeURIComponent(url.username) },
        async sessionRunning(sql) {
          let pid = 0;
          await waitFor(sql, async () => ((pid = (await sessions(`state = 'active' and strpos(query, $2) > 0`, [sql]))[0] ?? 0), pid > 0));
          return pid;
        },
        endSession: async (pid) => void (await admin.query('select pg_terminate_backend($1)', [pid])),
        async endIdleSessions() {
          for (const pid of await sessions(`state = 'idle'`, [])) await admin.query('select pg_terminate_backend($1)', [pid]);
        },
        async tearDown() {
          await admin.end();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'MySQL/MariaDB',
    available: await hasService('mysql'),
    slow: (n) => `SELECT SLEEP(5.0${n}) AS s`,
    async setUp() {
      const database = await createTestMysqlDatabase();
      const admin = await mysql.createConnection(database.url);
      const url = new URL(database.url);
      const sessions = async (where: string, params: unknown[]) =>
        (
          await admin.query<mysql.RowDataPacket[]>(`select id from information_schema.processlist where db = ? and id <> connection_id() and ${where}`, [
            database.database,
            ...params,
          ])
        )[0].map((r) => Number(r.id));
      return {
        config: {
          engine: 'mysql',
          host: url.hostname,
          port: Number(url.port || 3306),
          database: database.database,
          user: decodeURIComponent(url.username),
          ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        },
        async sessionRunning(sql) {
          let id = 0;
          await waitFor(sql, async () => ((id = (await sessions('info = ?', [sql]))[0] ?? 0), id > 0));
          return id;
        },
        endSession: async (id) => void (await admin.query(`KILL CONNECTION ${Number(id)}`)),
        async endIdleSessions() {
          for (const id of await sessions(`command = 'Sleep'`, [])) await admin.query(`KILL CONNECTION ${id}`);
        },
        async tearDown() {
          await admin.end();
          await database.drop();
        },
      };
    },
  },
];

describe.each(engines.map((e) => [e.name, e] as const))('%s connection lost', (_, engine) => {
  let server: Awaited<ReturnType<Engine['setUp']>>;
  let proxy: TcpProxy;
  let viaProxy: Warehouse;
  let direct: Warehouse;
  const reopenViaProxy = async () => {
    await viaProxy?.close();
    viaProxy = openWarehouse({ ...server.config, host: '127.0.0.1', port: proxy.port }, { maxConnections: 2 });
  };
  const answers = async (warehouse: Warehouse, n: number) => expect((await warehouse.run(`SELECT ${n} AS n`, [], QUICK)).rows).toEqual([{ n }]);

  beforeAll(async () => {
    if (!engine.available) return;
    server = await engine.setUp();
    proxy = await startTcpProxy({ host: server.config.host, port: server.config.port ?? 0 });
    await reopenViaProxy();
    direct = openWarehouse(server.config, { maxConnections: 2 });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await direct?.close();
    await proxy?.close();
    await server?.tearDown();
  });

  it.runIf(engine.available)('cut in the middle of a query: 502, then the next run works', async () => {
    // Watched from the start: it may fail while the test is still awaiting something else.
    const refused = expectRefused(viaProxy.run(engine.slow(1), [], SLOW), [502]);
    await server.sessionRunning(engine.slow(1));
    proxy.cutAll();
    expect((await refused).code).toBe('warehouse_unreachable');
    await answers(viaProxy, 1);
  });

  it.runIf(engine.available)('the session ended by the server: 502, then the next run works', async () => {
    const refused = expectRefused(direct.run(engine.slow(2), [], SLOW), [502]);
    await server.endSession(await server.sessionRunning(engine.slow(2)));
    expect((await refused).code).toBe('warehouse_unreachable');
    await answers(direct, 2);
  });

  it.runIf(engine.available)('a pooled idle connection cut, or ended by the server, between runs: the next run works', async () => {
    await answers(viaProxy, 3);
    proxy.cutAll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await answers(viaProxy, 4);

    await answers(direct, 5);
    await server.endIdleSessions();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await answers(direct, 6);
  });

  it.runIf(engine.available)('the server unreachable while connecting: 502, then the next run works once it answers', async () => {
    await reopenViaProxy();
    proxy.setMode('refuse');
    try {
      expect((await expectRefused(viaProxy.run('SELECT 1', [], QUICK), [502])).code).toBe('warehouse_unreachable');
    } finally {
      proxy.setMode('forward');
    }
    await answers(viaProxy, 7);
  });
});

describe.runIf(engines[0]!.available)('PostgreSQL cancel request', () => {
  let server: Awaited<ReturnType<Engine['setUp']>>;
  let proxy: TcpProxy;
  beforeAll(async () => {
    server = await engines[0]!.setUp();
    proxy = await startTcpProxy({ host: server.config.host, port: server.config.port ?? 5432 });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.tearDown();
  });

  it('that cannot reach the server is no crash; one that can cancels', async () => {
    const viaProxy = { ...server.config, host: '127.0.0.1', port: proxy.port };
    const client = new pg.Client(viaProxy);
    client.on('error', () => undefined);
    await client.connect();
    try {
      const running = client.query(engines[0]!.slow(3));
      running.catch(() => undefined);
      await server.sessionRunning(engines[0]!.slow(3));
      // Nothing listens there: the cancel's own connection is refused.
      cancelRunning({ ...viaProxy, port: await closedPort() }, client);
      proxy.setMode('refuse');
      cancelRunning(viaProxy, client);
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.setMode('forward');
      cancelRunning(viaProxy, client);
      await expect(running).rejects.toMatchObject({ code: '57014' });
    } finally {
      proxy.setMode('forward');
      await client.end();
    }
  });
});
