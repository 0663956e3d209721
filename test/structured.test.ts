// Surface C over the real stack: structured queries on the demo model (DuckDB) and on PostgreSQL and
// MariaDB copies checked against hand-written SQL, the result cache, nodes and fields, model validate
// and deploy (422 with lines and columns), deploy atomicity, and every status of spec section 7.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMysql, loadPostgres } from '../src/core/demo/index.js';
import { DEMO_MODEL_DIR, readModelDir, setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService, MYSQL_URL } from './helpers/services.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-c-'));
const NOW = new Date('2025-06-18T10:00:00Z');
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let lumKey: string;
let editorKey: string;
let otherKey: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  lumKey = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read', 'models:write', 'users:read', 'users:write'] })).value;
  editorKey = (await createKey(t.services, ws, 'editor', 'structured', { scopes: ['query', 'models:read', 'models:write'] })).value;
  otherKey = (await createKey(t.services, other, 'luminary', 'structured')).value;
}, 60_000);

afterAll(async () => {
  await t.close();
  for (const cleanup of cleanups) await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

function c(method: 'GET' | 'POST' | 'PATCH', url: string, options: { payload?: unknown; key?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    headers: { authorization: `Bearer ${options.key ?? lumKey}`, ...options.headers },
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
}

describe('POST /v1/query', () => {
  it('answers data keyed by ids (time dimensions as field.granularity), the SQL and metadata', async () => {
    const response = await c('POST', '/query', { payload: { node: 'orders', dimensions: ['status', 'created_at.year'], measures: ['order_count'] } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.sql).toMatch(/^SELECT/);
    expect(body.metadata).toMatchObject({ node: 'orders', cached: false, truncated: false, row_count: body.data.length, query_time_ms: expect.any(Number) });
    expect(new Date(body.metadata.ran_at).toString()).not.toBe('Invalid Date');
    expect(Object.keys(body.data[0])).toEqual(['status', 'created_at.year', 'order_count']);
    expect(body.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0)).toBe(1500);
  });

  it.each<[string, unknown, number, RegExp]>([
    ['unknown node', { node: 'invoices', measures: ['x'] }, 404, /Unknown node "invoices"/],
    ['unknown field', { node: 'orders', measures: ['profit'] }, 400, /Unknown measure "profit"/],
    ['unknown operator', { node: 'orders', measures: ['order_count'], filters: [{ field: 'status', operator: 'resembles', value: 'x' }] }, 400, /Unknown filter operator "resembles"/],
    ['unknown granularity', { node: 'orders', dimensions: ['created_at.decade'], measures: ['order_count'] }, 400, /Unknown granularity "decade"/],
    ['limit over the maximum', { node: 'orders', measures: ['order_count'], limit: 50_001 }, 400, /limit must be at most 50000/],
    ['a body without node', { measures: ['order_count'] }, 400, /body\.node/],
    ['a bad sort direction', { node: 'orders', measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'up' }] }, 400, /body\.sorts/],
  ])('%s → %i', async (_name, payload, status, message) => {
    const response = await c('POST', '/query', { payload });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toMatch(message);
  });

  it('401 without a key or with another surface’s key; 403 without the query scope', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v1/query', payload: { node: 'orders' } })).statusCode).toBe(401);
    const question = (await createKey(t.services, ws, 'luminary', 'question')).value;
    expect((await c('POST', '/query', { key: question, payload: { node: 'orders', measures: ['order_count'] } })).json().code).toBe('wrong_key_type');
    const readOnly = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['models:read'] })).value;
    const refused = await c('POST', '/query', { key: readOnly, payload: { node: 'orders', measures: ['order_count'] } });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'scope_required']);
  });

  it('matches hand-written SQL on the demo warehouse (DuckDB)', async () => {
    const data = (await c('POST', '/query', { payload: { node: 'orders', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'channel', direction: 'asc' }] } })).json().data;
    const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
    const expected = await warehouse.run('SELECT channel, COUNT(*) AS order_count, SUM(amount) AS gross_revenue FROM shop.orders GROUP BY 1 ORDER BY 1', [], { maxRows: 10, timeoutMs: 10_000 });
    expect(data).toEqual(expected.rows);
  });

  it('429 after 1000 requests in a minute for the workspace, whichever of its keys makes them', async () => {
    const space = await seedWorkspace(t.services);
    const keys = [(await createKey(t.services, space, 'viewer', 'structured')).value, (await createKey(t.services, space, 'editor', 'structured')).value];
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) + 5);
    for (let i = 0; i < 1000; i++) expect((await c('GET', '/nodes', { key: keys[i % 2] })).statusCode).toBe(200);
    const limited = await c('GET', '/nodes', { key: keys[0] });
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'rate_limited']);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it("404 for another workspace's node: each key sees only its own live model", async () => {
    const response = await c('POST', '/query', { key: otherKey, payload: { node: 'orders', measures: ['order_count'] } });
    expect(response.statusCode).toBe(404);
  });
});

