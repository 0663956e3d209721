// Surface B over the real guard, model service and drivers: workspace, projects, nodes with their CML,
// read-only raw SQL capped at 1,000 rows, every status of spec section 7, and workspace isolation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-b-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let key: string;
let otherKey: string;
let warehouseId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { TRUST_PROXY: 'true', SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  warehouseId = (await t.services.connections.list(ws.id)).find((c) => c.name === 'warehouse')!.id;
  key = (await createKey(t.services, ws, 'viewer', 'workspace')).value;
  otherKey = (await createKey(t.services, other, 'luminary', 'workspace')).value;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function b(method: 'GET' | 'POST', url: string, options: { payload?: unknown; key?: string; https?: boolean } = {}) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${options.key ?? key}`, ...(options.https === false ? {} : { 'x-forwarded-proto': 'https' }) },
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
}

describe('metadata', () => {
  it('GET /workspace, /projects', async () => {
    expect((await b('GET', '/workspace')).json().workspace).toMatchObject({ id: ws.id, plan: 'team' });
    const projects = (await b('GET', '/projects')).json().projects;
    expect(projects).toEqual([{ id: expect.any(String), name: 'Demo', slug: 'demo', created_at: expect.any(String) }]);
  });

  it('lists the deployed nodes of a project with their CML, and reads one', async () => {
    const list = await b('GET', '/projects/demo/nodes');
    expect(list.statusCode).toBe(200);
    const nodes = list.json().nodes as Array<Record<string, string>>;
    expect(nodes.map((n) => n.name)).toEqual(['customers', 'order_items', 'orders', 'products']);
    const orders = nodes.find((n) => n.name === 'orders')!;
    expect(orders).toMatchObject({ status: 'active', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(orders.content).toMatch(/^node orders \{[\s\S]*\}$/);
    expect(orders.cml).toBe(orders.content);

    const one = await b('GET', '/projects/demo/nodes/orders');
    expect(one.statusCode).toBe(200);
    expect(one.json().node).toEqual({ id: orders.id, name: 'orders', content: orders.content, cml: orders.content, created_at: orders.created_at });
  });

  it('404 for an unknown project or node', async () => {
    expect((await b('GET', '/projects/nope/nodes')).json()).toEqual({ error: 'Unknown project "nope"', code: 'unknown_project' });
    const node = await b('GET', '/projects/demo/nodes/invoices');
    expect(node.statusCode).toBe(404);
    expect(node.json().error).toMatch(/Unknown node "invoices"/);
  });
});

describe('POST /query', () => {
  it('runs a read and answers columns, rows and row_count', async () => {
    const response = await b('POST', '/query', { payload: { connection_id: warehouseId, sql: 'SELECT status, COUNT(*) AS n FROM shop.orders GROUP BY 1 ORDER BY 1' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.columns).toEqual(['status', 'n']);
    expect(body.row_count).toBe(body.rows.length);
    expect(body.rows.reduce((sum: number, row: { n: number }) => sum + row.n, 0)).toBe(1500);
  });

  it('never returns more than 1,000 rows, whatever limit is given', async () => {
    const sql = 'SELECT * FROM range(5000) t(i)';
    expect((await b('POST', '/query', { payload: { connection_id: warehouseId, sql } })).json().row_count).toBe(1000);
    expect((await b('POST', '/query', { payload: { connection_id: warehouseId, sql, limit: 5000 } })).json().row_count).toBe(1000);
    expect((await b('POST', '/query', { payload: { connection_id: warehouseId, sql, limit: 7 } })).json().row_count).toBe(7);
  });

  it('refuses writes before they reach the warehouse', async () => {
    const response = await b('POST', '/query', { payload: { connection_id: warehouseId, sql: 'DELETE FROM shop.orders' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Only SELECT, WITH and EXPLAIN statements are allowed', code: 'read_only_violation' });
  });

  it.each<[string, unknown]>([
    ['no sql', { connection_id: '00000000-0000-4000-8000-000000000000' }],
    ['no connection', { sql: 'SELECT 1' }],
    ['a connection id that is not a UUID', { connection_id: 'warehouse', sql: 'SELECT 1' }],
    ['limit 0', { connection_id: '00000000-0000-4000-8000-000000000000', sql: 'SELECT 1', limit: 0 }],
    ['an unknown field', { connection_id: '00000000-0000-4000-8000-000000000000', sql: 'SELECT 1', database: 'x' }],
  ])('400 for %s', async (_name, payload) => {
    const response = await b('POST', '/query', { payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid request: body/);
  });

  it('404 for an unknown connection, and for another workspace’s (never revealing it exists)', async () => {
    const unknown = await b('POST', '/query', { payload: { connection_id: '00000000-0000-4000-8000-000000000000', sql: 'SELECT 1' } });
    const foreign = await b('POST', '/query', { payload: { connection_id: warehouseId, sql: 'SELECT 1' }, key: otherKey });
    expect(unknown.statusCode).toBe(404);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe(unknown.json().code);
  });
});

describe('spec section 7 statuses on the real routes', () => {
  it('400 malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/query',
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      payload: '{"sql": ',
    });
    expect([response.statusCode, response.json().code]).toEqual([400, 'malformed_json']);
  });

  it('401 missing or invalid key; 403 over plain HTTP; 403 without the Team plan', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: { 'x-forwarded-proto': 'https' } })).statusCode).toBe(401);
    expect((await b('GET', '/projects', { key: `svc_${'0'.repeat(64)}` })).statusCode).toBe(401);
    expect((await b('GET', '/projects', { https: false })).json()).toEqual({ error: 'HTTPS is required', code: 'https_required' });
    const free = await seedWorkspace(t.services, 'team');
    const freeKey = (await createKey(t.services, free, 'luminary', 'workspace')).value;
    await t.store.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', free.id).execute();
    await t.services.shared.bump('identity');
    expect((await b('GET', '/projects', { key: freeKey })).json()).toEqual({ error: 'API access requires the Team plan', code: 'plan_required' });
  });

  it('429 after 60 requests in a minute, with the X-RateLimit headers', async () => {
    const own = (await createKey(t.services, ws, 'viewer', 'workspace')).value;
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) + 5);
    for (let i = 0; i < 60; i++) expect((await b('GET', '/workspace', { key: own })).statusCode).toBe(200);
    const limited = await b('GET', '/projects', { key: own });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' });
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('workspace isolation', () => {
  it("a key of another workspace never sees this one's projects, nodes or connections", async () => {
    expect((await b('GET', '/projects', { key: otherKey })).json()).toEqual({ projects: [] });
    expect((await b('GET', '/projects/demo/nodes', { key: otherKey })).statusCode).toBe(404);
    expect((await b('GET', '/projects/demo/nodes/orders', { key: otherKey })).statusCode).toBe(404);
  });
});
