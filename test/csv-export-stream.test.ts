// The editor's CSV export streamed from the driver, over a real HTTP server, on PostgreSQL, MariaDB and
// DuckDB: a result far beyond the grid's 10,000-row cap comes back whole and in order with its count in
// the trailers; a run failing once rows went out cuts the connection (no last chunk, no trailers) and
// is recorded as an error; a client that goes away cancels the statement and the connection goes back
// (the pool answers again, the warehouse shows no session still running it); writes are still refused.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDirectory } from '../src/connections/workspace-files.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { mysqlNumbers } from './helpers/mysql-numbers.js';
import { waitFor } from './helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';
import { watchUncaught } from './helpers/uncaught.js';

const uncaught = watchUncaught();
const ROWS = 50_000;

interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  trailers: NodeJS.Dict<string>;
  body: string;
  /** The whole chunked body arrived, its last chunk included. */
  complete: boolean;
}

let t: TestApp;
let ws: SeededWorkspace;
let cookie: string;
let base: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-csv-stream-'));

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  cookie = await signIn(t.app, ws.members.tracer.email);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(uncaught.drain()).toEqual([]);
});

/** POSTs the export over a socket; `leaveAfterBytes`: the client closes the connection once it has that many. */
function exportCsv(body: object, leaveAfterBytes?: number): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/studio/query/csv`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const answer = () => ({ status: res.statusCode!, headers: res.headers, trailers: res.trailers, body: Buffer.concat(chunks).toString('utf8'), complete: res.complete });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (leaveAfterBytes !== undefined && received >= leaveAfterBytes) {
          req.destroy();
          resolve(answer());
        }
      });
      // A connection cut by the server ends the answer without its last chunk: `complete` stays false.
      res.on('error', () => undefined);
      res.on('close', () => resolve(answer()));
    });
    req.on('error', (error) => (leaveAfterBytes === undefined ? reject(error) : undefined));
    req.end(JSON.stringify(body));
  });
}

async function historyOf(sql: string): Promise<{ status: string; error: string | null; row_count: number | null } | undefined> {
  await t.services.rawSql.flush();
  const page = await t.app.inject({ method: 'GET', url: '/api/studio/history?source=editor&limit=50', headers: { cookie } });
  return (page.json() as { runs: Array<{ sql: string; status: string; error: string | null; row_count: number | null }> }).runs.find((r) => r.sql === sql);
}

async function poolOf(name: string) {
  const { warehouse } = await t.services.connections.warehouse(ws.id, name);
  return warehouse.poolStats?.();
}

interface Engine {
  name: string;
  available: boolean;
  /** Adds the workspace connection `name`; returns how to look for sessions still running a statement. */
  setUp(name: string, cleanups: Array<() => Promise<void>>): Promise<{ running(sql: string): Promise<number> }>;
  /** `n` from 1 to `rows` with a text column, in order. */
  series(rows: number): string;
  /** Fails at row `at`, once many rows have been read. */
  failingAt(at: number, rows: number): string;
  write: string;
}

/** 1 to 1,000,000 on MySQL and MariaDB. */
const mysqlSeries = mysqlNumbers(6);

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    available: await hasService('postgres'),
    async setUp(name, cleanups) {
      const database = await createTestDatabase();
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      cleanups.push(async () => {
        await admin.end();
        await database.drop();
      });
      const url = new URL(database.url);
      await t.services.connections.create(ws.id, { name, engine: 'postgres', settings: { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) } });
      return {
        async running(sql) {
          const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where strpos(query, $1) > 0 and state <> 'idle' and pid <> pg_backend_pid()`, [sql]);
          return rows[0]!.n;
        },
      };
    },
    series: (rows) => `SELECT n, 'row ' || n AS label FROM generate_series(1, ${rows}) AS n ORDER BY n`,
    failingAt: (at, rows) => `SELECT n, 1 / (n - ${at}) AS inverse FROM generate_series(1, ${rows}) AS n`,
    write: 'CREATE TABLE written AS SELECT 1 AS x',
  },
  {
    name: 'MariaDB',
    available: await hasService('mysql'),
    async setUp(name, cleanups) {
      const database = await createTestMysqlDatabase();
      const admin = await mysql.createConnection(database.url);
      cleanups.push(async () => {
        await admin.end();
        await database.drop();
      });
      const url = new URL(database.url);
      await t.services.connections.create(ws.id, {
        name,
        engine: 'mysql',
        settings: { host: url.hostname, port: Number(url.port || 3306), database: database.database, user: decodeURIComponent(url.username) },
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      });
      return {
        async running(sql) {
          const [rows] = await admin.query<mysql.RowDataPacket[]>('select count(*) as n from information_schema.processlist where info = ?', [sql]);
          return Number(rows[0]!.n);
        },
      };
    },
    // Digits crossed (MariaDB stops a recursive CTE after max_recursive_iterations, 1,000 by default).
    series: (rows) => `SELECT n, CONCAT('row ', n) AS label FROM (${mysqlSeries}) AS s WHERE n <= ${rows} ORDER BY n`,
    // A scalar subquery answering two rows is an error only on the row that reaches it.
    failingAt: (at, rows) => `SELECT n, IF(n = ${at}, (SELECT 1 UNION SELECT 2), n) AS v FROM (${mysqlSeries}) AS s WHERE n <= ${rows}`,
    write: 'CREATE TABLE written AS SELECT 1 AS x',
  },
  {
    name: 'DuckDB',
    available: true,
    async setUp(name) {
      const dir = workspaceDirectory(t.services.config.dataDir, ws.id);
      mkdirSync(dir, { recursive: true });
      const instance = await DuckDBInstance.create(path.join(dir, `${name}.duckdb`));
      const connection = await instance.connect();
      await connection.run('CREATE TABLE marker AS SELECT 1 AS x');
      connection.closeSync();
      instance.closeSync();
      await t.services.connections.create(ws.id, { name, engine: 'duckdb', settings: { path: `${name}.duckdb` } });
      // Embedded: no session outlives the run but the driver's own connection, counted by poolStats.
      return { running: async () => (await poolOf(name))!.total - (await poolOf(name))!.idle };
    },
    series: (rows) => `SELECT range + 1 AS n, 'row ' || (range + 1) AS label FROM range(${rows}) ORDER BY n`,
    failingAt: (at, rows) => `SELECT range AS n, CASE WHEN range = ${at} THEN error('row ${at} fails') ELSE range END AS v FROM range(${rows})`,
    write: 'CREATE TABLE written AS SELECT 1 AS x',
  },
];