describe('result cache', () => {
  const query = { node: 'orders', dimensions: ['channel'], measures: ['gross_revenue'] };

  it('serves a repeat from the cache, and Cache-Control: no-cache bypasses it', async () => {
    const first = await c('POST', '/query', { payload: query });
    const second = await c('POST', '/query', { payload: query });
    expect([first.json().metadata.cached, second.json().metadata.cached]).toEqual([false, true]);
    expect(second.json().data).toEqual(first.json().data);
    const bypass = await c('POST', '/query', { payload: query, headers: { 'cache-control': 'no-cache' } });
    expect(bypass.json().metadata.cached).toBe(false);
  });

  it('never shares an entry between users who see different rows, and follows attribute changes at once', async () => {
    const europeUser = ws.members.editor;
    await c('PATCH', `/users/${europeUser.id}/attributes`, { payload: { region: 'Europe' } });
    const everyone = (await c('POST', '/query', { payload: query })).json();
    const europe = (await c('POST', '/query', { key: editorKey, payload: query })).json();
    expect(europe.metadata.cached).toBe(false);
    const total = (rows: Array<{ gross_revenue: number }>) => rows.reduce((sum, row) => sum + row.gross_revenue, 0);
    expect(total(europe.data)).toBeLessThan(total(everyone.data));

    await c('PATCH', `/users/${europeUser.id}/attributes`, { payload: { region: '*' } });
    const widened = (await c('POST', '/query', { key: editorKey, payload: query })).json();
    expect(total(widened.data)).toBeCloseTo(total(everyone.data), 2);
    await c('PATCH', `/users/${europeUser.id}/attributes`, { payload: { region: null } });
    const none = (await c('POST', '/query', { key: editorKey, payload: query })).json();
    expect(none.data).toEqual([]);
  });

  it('a deploy invalidates it', async () => {
    await c('POST', '/query', { payload: query });
    expect((await c('POST', '/query', { payload: query })).json().metadata.cached).toBe(true);
    const files = await readModelDir(DEMO_MODEL_DIR);
    const deploy = await c('POST', '/model/deploy', { payload: { project: 'demo', files, message: 'same model, new version' } });
    expect(deploy.statusCode).toBe(200);
    expect((await c('POST', '/query', { payload: query })).json().metadata.cached).toBe(false);
  });
});

describe('nodes', () => {
  it('lists nodes of the live model, filtered by tags and connection', async () => {
    const all = (await c('GET', '/nodes')).json().nodes;
    expect(all.map((n: { id: string }) => n.id)).toEqual(['customers', 'order_items', 'orders', 'products']);
    expect(all.find((n: { id: string }) => n.id === 'orders')).toMatchObject({ label: 'Orders', tags: ['sales', 'finance'] });
    expect((await c('GET', '/nodes?tags=finance,crm')).json().nodes.map((n: { id: string }) => n.id)).toEqual(['customers', 'orders']);
    expect((await c('GET', '/nodes?connection=elsewhere')).json().nodes).toEqual([]);
  });

  it('reads full metadata and visible fields; 404 for unknown nodes and for other workspaces', async () => {
    const detail = (await c('GET', '/nodes/orders')).json().node;
    expect(detail).toMatchObject({ id: 'orders', connection: 'warehouse', source: { table: 'shop.orders' }, project: 'demo' });
    expect(detail.joins).toEqual([{ node: 'customers', relationship: 'many_to_one' }]);
    expect(detail.data_keys).toEqual([{ name: 'region', dimension: 'ship_region', attribute: 'region' }]);
    const fields = (await c('GET', '/nodes/orders/fields')).json();
    expect(fields.node).toBe('orders');
    expect(fields.dimensions).toEqual(expect.arrayContaining([{ id: 'status', label: expect.any(String), type: 'string' }]));
    expect(fields.measures).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'gross_revenue', type: 'sum', format: 'currency' })]));
    expect(fields.dimensions.some((d: { id: string }) => d.id === 'id')).toBe(false); // hidden
    expect((await c('GET', '/nodes/invoices')).statusCode).toBe(404);
    expect((await c('GET', '/nodes/orders/fields', { key: otherKey })).statusCode).toBe(404);
  });
});

