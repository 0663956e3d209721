// The SQL editor over a warehouse connection that is lost mid-query (the network cut, the server
// ending the session): the run answers 502 warehouse_unreachable with the error shape, the process
// keeps serving (nothing unhandled: in a real process it would have ended, for every tenant), and the
// next request on the same connection works once the warehouse answers again. A query is held mid-way
// by a lock the test takes, since the editor refuses sleeps.
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { watchUncaught } from './helpers/uncaught.js';

const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');
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

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function expectUnreachable(response: Awaited<ReturnType<typeof query>>): void {
  expect(response.statusCode, response.body).toBe(502);
  expect(response.json()).toEqual({ error: expect.stringMatching(/cannot connect to the warehouse/), code: 'warehouse_unreachable', request_id: expect.any(String) });
}

describe.runIf(withPostgres)('PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let locker: pg.Client;
  let proxy: TcpProxy;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    locker = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await locker.connect();
    await admin.query('create table held (x int); insert into held values (1)');
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const settings = { database: url.pathname.slice(1), user: decodeURIComponent(url.username) };
    await t.services.connections.create(ws.id, { name: 'pg-proxied', engine: 'postgres', settings: { ...settings, host: '127.0.0.1', port: proxy.port } });
    await t.services.connections.create(ws.id, { name: 'pg-direct', engine: 'postgres', settings: { ...settings, host: url.hostname, port: Number(url.port || 5432) } });
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    await proxy?.close();
    await locker?.end();
    await admin?.end();
    await database?.drop();
  });

  /** Starts `select * from held` on `connection` and waits until it waits for the lock. */
  async function heldQuery(connection: string, tag: string) {
    await locker.query('begin; lock table held in access exclusive mode');
    const sql = `select x as ${tag} from held`;
    const pending = query(connection, sql);
    let pid = 0;
    await waitFor('the blocked query', async () => {
      const { rows } = await admin.query<{ pid: number }>(`select pid from pg_stat_activity where query = $1 and wait_event_type = 'Lock'`, [sql]);
      pid = rows[0]?.pid ?? 0;
      return pid > 0;
    });
    return { pending, pid, release: () => locker.query('rollback') };
  }

  it('a connection cut mid-query answers 502; the next request works once the warehouse answers again', async () => {
    const held = await heldQuery('pg-proxied', 'cut');
    proxy.setMode('refuse');
    proxy.cutAll();
    expectUnreachable(await held.pending);
    await held.release();
    expectUnreachable(await query('pg-proxied', 'select 1 as one'));
    proxy.setMode('forward');
    const after = await query('pg-proxied', 'select 1 as one');
    expect([after.statusCode, after.json().rows]).toEqual([200, [{ one: 1 }]]);
  });

  it('the session ended by the server (pg_terminate_backend) answers 502; the next request works', async () => {
    const held = await heldQuery('pg-direct', 'terminated');
    await admin.query('select pg_terminate_backend($1)', [held.pid]);
    expectUnreachable(await held.pending);
    await held.release();
    expect((await query('pg-direct', 'select 2 as two')).json().rows).toEqual([{ two: 2 }]);
  });
});

describe.runIf(withMysql)('MySQL/MariaDB', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let locker: mysql.Connection;
  let proxy: TcpProxy;

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(database.url);
    locker = await mysql.createConnection(database.url);
    await admin.query('create table held (x int)');
    await admin.query('insert into held values (1)');
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 3306) });
    const settings = { database: database.database, user: decodeURIComponent(url.username) };
    const password = url.password ? decodeURIComponent(url.password) : undefined;
    await t.services.connections.create(ws.id, { name: 'my-proxied', engine: 'mysql', settings: { ...settings, host: '127.0.0.1', port: proxy.port }, password });
    await t.services.connections.create(ws.id, { name: 'my-direct', engine: 'mysql', settings: { ...settings, host: url.hostname, port: Number(url.port || 3306) }, password });
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    await proxy?.close();
    await locker?.end();
    await admin?.end();
    await database?.drop();
  });

  async function heldQuery(connection: string, tag: string) {
    await locker.query('LOCK TABLES held WRITE');
    const sql = `SELECT x AS ${tag} FROM held`;
    const pending = query(connection, sql);
    let id = 0;
    await waitFor('the blocked query', async () => {
      const [rows] = await admin.query<mysql.RowDataPacket[]>(`select id from information_schema.processlist where info = ? and state like '%lock%'`, [sql]);
      id = Number(rows[0]?.id ?? 0);
      return id > 0;
    });
    return { pending, id, release: () => locker.query('UNLOCK TABLES') };
  }

  it('a connection cut mid-query answers 502; the next request works once the warehouse answers again', async () => {
    const held = await heldQuery('my-proxied', 'cut');
    proxy.setMode('refuse');
    proxy.cutAll();
    expectUnreachable(await held.pending);
    await held.release();
    expectUnreachable(await query('my-proxied', 'SELECT 1 AS one'));
    proxy.setMode('forward');
    const after = await query('my-proxied', 'SELECT 1 AS one');
    expect([after.statusCode, after.json().rows]).toEqual([200, [{ one: 1 }]]);
  });

  it('the connection killed by the server (KILL CONNECTION) answers 502; the next request works', async () => {
    const held = await heldQuery('my-direct', 'killed');
    await admin.query(`KILL CONNECTION ${held.id}`);
    expectUnreachable(await held.pending);
    await held.release();
    expect((await query('my-direct', 'SELECT 2 AS two')).json().rows).toEqual([{ two: 2 }]);
  });
});
