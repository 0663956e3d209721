// The cached answers of POST /v1/query, looked up before the query is compiled: a hit is the stored
// answer text, and it never crosses workspaces, users with other data keys, model deployments,
// connection changes or quarter hours (for filters relative to now). A hit opens no connection secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDuckDb, loadPostgres } from '../src/core/demo/index.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { DEMO_CONNECTION, DEMO_MODEL_DIR, readModelDir, setUpDemo } from '../src/demo-setup.js';
import { queryAnswerSchema } from '../src/surfaces/structured/query-routes.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-answer-cache-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let lumKey: string;
let editorKey: string;
let tracerKey: string;
let otherKey: string;

beforeAll(async () => {
  // Entries outlive the quarter hours the clock is moved by: only the key can tell them apart.
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_RESULT_CACHE_SECONDS: '7200' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  for (const space of [ws, other]) {
    const lum = space.members.luminary;
    await setUpDemo(t.services, { workspaceId: space.id, userId: lum.id, email: lum.email }, { orders: 400 });
  }
  lumKey = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:write', 'users:write'] })).value;
  editorKey = (await createKey(t.services, ws, 'editor', 'structured')).value;
  tracerKey = (await createKey(t.services, ws, 'tracer', 'structured')).value;
  otherKey = (await createKey(t.services, other, 'luminary', 'structured')).value;
  // The tracer sees what the luminary sees; the editor one region only.
  for (const [user, region] of [[ws.members.tracer.id, '*'], [ws.members.editor.id, 'Europe']] as const) {
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/users/${user}/attributes`, headers: { authorization: `Bearer ${lumKey}` }, payload: { region } });
    expect(patched.statusCode).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let unique = 0;
/** A query no other test asks (its limit differs), so each test starts with an empty entry. */
function freshQuery(extra: Record<string, unknown> = {}) {
  return { node: 'orders', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], limit: 1000 - unique++, ...extra };
}

function ask(key: string, payload: unknown, headers: Record<string, string> = {}, app: TestApp = t) {
  return app.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, ...headers }, payload: payload as object });
}

const total = (rows: Array<{ order_count: number }>) => rows.reduce((sum, row) => sum + row.order_count, 0);

describe('a cache hit', () => {
  it('is the answer as first sent, marked cached, as JSON that the response schema accepts', async () => {
    const query = freshQuery();
    const miss = await ask(lumKey, query);
    const hit = await ask(lumKey, query);
    expect([miss.statusCode, miss.headers['x-cache'], hit.statusCode, hit.headers['x-cache']]).toEqual([200, 'miss', 200, 'hit']);
    expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hit.headers['x-request-id']).toBeTruthy();
    const body = hit.json();
    expect(queryAnswerSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual({ ...miss.json(), metadata: { ...miss.json().metadata, cached: true } });
    // Byte for byte the text the response's serializer wrote for the miss, but for the mark.
    expect(hit.body).toBe(miss.body.replace('"cached":false', '"cached":true'));
  });

  it('is shared by equivalent requests: defaults spelled out or left implicit', async () => {
    const query = freshQuery();
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('miss');
    expect((await ask(lumKey, { ...query, filters: [], sorts: [] })).headers['x-cache']).toBe('hit');
  });
});

describe('a cache hit never crosses', () => {
  it('workspaces, though their models, data and request are the same', async () => {
    const query = freshQuery();
    const mine = await ask(lumKey, query);
    const theirs = await ask(otherKey, query);
    expect([mine.headers['x-cache'], theirs.headers['x-cache']]).toEqual(['miss', 'miss']);
    expect(theirs.json().metadata.cached).toBe(false);
    expect((await ask(otherKey, query)).headers['x-cache']).toBe('hit');
  });

  it('users with other data keys, while users with the same ones share an entry', async () => {
    const query = freshQuery();
    const everyone = await ask(lumKey, query);
    const europe = await ask(editorKey, query);
    expect(europe.headers['x-cache']).toBe('miss');
    expect(total(europe.json().data)).toBeLessThan(total(everyone.json().data));
    const same = await ask(tracerKey, query);
    expect(same.headers['x-cache']).toBe('hit');
    expect(same.json().data).toEqual(everyone.json().data);
  });

  it('a change of data keys: the next request is answered under the new ones', async () => {
    const query = freshQuery();
    const before = await ask(editorKey, query);
    expect((await ask(editorKey, query)).headers['x-cache']).toBe('hit');
    const editor = ws.members.editor.id;
    const patch = (region: string) => t.app.inject({ method: 'PATCH', url: `/v1/users/${editor}/attributes`, headers: { authorization: `Bearer ${lumKey}` }, payload: { region } });
    expect((await patch('*')).statusCode).toBe(200);
    try {
      const widened = await ask(editorKey, query);
      expect(widened.headers['x-cache']).toBe('miss');
      expect(total(widened.json().data)).toBeGreaterThan(total(before.json().data));
    } finally {
      await patch('Europe');
    }
  });

  it('a model deployment', async () => {
    const query = freshQuery();
    await ask(lumKey, query);
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('hit');
    const files = await readModelDir(DEMO_MODEL_DIR);
    const deployed = await t.app.inject({ method: 'POST', url: '/v1/model/deploy', headers: { authorization: `Bearer ${lumKey}` }, payload: { project: 'demo', files } });
    expect(deployed.statusCode).toBe(200);
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('miss');
  });

  it('a change of connection: the next request reads the warehouse the connection now names', async () => {
    const query = freshQuery({ dimensions: [], measures: ['order_count'] });
    expect((await ask(lumKey, query)).json().data).toEqual([{ order_count: 400 }]);
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('hit');
    await loadDuckDb(path.join(t.services.connections.directoryOf(ws.id), 'smaller.duckdb'), { orders: 150, now: t.clock.now() });
    const connection = (await t.services.connections.list(ws.id)).find((c) => c.name === DEMO_CONNECTION)!;
    await t.services.connections.update(ws.id, connection.id, { settings: { path: 'smaller.duckdb' } });
    const after = await ask(lumKey, query);
    expect([after.headers['x-cache'], after.json().data]).toEqual(['miss', [{ order_count: 150 }]]);
  });

  it('the day a filter relative to now was answered on', async () => {
    const query = freshQuery({ filters: [{ field: 'created_at', operator: 'inThePast', value: '30 days' }] });
    // Ten minutes before midnight UTC (the workspace's zone), then past it: "the past 30 days" moves on.
    const now = t.clock.now().getTime();
    const day = 86_400_000;
    t.clock.advance(day - (now % day) - 10 * 60_000);
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('miss');
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('hit');
    t.clock.advance(15 * 60_000);
    expect((await ask(lumKey, query)).headers['x-cache']).toBe('miss');
  });
});

describe('Cache-Control', () => {
  it('no-cache and no-store: neither read from the cache nor kept in it', async () => {
    for (const directive of ['no-cache', 'no-store']) {
      const query = freshQuery();
      await ask(lumKey, query);
      const bypass = await ask(lumKey, query, { 'cache-control': directive });
      expect([bypass.headers['x-cache'], bypass.json().metadata.cached]).toEqual(['bypass', false]);

      const fresh = freshQuery();
      expect((await ask(lumKey, fresh, { 'cache-control': directive })).headers['x-cache']).toBe('bypass');
      expect((await ask(lumKey, fresh)).headers['x-cache']).toBe('miss');
    }
  });
});

const withPostgres = await hasService('postgres');

describe.skipIf(!withPostgres)('a connection with a password', () => {
  it('is not opened to answer a hit', async () => {
    const db = await createTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-answer-cache-pg-'));
    const app = await startTestApp({ env: { SVC_DATA_DIR: dir } });
    const open = vi.spyOn(SecretBox.prototype, 'open');
    try {
      await loadPostgres(db.url, { orders: 200, now: app.clock.now() });
      const space = await seedWorkspace(app.services);
      const url = new URL(db.url);
      // Trust authentication ignores it; the service still keeps it sealed and opens it to connect.
      await app.services.connections.create(space.id, {
        name: DEMO_CONNECTION,
        engine: 'postgres',
        settings: { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: url.username },
        password: 'sealed in the store',
      });
      const lum = space.members.luminary;
      await setUpDemo(app.services, { workspaceId: space.id, userId: lum.id, email: lum.email }, { orders: 10 });
      const key = (await createKey(app.services, space, 'luminary', 'structured')).value;
      const query = { node: 'orders', measures: ['order_count'] };

      // The password was opened to connect (by the demo's set-up or by this first run).
      const miss = await ask(key, query, {}, app);
      expect([miss.statusCode, miss.headers['x-cache'], miss.json().data]).toEqual([200, 'miss', [{ order_count: 200 }]]);
      expect(open).toHaveBeenCalled();

      open.mockClear();
      const hit = await ask(key, query, {}, app);
      expect([hit.statusCode, hit.headers['x-cache']]).toEqual([200, 'hit']);
      expect(open).not.toHaveBeenCalled();

      // Nor is it opened again for a run on the pooled driver, until the connection is saved anew.
      const again = await ask(key, query, { 'cache-control': 'no-cache' }, app);
      expect([again.statusCode, again.headers['x-cache']]).toEqual([200, 'bypass']);
      expect(open).not.toHaveBeenCalled();
      const connection = (await app.services.connections.list(space.id)).find((c) => c.name === DEMO_CONNECTION)!;
      await app.services.connections.update(space.id, connection.id, { password: 'a new one' });
      const afterChange = await ask(key, query, { 'cache-control': 'no-cache' }, app);
      expect([afterChange.statusCode, afterChange.json().data]).toEqual([200, [{ order_count: 200 }]]);
      expect(open).toHaveBeenCalled();
    } finally {
      open.mockRestore();
      await app.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
