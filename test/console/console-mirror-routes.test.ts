// The console's mirrors of key routes (/api/ask, /api/reveals, /api/metrics/:reveal_name, /api/nodes…,
// /api/query, /api/users…) on the demo model, for signed-in users: each answers as its key twin does,
// refuses cross-site writes, keeps roles, applies the signed-in user's data keys exactly as their own
// structured key does, and never shows one workspace another's model or members.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { consoleRequest, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-console-mirror-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const cookies: Record<'viewer' | 'editor' | 'luminary' | 'other', string> = { viewer: '', editor: '', luminary: '', other: '' };

type Method = 'GET' | 'POST' | 'PATCH';

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  for (const role of ['viewer', 'editor', 'luminary'] as const) cookies[role] = await signIn(t.app, ws.members[role].email);
  cookies.other = await signIn(t.app, other.members.luminary.email);
}, 60_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (cookie: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  consoleRequest(t.app, cookie, method, `/api${url}`, payload, headers);

function withKey(key: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

const ORDERS_BY_CHANNEL = { node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'channel', direction: 'asc' }] };
const total = (rows: Array<{ order_count: number }>) => rows.reduce((sum, row) => sum + row.order_count, 0);

describe('the console answers as the key twin does', () => {
  it('GET /api/reveals and /api/metrics/:reveal_name: the bodies of /api/v1/reveals and /api/v1/metrics/:reveal_name', async () => {
    const key = (await createKey(t.services, ws, 'viewer', 'question')).value;
    for (const url of ['/reveals', '/metrics/sales']) {
      const session = await api(cookies.viewer, 'GET', url);
      expect([url, session.statusCode]).toEqual([url, 200]);
      expect(session.json()).toEqual((await withKey(key, 'GET', `/api/v1${url}`)).json());
    }
    expect((await api(cookies.viewer, 'GET', '/reveals')).json().reveals.map((r: { name: string }) => r.name)).toEqual(['customers', 'sales']);
    const unknown = await api(cookies.viewer, 'GET', '/metrics/finance');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'unknown_reveal']);
  });

  it("POST /api/ask: the answer of /api/v1/ask, for the signed-in user, plus the governed answer's SQL", async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'question')).value;
    const question = { question: 'How many orders by channel this year?' };
    const session = await api(cookies.luminary, 'POST', '/ask', question);
    expect(session.statusCode).toBe(200);
    const twin = (await withKey(key, 'POST', '/api/v1/ask', question)).json();
    const body = session.json();
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', confidence: 'high' });
    // The console's one addition: the SQL of the headline and of the breakdown by channel.
    const { sql, ...rest } = body;
    expect(sql.split(';\n\n')).toHaveLength(2);
    expect(sql.split(';\n\n')[1]).toMatch(/channel/);
    expect(twin).not.toHaveProperty('sql');
    expect({ ...rest, usage: null }).toEqual({ ...twin, usage: null });
    expect(body.usage).toEqual({ tokens_used: 0, latency_ms: expect.any(Number) });
    const empty = await api(cookies.luminary, 'POST', '/ask', { question: '   ' });
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'invalid_request']);
  });

  it('GET /api/nodes, /api/nodes/:node_id and /api/nodes/:node_id/fields: the bodies of C', async () => {
    const key = (await createKey(t.services, ws, 'viewer', 'structured')).value;
    for (const url of ['/nodes', '/nodes?tags=sales', '/nodes/orders', '/nodes/orders/fields']) {
      const session = await api(cookies.viewer, 'GET', url);
      expect([url, session.statusCode]).toEqual([url, 200]);
      expect(session.json()).toEqual((await withKey(key, 'GET', `/v1${url}`)).json());
    }
    expect((await api(cookies.viewer, 'GET', '/nodes')).json().nodes.map((n: { id: string }) => n.id)).toContain('orders');
    const unknown = await api(cookies.viewer, 'GET', '/nodes/invoices');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'unknown_node']);
  });

  it('POST /api/query: the rows and SQL of /v1/query, and its 400s and 404s', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    const session = await api(cookies.luminary, 'POST', '/query', ORDERS_BY_CHANNEL);
    expect(session.statusCode).toBe(200);
    const twin = (await withKey(key, 'POST', '/v1/query', ORDERS_BY_CHANNEL)).json();
    expect(session.json()).toMatchObject({ data: twin.data, sql: twin.sql, metadata: { node: 'orders', row_count: twin.data.length } });
    expect(total(session.json().data)).toBe(600);
    const unknownField = await api(cookies.luminary, 'POST', '/query', { node: 'orders', measures: ['profit'] });
    expect([unknownField.statusCode, unknownField.json().error]).toEqual([400, expect.stringMatching(/Unknown measure "profit"/)]);
    expect((await api(cookies.luminary, 'POST', '/query', { node: 'invoices', measures: ['x'] })).statusCode).toBe(404);
  });

  it('GET /api/users and /api/users/:user_id (luminary): the bodies of /v1/users', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['users:read'] })).value;
    for (const url of ['/users', `/users/${ws.members.viewer.id}`]) {
      const session = await api(cookies.luminary, 'GET', url);
      expect([url, session.statusCode]).toEqual([url, 200]);
      expect(session.json()).toEqual((await withKey(key, 'GET', `/v1${url}`)).json());
    }
    const emails = (await api(cookies.luminary, 'GET', '/users')).json().users.map((u: { email: string }) => u.email);
    expect(emails.sort()).toEqual(Object.values(ws.members).map((m) => m.email).sort());
  });
});