describe('model writes', () => {
  const broken = 'node broken {\n  connection: warehouse\n  table: shop.x\n  dimension a { type: strng }\n  measure m { type: sum  sql: ${nope} }\n}\n';

  it('validate answers every diagnostic with file, line and column, and writes nothing', async () => {
    const response = await c('POST', '/model/validate', { payload: { project: 'extra', files: [{ path: 'broken.cml', content: broken }] } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.valid).toBe(false);
    expect(body.diagnostics.map((d: { line: number; column: number; file: string }) => [d.file, d.line, d.column])).toEqual([
      ['broken.cml', 4, 23],
      ['broken.cml', 5, 33],
    ]);
    expect((await c('GET', '/nodes')).json().nodes.map((n: { id: string }) => n.id)).not.toContain('broken');
  });

  it('deploy answers 422 with the diagnostics and changes nothing', async () => {
    const response = await c('POST', '/model/deploy', { key: editorKey, payload: { project: 'extra', files: [{ path: 'broken.cml', content: broken }] } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'cml_invalid', diagnostics: [{ file: 'broken.cml', line: 4, column: 23, severity: 'error' }, { line: 5 }] });
  });

  it('deploy makes a project live and records it; a name another project owns is a 422', async () => {
    const ok = await c('POST', '/model/deploy', {
      key: editorKey,
      payload: { project: 'extra', files: [{ path: 'n.cml', content: 'node visits {\n  connection: warehouse\n  table: shop.customers\n  dimension id { type: number  primary_key: true }\n  measure n { type: count }\n}\n' }], pr_url: 'https://git.example.com/pr/9' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().deployment).toMatchObject({ deployed_by: ws.members.editor.email, changed_nodes: ['visits'], pr_url: 'https://git.example.com/pr/9' });
    const clash = await c('POST', '/model/deploy', { key: editorKey, payload: { project: 'extra', files: [{ path: 'o.cml', content: 'node orders {\n  connection: warehouse\n  table: shop.orders\n  dimension id { type: number }\n}\n' }] } });
    expect(clash.statusCode).toBe(422);
  });

  it('403 without models:write; 400 for a bad project slug or file name', async () => {
    const reader = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['models:read'] })).value;
    expect((await c('POST', '/model/deploy', { key: reader, payload: { project: 'x', files: [{ path: 'a.cml', content: '' }] } })).statusCode).toBe(403);
    expect((await c('POST', '/model/validate', { payload: { project: 'Bad Slug', files: [{ path: 'a.cml', content: '' }] } })).statusCode).toBe(400);
    expect((await c('POST', '/model/validate', { payload: { project: 'x', files: [{ path: 'a.txt', content: '' }] } })).statusCode).toBe(400);
  });

  it('is atomic: queries running during a deploy all answer, on the old model or the new one', async () => {
    const files = await readModelDir(DEMO_MODEL_DIR);
    const query = { node: 'orders', measures: ['order_count'], filters: [{ field: 'status', operator: 'equals', value: 'completed' }] };
    const runs = Array.from({ length: 30 }, () => c('POST', '/query', { payload: query, headers: { 'cache-control': 'no-cache' } }));
    const deploy = c('POST', '/model/deploy', { payload: { project: 'demo', files, message: 'redeploy under load' } });
    const [deployed, ...answers] = await Promise.all([deploy, ...runs]);
    expect(deployed!.statusCode).toBe(200);
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((r) => r.json().data[0].order_count)).size).toBe(1);
  });
});

describe('role-playing joins', () => {
  const roles = `node role_orders {
  connection: warehouse
  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension customer_id { type: number  hidden: true }
  measure n { type: count }
  join buyer: customers { relationship: many_to_one  on: \${TABLE}.customer_id = \${buyer.id} }
  join payer: customers { relationship: many_to_one  on: \${customer_id} = \${payer.id} }
}
`;

  it('queries take role field ids (`buyer.segment`), one table alias per role', async () => {
    const deployed = await c('POST', '/model/deploy', { key: editorKey, payload: { project: 'roles', files: [{ path: 'roles.cml', content: roles }] } });
    expect(deployed.statusCode).toBe(200);
    const response = await c('POST', '/query', {
      payload: { node: 'role_orders', dimensions: ['buyer.segment'], measures: ['n'], filters: [{ field: 'payer.region', operator: 'equals', value: 'Europe' }], sorts: [{ field: 'buyer.segment', direction: 'asc' }] },
    });
    expect(response.statusCode).toBe(200);
    const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
    const expected = await warehouse.run(
      `SELECT b.segment AS "buyer.segment", COUNT(*) AS n FROM shop.orders o LEFT JOIN shop.customers b ON o.customer_id = b.id
       LEFT JOIN shop.customers p ON o.customer_id = p.id WHERE p.region = 'Europe' GROUP BY 1 ORDER BY 1`,
      [],
      { maxRows: 10, timeoutMs: 10_000 },
    );
    expect(response.json().data).toEqual(expected.rows);
    expect(response.json().sql).toMatch(/AS "payer"/);
    const detail = (await c('GET', '/nodes/role_orders')).json().node;
    expect(detail.joins).toEqual([
      { node: 'customers', relationship: 'many_to_one', role: 'buyer' },
      { node: 'customers', relationship: 'many_to_one', role: 'payer' },
    ]);
    const byNode = await c('POST', '/query', { payload: { node: 'role_orders', dimensions: ['customers.segment'], measures: ['n'] } });
    expect(byNode.statusCode).toBe(400);
    expect(byNode.json().error).toMatch(/buyer, payer/);
  });
});