describe.each(engines.map((e) => [e.name, e] as const))('CSV export streamed on %s', (_, engine) => {
  const name = `stream-${engine.name.toLowerCase()}`;
  const cleanups: Array<() => Promise<void>> = [];
  let server: Awaited<ReturnType<Engine['setUp']>>;
  beforeAll(async () => {
    if (engine.available) server = await engine.setUp(name, cleanups);
  });
  afterAll(async () => {
    await t.services.connections.registry.closeAll();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it.runIf(engine.available)(`answers all of ${ROWS.toLocaleString('en-US')} rows in order, far past the grid's cap, with the count in the trailers`, async () => {
    const sql = engine.series(ROWS);
    const answer = await exportCsv({ connection: name, sql });
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(answer.complete).toBe(true);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['x-row-limit']).toBe('1000000');
    expect(answer.trailers).toEqual({ 'x-row-count': String(ROWS), 'x-result-truncated': 'false' });
    const lines = answer.body.split('\r\n');
    expect(lines[0]).toBe('n,label');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1)).toEqual(Array.from({ length: ROWS }, (_, i) => `${i + 1},row ${i + 1}`));
    expect(await historyOf(sql)).toMatchObject({ status: 'success', row_count: ROWS });

    const capped = await exportCsv({ connection: name, sql, limit: ROWS - 1 });
    expect(capped.trailers).toEqual({ 'x-row-count': String(ROWS - 1), 'x-result-truncated': 'true' });
    expect(capped.body.split('\r\n').length - 2).toBe(ROWS - 1);
  });

  it.runIf(engine.available)('cuts the connection when the run fails once rows went out, and records the failure', async () => {
    const sql = engine.failingAt(400_000, 500_000);
    const answer = await exportCsv({ connection: name, sql });
    expect(answer.status).toBe(200);
    // Rows went out (the header line and more), then the connection was cut: no last chunk, no trailers.
    expect(answer.body.split('\r\n').length).toBeGreaterThan(2);
    expect(answer.complete).toBe(false);
    expect(answer.trailers).toEqual({});
    expect(await historyOf(sql)).toMatchObject({ status: 'error', error: expect.stringMatching(/.+/) });
    // The connection is usable afterwards.
    const after = await exportCsv({ connection: name, sql: engine.series(3) });
    expect([after.status, after.body]).toEqual([200, 'n,label\r\n1,row 1\r\n2,row 2\r\n3,row 3\r\n']);
  });

  it.runIf(engine.available)('cancels the statement when the client goes away, and the connection goes back to the pool', async () => {
    const sql = engine.series(900_000).replace('SELECT', 'SELECT /* left */');
    const answer = await exportCsv({ connection: name, sql }, 64 * 1024);
    expect(answer.status).toBe(200);
    expect(answer.body.startsWith('n,label\r\n1,row 1\r\n')).toBe(true);
    await waitFor('the canceled export in the history', async () => (await historyOf(sql))?.status === 'error', 10_000);
    expect((await historyOf(sql))?.error).toMatch(/canceled/);
    await waitFor('no session running the export', async () => (await server.running(sql)) === 0, 10_000);
    await waitFor('every connection of the pool idle', async () => {
      const pool = await poolOf(name);
      return pool !== undefined && pool.total === pool.idle && pool.waiting === 0;
    });
    const after = await exportCsv({ connection: name, sql: engine.series(2) });
    expect([after.status, after.body, after.complete]).toEqual([200, 'n,label\r\n1,row 1\r\n2,row 2\r\n', true]);
  });

  it.runIf(engine.available)('refuses a write as the editor does, with a JSON error and no file', async () => {
    const answer = await exportCsv({ connection: name, sql: engine.write });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'read_only_violation' });
  });
});