describe('sessions only, writes same-origin JSON only', () => {
  it('401 without a session, and for an API key even a valid one', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    for (const [method, url] of [['GET', '/api/nodes'], ['POST', '/api/query'], ['GET', '/api/users'], ['POST', '/api/ask'], ['GET', '/api/reveals']] as const) {
      const bare = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
      expect([url, bare.statusCode, bare.json().code]).toEqual([url, 401, 'session_required']);
      const keyed = await withKey(key, method, url, method === 'POST' ? {} : undefined);
      expect([url, keyed.statusCode, keyed.json().code]).toEqual([url, 401, 'session_required']);
    }
  });

  it.each<[Method, string, unknown]>([
    ['POST', '/query', ORDERS_BY_CHANNEL],
    ['POST', '/ask', { question: 'how many orders this year' }],
    ['POST', '/model/validate', { project: 'demo', files: [{ path: 'x.cml', content: '' }] }],
    ['POST', '/model/deploy', { project: 'demo', files: [{ path: 'x.cml', content: '' }] }],
  ])('%s /api%s: 403 from a foreign Origin, 415 as a form, and runs nothing', async (method, url, payload) => {
    const before = await t.store.db.selectFrom('deployments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const origin of ['https://evil.example.net', 'null']) {
      const foreign = await api(cookies.luminary, method, url, payload, { origin, host: 'console.example.com' });
      expect([origin, foreign.statusCode, foreign.json().code]).toEqual([origin, 403, 'cross_site_refused']);
    }
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const form = await t.app.inject({ method, url: `/api${url}`, headers: { cookie: cookies.luminary, 'content-type': type }, payload: 'node=orders' });
      expect([type, form.statusCode, form.json().code]).toEqual([type, 415, 'unsupported_media_type']);
    }
    const after = await t.store.db.selectFrom('deployments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('PATCH /api/users/:user_id/attributes from a foreign Origin or as a form changes nothing', async () => {
    const url = `/users/${ws.members.tracer.id}/attributes`;
    const foreign = await api(cookies.luminary, 'PATCH', url, { region: 'Asia' }, { origin: 'https://evil.example.net', host: 'console.example.com' });
    expect([foreign.statusCode, foreign.json().code]).toEqual([403, 'cross_site_refused']);
    const form = await t.app.inject({ method: 'PATCH', url: `/api${url}`, headers: { cookie: cookies.luminary, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'region=Asia' });
    expect(form.statusCode).toBe(415);
    expect((await api(cookies.luminary, 'GET', `/users/${ws.members.tracer.id}`)).json().user.attributes).toEqual({});
    // The console's own page (same host in Origin) is accepted.
    const own = await api(cookies.luminary, 'PATCH', url, { team: 'north' }, { origin: 'https://console.example.com', host: 'console.example.com' });
    expect([own.statusCode, own.json().user.attributes]).toEqual([200, { team: 'north' }]);
  });
});

