// The guard's whole corpus replayed through the HTTP surfaces that take raw SQL (B: POST /api/v1/query,
// D: POST /api/studio/query) against real PostgreSQL, MariaDB and DuckDB holding a victim schema.
// Every attack must answer 4xx and leave the victim, its tables and a scratch directory unchanged;
// every ordinary read must answer 200.
import { rmSync } from 'node:fs';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WarehouseEngine } from '../src/core/warehouse/types.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';
import { attacksFor, readsFor, withScratch } from './guard/corpus.js';
import { listFiles, scratchDir, victimStatements } from './guard/victims.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-guard-http-'));
const scratch = scratchDir();
const engines: Array<{ engine: WarehouseEngine; name: string; available: boolean }> = [
  { engine: 'duckdb', name: 'duck', available: true },
  { engine: 'postgres', name: 'pg', available: await hasService('postgres') },
  { engine: 'mysql', name: 'maria', available: await hasService('mysql') },
];
const cleanups: Array<() => Promise<void>> = [];
let t: TestApp;
let ws: SeededWorkspace;
let key: string;
let cookie: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  t = await startTestApp({ env: { TRUST_PROXY: 'true', SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  key = (await createKey(t.services, ws, 'luminary', 'workspace', { rateLimit: 1_000_000 })).value;
  cookie = await signIn(t.app, ws.members.tracer.email);

  mkdirSync(t.services.connections.directoryOf(ws.id), { recursive: true });
  const duck = await DuckDBInstance.create(path.join(t.services.connections.directoryOf(ws.id), 'victim.duckdb'));
  const connection = await duck.connect();
  for (const statement of victimStatements('duckdb')) await connection.run(statement);
  connection.closeSync();
  duck.closeSync();
  ids.set('duck', (await t.services.connections.create(ws.id, { name: 'duck', engine: 'duckdb', settings: { path: 'victim.duckdb' } })).id);

  if (engines[1]!.available) {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    for (const statement of victimStatements('postgres')) await admin.query(statement);
    await admin.end();
    const url = new URL(db.url);
    const settings = { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: url.username };
    ids.set('pg', (await t.services.connections.create(ws.id, { name: 'pg', engine: 'postgres', settings })).id);
  }
  if (engines[2]!.available) {
    const db = await createTestMysqlDatabase();
    cleanups.push(() => db.drop());
    const admin = await mysql.createConnection(db.url);
    for (const statement of victimStatements('mysql', { sequence: false })) await admin.query(statement);
    await admin.end();
    const url = new URL(db.url);
    const settings = { host: url.hostname, port: Number(url.port || 3306), database: db.database, user: url.username };
    ids.set('maria', (await t.services.connections.create(ws.id, { name: 'maria', engine: 'mysql', settings })).id);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
  for (const cleanup of cleanups) await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** The victim as seen through the driver directly (no guard): rows, sums and the tables that exist. */
async function state(name: string, engine: WarehouseEngine): Promise<string> {
  const { warehouse } = await t.services.connections.warehouse(ws.id, name);
  const tables = {
    duckdb: "SELECT string_agg(table_name, ',' ORDER BY table_name) AS t FROM duckdb_tables()",
    postgres: "SELECT string_agg(table_name, ',' ORDER BY table_name) AS t FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    mysql: 'SELECT GROUP_CONCAT(table_name ORDER BY table_name) AS t FROM information_schema.tables WHERE table_schema = DATABASE()',
  }[engine as 'duckdb' | 'postgres' | 'mysql'];
  const run = async (sql: string) => JSON.stringify((await warehouse.run(sql, [], { maxRows: 10, timeoutMs: 10_000 })).rows);
  return [
    await run('SELECT COUNT(*) AS n, SUM(id) AS ids, SUM(total) AS total, MAX(status) AS s FROM orders'),
    await run('SELECT COUNT(*) AS n, SUM(id) AS ids, MAX(email) AS e FROM customers'),
    await run(tables),
    listFiles(scratch),
  ].join('|');
}

function viaB(name: string, sql: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/query',
    headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' },
    payload: { connection_id: ids.get(name)!, sql },
  });
}

function viaD(name: string, sql: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/studio/query',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify({ connection: name, sql }),
  });
}

describe.each(engines)('$engine', ({ engine, name, available }) => {
  it.runIf(available)('every attack of the corpus answers 4xx through B and D, and nothing changes', async () => {
    const before = await state(name, engine);
    const attacks = attacksFor(engine);
    expect(attacks.length).toBeGreaterThanOrEqual(40);
    const failures: string[] = [];
    for (const attack of attacks) {
      const sql = withScratch(attack.sql, scratch);
      for (const [surface, send] of [['B', viaB], ['D', viaD]] as const) {
        const response = await send(name, sql);
        if (response.statusCode < 400 || response.statusCode >= 500) failures.push(`${surface} ${response.statusCode}: ${attack.sql}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await state(name, engine)).toBe(before);
  }, 120_000);

  it.runIf(available)('every ordinary read of the corpus answers 200 through B and D', async () => {
    const reads = readsFor(engine);
    expect(reads.length).toBeGreaterThanOrEqual(15);
    const failures: string[] = [];
    for (const read of reads) {
      for (const [surface, send] of [['B', viaB], ['D', viaD]] as const) {
        const response = await send(name, read.sql);
        if (response.statusCode !== 200) failures.push(`${surface} ${response.statusCode} ${response.body}: ${read.sql}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
