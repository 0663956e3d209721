// The SQL editor over a warehouse connection that is lost mid-query (the network cut, the server
// ending the session): the run answers 502 warehouse_unreachable with the error shape, the process
// keeps serving (nothing unhandled: in a real process it would have ended, for every tenant), and the
// next request on the same connection works once the warehouse answers again. A query is held mid-way
// by a lock the test takes, since the editor refuses sleeps.
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { waitFor } from './helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { watchUncaught } from './helpers/uncaught.js';

const uncaught = watchUncaught();

let t: TestApp;
let ws: SeededWorkspace;
let cookie: string;

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
  cookie = await signIn(t.app, ws.members.tracer.email);
});
afterAll(() => t.close());
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(uncaught.drain()).toEqual([]);
});

function query(connection: string, sql: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/studio/query',
    headers: { cookie, 'content-type': 'application/json' },
    payload: { connection, sql },
  });
}

function expectUnreachable(response: Awaited<ReturnType<typeof query>>): void {
  expect(response.statusCode, response.body).toBe(502);
  expect(response.json()).toEqual({ error: expect.stringMatching(/cannot connect to the warehouse/), code: 'warehouse_unreachable', request_id: expect.any(String) });
}

interface Engine {
  name: string;
  engine: 'postgres' | 'mysql';
  available: boolean;
  /** A database with table `held`, a second session that can lock it, and an admin who can end sessions. */
  setUp(): Promise<{
    server: { host: string; port: number };
    settings: { database: string; user: string };
    password?: string;
    lock(): Promise<void>;
    unlock(): Promise<void>;
    /** The session waiting for the lock while running exactly `sql`. */
    sessionWaiting(sql: string): Promise<number>;
    endSession(id: number): Promise<void>;
    tearDown(): Promise<void>;
  }>;
}

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    engine: 'postgres',
    available: await hasService('postgres'),
    async setUp() {
      const database = await createTestDatabase();
      const admin = new pg.Client({ connectionString: database.url });
      const locker = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await locker.connect();
      await admin.query('create table held (x int); insert into held values (1)');
      const url = new URL(database.url);
      return {
        server: { host: url.hostname, port: Number(url.port || 5432) },
        settings: { database: url.pathname.slice(1), user: decodeURIComponent(url.username) },
        lock: async () => void (await locker.query('begin; lock table held in access exclusive mode')),
        unlock: async () => void (await locker.query('rollback')),
        async sessionWaiting(sql) {
          let pid = 0;
          await waitFor('the blocked query', async () => {
            const { rows } = await admin.query<{ pid: number }>(`select pid from pg_stat_activity where strpos(query, $1) > 0 and wait_event_type = 'Lock' and pid <> pg_backend_pid()`, [sql]);
            return (pid = rows[0]?.pid ?? 0) > 0;
          });
          return pid;
        },
        endSession: async (pid) => void (await admin.query('select pg_terminate_backend($1)', [pid])),
        async tearDown() {
          await locker.end();
          await admin.end();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'MySQL/MariaDB',
    engine: 'mysql',
    available: await hasService('mysql'),
    async setUp() {
      const database = await createTestMysqlDatabase();
      const admin = await mysql.createConnection(database.url);
      const locker = await mysql.createConnection(database.url);
      await admin.query('create table held (x int)');
      await admin.query('insert into held values (1)');
      const url = new URL(database.url);
      return {
        server: { host: url.hostname, port: Number(url.port || 3306) },
        settings: { database: database.database, user: decodeURIComponent(url.username) },
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        lock: async () => void (await locker.query('LOCK TABLES held WRITE')),
        unlock: async () => void (await locker.query('UNLOCK TABLES')),
        async sessionWaiting(sql) {
          let id = 0;
          await waitFor('the blocked query', async () => {
            const [rows] = await admin.query<mysql.RowDataPacket[]>(`select id from information_schema.processlist where info = ? and state like '%lock%'`, [sql]);
            return (id = Number(rows[0]?.id ?? 0)) > 0;
          });
          return id;
        },
        endSession: async (id) => void (await admin.query(`KILL CONNECTION ${Number(id)}`)),
        async tearDown() {
          await locker.end();
          await admin.end();
          await database.drop();
        },
      };
    },
  },
];

describe.each(engines.map((e) => [e.name, e] as const))('%s', (_, engine) => {
  let server: Awaited<ReturnType<Engine['setUp']>>;
  let proxy: TcpProxy;
  const proxied = `${engine.engine}-proxied`;
  const direct = `${engine.engine}-direct`;

  beforeAll(async () => {
    if (!engine.available) return;
    server = await engine.setUp();
    proxy = await startTcpProxy(server.server);
    const add = (name: string, at: { host: string; port: number }) =>
      t.services.connections.create(ws.id, { name, engine: engine.engine, settings: { ...server.settings, ...at }, password: server.password });
    await add(proxied, { host: '127.0.0.1', port: proxy.port });
    await add(direct, server.server);
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    await proxy?.close();
    await server?.tearDown();
  });

  /** Starts a read of `held` on `connection` and waits until it waits for the lock. */
  async function heldQuery(connection: string, tag: string) {
    await server.lock();
    const sql = `SELECT x AS ${tag} FROM held`;
    const pending = query(connection, sql);
    return { pending, session: await server.sessionWaiting(sql) };
  }

  it.runIf(engine.available)('a connection cut mid-query answers 502; the next request works once the warehouse answers again', async () => {
    const held = await heldQuery(proxied, 'cut');
    proxy.setMode('refuse');
    proxy.cutAll();
    expectUnreachable(await held.pending);
    await server.unlock();
    expectUnreachable(await query(proxied, 'SELECT 1 AS one'));
    proxy.setMode('forward');
    const after = await query(proxied, 'SELECT 1 AS one');
    expect([after.statusCode, after.json().rows]).toEqual([200, [{ one: 1 }]]);
  });

  it.runIf(engine.available)('the session ended by the server answers 502; the next request works', async () => {
    const held = await heldQuery(direct, 'ended');
    await server.endSession(held.session);
    expectUnreachable(await held.pending);
    await server.unlock();
    expect((await query(direct, 'SELECT 2 AS two')).json().rows).toEqual([{ two: 2 }]);
  });
});