describe('roles', () => {
  it('a viewer or an editor may not read or edit users (403 role_required)', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const list = await api(cookies[role], 'GET', '/users');
      expect([role, list.statusCode, list.json().code]).toEqual([role, 403, 'role_required']);
      const patch = await api(cookies[role], 'PATCH', `/users/${ws.members[role].id}/attributes`, { region: '*' });
      expect([role, patch.statusCode, patch.json().code]).toEqual([role, 403, 'role_required']);
    }
    expect((await api(cookies.luminary, 'GET', `/users/${ws.members.editor.id}`)).json().user.attributes).toEqual({});
  });

  it('any role may ask, list nodes and query', async () => {
    expect((await api(cookies.viewer, 'POST', '/ask', { question: 'revenue last week' })).statusCode).toBe(200);
    expect((await api(cookies.viewer, 'POST', '/query', ORDERS_BY_CHANNEL)).statusCode).toBe(200);
    expect((await api(cookies.viewer, 'GET', '/nodes/orders/fields')).statusCode).toBe(200);
  });
});

describe("the signed-in user's data keys", () => {
  it('restrict POST /api/query rows exactly as the same user’s structured key does, from the next request on', async () => {
    const viewer = ws.members.viewer;
    const key = (await createKey(t.services, ws, 'viewer', 'structured')).value;
    const both = async () => {
      const session = (await api(cookies.viewer, 'POST', '/query', ORDERS_BY_CHANNEL, { 'cache-control': 'no-cache' })).json();
      const keyed = (await withKey(key, 'POST', '/v1/query', ORDERS_BY_CHANNEL)).json();
      expect(session.data).toEqual(keyed.data);
      expect(session.sql).toBe(keyed.sql);
      return session.data as Array<{ order_count: number }>;
    };
    // No region attribute: the data key fails closed, for the session as for the key.
    expect(await both()).toEqual([]);

    const set = await api(cookies.luminary, 'PATCH', `/users/${viewer.id}/attributes`, { region: 'Europe' });
    expect(set.json().user.attributes).toEqual({ region: 'Europe' });
    const europe = await both();
    expect(total(europe)).toBeGreaterThan(0);
    expect(total(europe)).toBeLessThan(600);
    const direct = await t.services.connections.warehouse(ws.id, 'warehouse');
    const counted = await direct.warehouse.run("SELECT COUNT(*) AS n FROM shop.orders WHERE ship_region = 'Europe'", [], { maxRows: 1, timeoutMs: 10_000 });
    expect(total(europe)).toBe(Number(counted.rows[0]!.n));

    await api(cookies.luminary, 'PATCH', `/users/${viewer.id}/attributes`, { region: '*' });
    expect(total(await both())).toBe(600);
    await api(cookies.luminary, 'PATCH', `/users/${viewer.id}/attributes`, { region: null });
    expect(await both()).toEqual([]);
  });
});

describe('workspaces', () => {
  it("a second workspace's session never sees the first's reveals, nodes, rows or members", async () => {
    expect((await api(cookies.other, 'GET', '/reveals')).json()).toEqual({ reveals: [] });
    expect((await api(cookies.other, 'GET', '/nodes')).json()).toEqual({ nodes: [] });
    expect((await api(cookies.other, 'GET', '/nodes/orders')).statusCode).toBe(404);
    expect((await api(cookies.other, 'GET', '/metrics/sales')).statusCode).toBe(404);
    expect((await api(cookies.other, 'POST', '/query', ORDERS_BY_CHANNEL)).statusCode).toBe(404);
    const users = (await api(cookies.other, 'GET', '/users')).json().users.map((u: { email: string }) => u.email);
    expect(users.sort()).toEqual(Object.values(other.members).map((m) => m.email).sort());
    expect((await api(cookies.other, 'GET', `/users/${ws.members.viewer.id}`)).statusCode).toBe(404);
    const patch = await api(cookies.other, 'PATCH', `/users/${ws.members.viewer.id}/attributes`, { region: '*' });
    expect([patch.statusCode, patch.json().code]).toEqual([404, 'unknown_user']);
  });
});
