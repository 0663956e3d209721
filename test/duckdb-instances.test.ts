// Two instances on one PostgreSQL metadata store, each with its own data directory: a DuckDB connection
// saved through one names a file only that one's directory holds. The other must say so: its connection
// test and its query errors name the missing file and the instance, and its /readyz counts the DuckDB
// connections whose file it lacks (listed for the operator's token) without failing readiness for
// another workspace's file. Once the file is where the instance looks, all is well again.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACES_DIR } from '../src/connections/workspace-files.js';
import { openStore, type Store } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { consoleCall, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const METRICS_TOKEN = 'operator-token-0123456789';

describe.skipIf(!(await hasService('postgres')))('two instances, one PostgreSQL store, two data directories', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  const dirs = { one: '', two: '' };
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;
  let connectionId = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await openStore({ kind: 'postgres', url: db.url });
    await migrate(store);
    dirs.one = mkdtempSync(path.join(tmpdir(), 'svc-instance-one-'));
    dirs.two = mkdtempSync(path.join(tmpdir(), 'svc-instance-two-'));
    const secretKey = randomBytes(32);
    const start = (name: 'one' | 'two') =>
      startTestApp({ store, secretKey, env: { SVC_DATA_DIR: dirs[name], SVC_INSTANCE_NAME: `web-${name}`, SVC_METRICS_TOKEN: METRICS_TOKEN } });
    one = await start('one');
    two = await start('two');
    ws = await seedWorkspace(one.services);
    cookie = await signIn(one.app, ws.members.luminary.email);
    const file = path.join(dirs.one, WORKSPACES_DIR, ws.id, 'sales.duckdb');
    mkdirSync(path.dirname(file), { recursive: true });
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE orders AS SELECT 1 AS id');
    connection.closeSync();
    instance.closeSync();
    const created = await consoleCall(one, cookie, 'POST', '/api/connections', { name: 'sales', engine: 'duckdb', settings: { path: 'sales.duckdb' } });
    expect(created.statusCode, created.body).toBe(201);
    connectionId = created.json().connection.id;
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await store?.close();
    await db?.drop();
    for (const dir of Object.values(dirs)) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const readyz = (t: TestApp, token?: string) => t.app.inject({ url: '/readyz', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('the instance that holds the file: the test passes and /readyz misses nothing', async () => {
    const tested = await consoleCall(one, cookie, 'POST', `/api/connections/${connectionId}/test`);
    expect(tested.json()).toMatchObject({ ok: true, engine: 'duckdb', instance: 'web-one' });
    const ready = await readyz(one);
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', instance: 'web-one', duckdb_files: { checked: 1, missing: 0 } });
  });

  it('the other: the connection test and a query name the missing file and the instance', async () => {
    const tested = await consoleCall(two, cookie, 'POST', `/api/connections/${connectionId}/test`);
    expect(tested.statusCode).toBe(200);
    const body = tested.json();
    expect(body).toMatchObject({ ok: false, engine: 'duckdb', instance: 'web-two', missing_file: 'sales.duckdb' });
    expect(body.error).toContain('"sales.duckdb"');
    expect(body.error).toContain('"web-two"');
    const query = await consoleCall(two, cookie, 'POST', '/api/studio/query', { connection: 'sales', sql: 'SELECT count(*) AS n FROM orders' });
    expect([query.statusCode, query.json().code]).toEqual([502, 'warehouse_unreachable']);
    expect(query.json().error).toMatch(/no file "sales\.duckdb" in this workspace's directory on instance "web-two"/);
    for (const answer of [tested.body, query.body]) expect(answer).not.toContain(dirs.two);
  });

  it("its /readyz stays ready, counts the file it lacks, and lists it only for the operator's token", async () => {
    const ready = await readyz(two);
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', instance: 'web-two', duckdb_files: { checked: 1, missing: 1 } });
    expect(ready.body).not.toContain(connectionId);
    expect(ready.body).not.toContain('sales.duckdb');
    const detailed = await readyz(two, METRICS_TOKEN);
    expect(detailed.json().duckdb_files).toEqual({
      checked: 1,
      missing: 1,
      missing_files: [{ workspace_id: ws.id, connection_id: connectionId, connection: 'sales', path: 'sales.duckdb' }],
    });
    expect((await readyz(two, 'not-the-operator-token')).json().duckdb_files.missing_files).toBeUndefined();
  });

  it('once the workspaces directory holds the file on both, the other instance works too', async () => {
    const target = path.join(dirs.two, WORKSPACES_DIR, ws.id, 'sales.duckdb');
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(dirs.one, WORKSPACES_DIR, ws.id, 'sales.duckdb'), target);
    expect((await consoleCall(two, cookie, 'POST', `/api/connections/${connectionId}/test`)).json()).toMatchObject({ ok: true, instance: 'web-two' });
    // /readyz keeps its reading a few seconds (it is public): past that, the file is found.
    two.clock.advance(60_000);
    expect((await readyz(two)).json().duckdb_files).toEqual({ checked: 1, missing: 0 });
  });
});
