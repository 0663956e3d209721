// Surface D: the SQL editor's backend over a session. Connections (internal ones hidden), schemas,
// read-only runs with typed columns, reveal queries through the compiler with the user's data keys,
// and the history of every run, per user, newest first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-d-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let tracer: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  await t.services.connections.create(ws.id, { name: '_svc_internal', engine: 'duckdb', settings: { path: 'internal.duckdb' } }, { internal: true });
  // The tracer may see Europe only; the luminary got region = * from the demo setup.
  await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: 'Europe' }) }).where('user_id', '=', ws.members.tracer.id).execute();
  tracer = await signIn(t.app, ws.members.tracer.email);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, cookie = tracer) => t.app.inject({ method: 'GET', url: `/api/studio${url}`, headers: { cookie } });
const post = (url: string, payload: unknown, cookie = tracer) =>
  t.app.inject({ method: 'POST', url: `/api/studio${url}`, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('access', () => {
  it('needs a session (401), refuses API keys (401) and viewers (403)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/studio/connections' })).statusCode).toBe(401);
    const key = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    expect((await t.app.inject({ method: 'GET', url: '/api/studio/connections', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(401);
    const viewer = await signIn(t.app, ws.members.viewer.email);
    const refused = await get('/connections', viewer);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'role_required']);
  });
});

describe('connections and schema', () => {
  it('lists connections without internal ones or secrets', async () => {
    const list = (await get('/connections')).json().connections;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['warehouse']);
    expect(list[0]).toMatchObject({ engine: 'duckdb' });
  });

  it('returns schemas, tables and typed columns; 404 for unknown or internal connections', async () => {
    const response = await get('/connections/warehouse/schema');
    expect(response.statusCode).toBe(200);
    const orders = response.json().tables.find((table: { schema: string; name: string }) => table.schema === 'shop' && table.name === 'orders');
    expect(orders.columns).toEqual(expect.arrayContaining([{ name: 'amount', type: 'DECIMAL(12,2)' }, { name: 'created_at', type: 'TIMESTAMP' }]));
    expect((await get('/connections/_svc_internal/schema')).statusCode).toBe(404);
    expect((await get('/connections/nope/schema')).statusCode).toBe(404);
  });
});