const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');

describe('on PostgreSQL and MariaDB connections, against hand-written SQL', () => {
  const query = { node: 'orders', dimensions: ['status'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'status', direction: 'asc' }] };

  async function workspaceOn(engine: 'postgres' | 'mysql', settings: Record<string, unknown>, schema: string) {
    const space = await seedWorkspace(t.services);
    await t.services.connections.create(space.id, { name: 'warehouse', engine, settings });
    const files = (await readModelDir(DEMO_MODEL_DIR)).map((f) => ({ ...f, content: f.content.replaceAll('shop.', `${schema}.`) }));
    const lum = space.members.luminary;
    await t.services.models.deploy({ workspaceId: space.id, userId: lum.id, email: lum.email }, 'demo', files);
    await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: '*' }) }).where('workspace_id', '=', space.id).execute();
    return (await createKey(t.services, space, 'luminary', 'structured')).value;
  }

  it.runIf(withPostgres)('PostgreSQL', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    await loadPostgres(db.url, { orders: 800, now: NOW });
    const url = new URL(db.url);
    const key = await workspaceOn('postgres', { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username }, 'shop');
    const data = (await c('POST', '/query', { key, payload: query })).json().data;
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const expected = (await client.query('SELECT status, COUNT(*)::int AS order_count, SUM(amount)::float AS gross_revenue FROM shop.orders GROUP BY 1 ORDER BY 1')).rows;
    await client.end();
    expect(data).toEqual(expected);
  });

  it.runIf(withMysql)('MariaDB', async () => {
    // The server-wide name other test files recognise as another file's scratch database (svc_test_<hex>).
    const database = `svc_test_${randomBytes(6).toString('hex')}`;
    await loadMysql(MYSQL_URL, { orders: 800, now: NOW, database });
    cleanups.push(async () => {
      const admin = await mysql.createConnection(MYSQL_URL);
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.end();
    });
    const url = new URL(MYSQL_URL);
    const key = await workspaceOn('mysql', { host: url.hostname, port: Number(url.port || 3306), database, user: url.username }, database);
    const data = (await c('POST', '/query', { key, payload: query })).json().data;
    const admin = await mysql.createConnection(MYSQL_URL);
    const [rows] = await admin.query(`SELECT status, COUNT(*) AS order_count, CAST(SUM(amount) AS DOUBLE) AS gross_revenue FROM ${database}.orders GROUP BY 1 ORDER BY 1`);
    await admin.end();
    expect(data).toEqual((rows as Array<Record<string, unknown>>).map((r) => ({ ...r, order_count: Number(r.order_count) })));
  });
});

const withRedis = (await hasService('redis')) && withPostgres;

describe.skipIf(!withRedis)('result cache shared through Redis', () => {
  it('one instance answers from what the other cached, and a deploy on either invalidates both', async () => {
    const { REDIS_URL } = await import('./helpers/services.js');
    const db = await createTestDatabase();
    const shared = mkdtempSync(path.join(tmpdir(), 'svc-c-redis-'));
    const one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { SVC_DATA_DIR: shared } });
    const two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { SVC_DATA_DIR: shared } });
    try {
      const space = await seedWorkspace(one.services);
      const lum = space.members.luminary;
      await setUpDemo(one.services, { workspaceId: space.id, userId: lum.id, email: lum.email }, { orders: 500 });
      const key = (await createKey(one.services, space, 'luminary', 'structured', { scopes: ['query', 'models:write'] })).value;
      const ask = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}` }, payload: { node: 'orders', measures: ['order_count'] } });
      expect((await ask(one)).json().metadata.cached).toBe(false);
      expect((await ask(two)).json().metadata).toMatchObject({ cached: true });
      const files = await readModelDir(DEMO_MODEL_DIR);
      const deployed = await two.app.inject({ method: 'POST', url: '/v1/model/deploy', headers: { authorization: `Bearer ${key}` }, payload: { project: 'demo', files } });
      expect(deployed.statusCode).toBe(200);
      expect((await ask(one)).json().metadata.cached).toBe(false);
    } finally {
      await one.close();
      await two.close();
      await db.drop();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