describe('POST /query', () => {
  it('answers rows, typed columns, duration, row count and connection', async () => {
    const response = await post('/query', { connection: 'warehouse', sql: 'SELECT channel, COUNT(*) AS orders FROM shop.orders GROUP BY 1 ORDER BY 1' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ connection: 'warehouse', row_count: 3, truncated: false, duration_ms: expect.any(Number) });
    expect(body.columns).toEqual([{ name: 'channel', type: 'VARCHAR' }, { name: 'orders', type: 'BIGINT' }]);
  });

  it('caps rows (default 1,000, at most 10,000) and says it truncated', async () => {
    const body = (await post('/query', { connection: 'warehouse', sql: 'SELECT * FROM range(20000) t(i)' })).json();
    expect([body.row_count, body.truncated]).toEqual([1000, true]);
    expect((await post('/query', { connection: 'warehouse', sql: 'SELECT 1', limit: 10_001 })).statusCode).toBe(400);
  });

  it('refuses anything but SELECT, WITH and EXPLAIN with a message naming them', async () => {
    const response = await post('/query', { connection: 'warehouse', sql: "COPY shop.orders TO '/tmp/out.csv'" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Only SELECT, WITH and EXPLAIN statements are allowed');
    expect(typeof response.json().reason).toBe('string');
  });

  it('404 for internal or unknown connections, 400 for SQL the warehouse rejects', async () => {
    expect((await post('/query', { connection: '_svc_internal', sql: 'SELECT 1' })).statusCode).toBe(404);
    expect((await post('/query', { connection: 'nope', sql: 'SELECT 1' })).statusCode).toBe(404);
    const bad = await post('/query', { connection: 'warehouse', sql: 'SELECT no_such_column FROM shop.orders' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /query/cml', () => {
  it('builds SQL from a reveal without running it when run is false', async () => {
    const response = await post('/query/cml', { domain: 'commerce', reveal: 'sales', dimensions: ['status'], measures: ['revenue'], run: false });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ reveal: 'sales', domain: 'commerce', connection: 'warehouse', result: null });
    expect(body.sql).toMatch(/FROM shop\.orders AS "orders"/);
    expect(body.params).toContain('Europe'); // the tracer's data key
  });

  it("runs it with the user's data keys: the tracer sees Europe only, the luminary everything", async () => {
    const ask = (cookie: string) => post('/query/cml', { reveal: 'sales', measures: ['orders'] }, cookie);
    const mine = (await ask(tracer)).json().result.rows[0].orders;
    const all = (await ask(await signIn(t.app, ws.members.luminary.email))).json().result.rows[0].orders;
    expect(all).toBe(1500);
    expect(mine).toBeGreaterThan(0);
    expect(mine).toBeLessThan(all);
  });

  it('computes metrics defined by expressions over other metrics', async () => {
    const body = (await post('/query/cml', { reveal: 'sales', dimensions: ['channel'], measures: ['revenue', 'average_order_value', 'cancellation_rate'] })).json();
    expect(body.result.row_count).toBeGreaterThan(0);
    for (const row of body.result.rows) expect(typeof row.average_order_value).toBe('number');
  });

  it('names what is unknown: reveal (404), domain (404), metric or field (400)', async () => {
    expect((await post('/query/cml', { reveal: 'nope', measures: ['revenue'] })).statusCode).toBe(404);
    expect((await post('/query/cml', { domain: 'finance', reveal: 'sales', measures: ['revenue'] })).statusCode).toBe(404);
    const metric = await post('/query/cml', { reveal: 'sales', measures: ['profit'] });
    expect([metric.statusCode, metric.json().error]).toEqual([400, expect.stringMatching(/Unknown metric "profit" in reveal sales/)]);
    const field = await post('/query/cml', { reveal: 'sales', dimensions: ['colour'], measures: ['revenue'] });
    expect([field.statusCode, field.json().error]).toEqual([400, expect.stringMatching(/Unknown dimension "colour"/)]);
  });
});

describe('POST /query/cml with role-playing joins', () => {
  it('takes role field ids as dimensions, one table alias per role', async () => {
    const lum = ws.members.luminary;
    const content = `node role_orders {
  connection: warehouse
  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension customer_id { type: number  hidden: true }
  measure n { type: count }
  join buyer: customers { relationship: many_to_one  on: \${customer_id} = \${buyer.id} }
  join payer: customers { relationship: many_to_one  on: \${customer_id} = \${payer.id} }
}
reveal role_sales {
  domain: commerce
  base: role_orders
  metric orders { measure: n }
}
`;
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'roles', [{ path: 'roles.cml', content }]);
    const body = (await post('/query/cml', { reveal: 'role_sales', dimensions: ['buyer.segment', 'payer.region'], measures: ['orders'] })).json();
    expect(body.sql).toMatch(/shop\.customers AS "buyer"/);
    expect(body.sql).toMatch(/shop\.customers AS "payer"/);
    const total = body.result.rows.reduce((sum: number, row: { orders: number }) => sum + row.orders, 0);
    expect(total).toBe(1500);
    expect(Object.keys(body.result.rows[0])).toEqual(['buyer.segment', 'payer.region', 'orders']);
  });
});

describe('history', () => {
  it('records every run of the caller (success, refused, error), newest first, paginated, and only theirs', async () => {
    const editor = await signIn(t.app, ws.members.editor.email);
    await post('/query', { connection: 'warehouse', sql: 'SELECT 1 AS one' }, editor);
    await post('/query', { connection: 'warehouse', sql: 'DROP TABLE shop.orders' }, editor);
    await post('/query', { connection: 'warehouse', sql: 'SELECT nope FROM shop.orders' }, editor);
    await post('/query/cml', { reveal: 'sales', measures: ['revenue'] }, editor);

    const first = (await get('/history?limit=3', editor)).json();
    expect(first.runs.map((r: { status: string; surface: string }) => [r.status, r.surface])).toEqual([
      ['success', 'studio_cml'],
      ['error', 'studio'],
      ['refused', 'studio'],
    ]);
    expect(first.runs[0]).toMatchObject({ source: 'governed-analytics-service', connection: 'warehouse' });
    expect(first.runs[2].error).toMatch(/Only SELECT, WITH and EXPLAIN/);
    const second = (await get(`/history?limit=3&cursor=${first.next_cursor}`, editor)).json();
    expect(second.runs.map((r: { sql: string }) => r.sql)).toEqual(['SELECT 1 AS one']);
    expect(second.next_cursor).toBeNull();
    expect(second.runs[0]).toMatchObject({ status: 'success', row_count: 1 });

    const othersView = (await get('/history', tracer)).json().runs.map((r: { sql: string }) => r.sql);
    expect(othersView).not.toContain('SELECT 1 AS one');
    expect((await get('/history?cursor=garbage', editor)).statusCode).toBe(400);
  });

  it("never shows another workspace's connections or history", async () => {
    const stranger = await signIn(t.app, other.members.tracer.email);
    expect((await get('/connections', stranger)).json().connections).toEqual([]);
    expect((await post('/query', { connection: 'warehouse', sql: 'SELECT 1' }, stranger)).statusCode).toBe(404);
    expect((await get('/history', stranger)).json().runs).toEqual([]);
  });
});
