// GET /metrics: absent without SVC_METRICS_TOKEN, 401 without the right token, and with it the
// service's counters in Prometheus text format: requests by route and status, warehouse runs by engine,
// cache lookups and bytes, rate-limit and SQL-guard refusals, store pool, scheduler lag, webhook backlog.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { recordEvent } from '../src/events/event-record.js';
import { vaultsRepo } from '../src/store/vaults-repo.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';

const TOKEN = 'metrics-token-for-the-scraper';
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-metrics-'));
let t: TestApp;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_METRICS_TOKEN: TOKEN, SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 100 });
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** With `authorization` '' for none. */
const scrape = (app: TestApp = t, authorization = `Bearer ${TOKEN}`) =>
  app.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one series, by its name and labels as they appear in the text. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('access', () => {
  it('404 when no token is configured, as for any unknown route', async () => {
    const bare = await startTestApp();
    try {
      const response = await scrape(bare);
      expect([response.statusCode, response.json().code]).toEqual([404, 'route_not_found']);
    } finally {
      await bare.close();
    }
  });

  it('401 without the token or with another, even one of the same length', async () => {
    for (const authorization of ['', 'Bearer not-the-token', `Bearer ${'x'.repeat(TOKEN.length)}`, TOKEN]) {
      const response = await scrape(t, authorization);
      expect([response.statusCode, response.json().code]).toEqual([401, 'invalid_metrics_token']);
    }
  });

  it('200 in Prometheus text format with the token', async () => {
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE svc_http_request_duration_seconds histogram');
  });
});

describe('what it counts', () => {
  it('requests by route pattern and status, with latency buckets', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read'] })).value;
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/v1/nodes/orders', headers: { authorization: `Bearer ${key}` } });
    await t.app.inject({ method: 'GET', url: '/v1/nodes/nope', headers: { authorization: `Bearer ${key}` } });
    const text = (await scrape()).body;
    expect(series(text, 'svc_http_request_duration_seconds_count', { route: '/v1/nodes/:node_id', status: '200', method: 'GET' })).toBe(3);
    expect(series(text, 'svc_http_request_duration_seconds_count', { route: '/v1/nodes/:node_id', status: '404' })).toBe(1);
    expect(series(text, 'svc_http_request_duration_seconds_bucket', { route: '/v1/nodes/:node_id', status: '200', le: '+Inf' })).toBe(3);
    expect(text).not.toContain('/v1/nodes/orders'); // patterns, never raw URLs
  });

  it('structured cache hits, misses and bytes, and warehouse runs by engine', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    const before = (await scrape()).body;
    const query = { node: 'orders', dimensions: ['status'], measures: ['order_count'], limit: 321 };
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}` }, payload: query });
    const after = (await scrape()).body;
    const delta = (name: string, labels: Record<string, string>) => (series(after, name, labels) ?? 0) - (series(before, name, labels) ?? 0);
    expect(delta('svc_result_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(delta('svc_result_cache_lookups_total', { result: 'hit' })).toBe(2);
    expect(series(after, 'svc_result_cache_bytes')).toBeGreaterThan(0);
    expect(series(after, 'svc_result_cache_bytes')).toBe(t.services.resultCache.stats().bytes);
    expect(delta('svc_warehouse_run_duration_seconds_count', { engine: 'duckdb', outcome: 'success' })).toBe(1);
    // The run's connection went back to the DuckDB driver's pool (idle); the deploy's value-index builds
    // may hold others meanwhile. Nobody waits: DuckDB runs open a connection rather than queue.
    const total = series(after, 'svc_warehouse_pool_connections', { engine: 'duckdb', state: 'total' })!;
    const idle = series(after, 'svc_warehouse_pool_connections', { engine: 'duckdb', state: 'idle' })!;
    expect(idle).toBeGreaterThanOrEqual(1);
    expect(total).toBeGreaterThanOrEqual(idle);
    expect(series(after, 'svc_warehouse_pool_connections', { engine: 'duckdb', state: 'waiting' })).toBe(0);
  });

  it('rate-limit refusals and statements the SQL guard refused', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'question', { rateLimit: 1 })).value;
    const ask = () => t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question: 'how many orders' } });
    await ask();
    expect((await ask()).statusCode).toBe(429);
    const editor = await signIn(t.app, ws.members.editor.email);
    const refused = await t.app.inject({ method: 'POST', url: '/api/studio/query', headers: { cookie: editor, 'content-type': 'application/json' }, payload: { connection: 'warehouse', sql: 'DROP TABLE shop.orders' } });
    expect(refused.statusCode).toBe(400);
    const text = (await scrape()).body;
    expect(series(text, 'svc_rate_limit_refusals_total', { route: '/api/v1/ask' })).toBe(1);
    expect(series(text, 'svc_sql_guard_refusals_total', { engine: 'duckdb' })).toBe(1);
  });

  it('scheduler lag: how long the oldest due signal has waited, and the webhook backlog', async () => {
    const before = (await scrape()).body;
    expect(series(before, 'svc_signal_scheduler_lag_seconds')).toBe(0);
    expect(series(before, 'svc_webhook_backlog')).toBe(0);

    const owner = ws.members.luminary.id;
    const now = t.clock.now();
    const vault = await vaultsRepo(t.store.db).create({ workspaceId: ws.id, name: 'Lagging', description: '', createdBy: owner, at: now });
    const signal = { vault_id: vault.id, name: 'late', watch: {}, condition: 'greater_than', threshold: 1, cron: null, timezone: null, interval_seconds: 60, enabled: true };
    await t.services.signalRows.insert(ws.id, owner, { ...signal, next_run_at: new Date(now.getTime() - 90_000) }, now);
    await t.services.signalRows.insert(ws.id, owner, { ...signal, name: 'on time', next_run_at: new Date(now.getTime() + 60_000) }, now);

    const { endpoint } = await t.services.webhooks.create(ws.id, { url: 'http://127.0.0.1:9/hook', events: ['model.deployed'] });
    for (let i = 0; i < 2; i++) {
      const event = await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: {} });
      await t.store.db.insertInto('webhook_deliveries').values({ event_id: event.id, endpoint_id: endpoint.id, workspace_id: ws.id }).execute();
    }

    const after = (await scrape()).body;
    expect(series(after, 'svc_signal_scheduler_lag_seconds')).toBeGreaterThanOrEqual(90);
    expect(series(after, 'svc_signal_scheduler_lag_seconds')).toBeLessThan(120);
    expect(series(after, 'svc_webhook_backlog')).toBe(2);
  });
});

describe.skipIf(!(await hasService('postgres')))('on a PostgreSQL store', () => {
  it("reports the store pool's connections, and a PostgreSQL warehouse's", async () => {
    const db = await createTestDatabase();
    const app = await startTestApp({ databaseUrl: db.url, env: { SVC_METRICS_TOKEN: TOKEN } });
    try {
      const space = await seedWorkspace(app.services);
      const url = new URL(db.url);
      await app.services.connections.create(space.id, { name: 'pg', engine: 'postgres', settings: { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username } });
      const tracer = await signIn(app.app, space.members.tracer.email);
      const run = await app.app.inject({ method: 'POST', url: '/api/studio/query', headers: { cookie: tracer, 'content-type': 'application/json' }, payload: { connection: 'pg', sql: 'SELECT 1 AS one' } });
      expect(run.statusCode, run.body).toBe(200);
      const text = (await scrape(app)).body;
      expect(series(text, 'svc_store_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(series(text, 'svc_store_pool_connections', { state: 'waiting' })).toBe(0);
      expect(series(text, 'svc_warehouse_pool_connections', { engine: 'postgres', state: 'total' })).toBe(1);
      expect(series(text, 'svc_warehouse_pool_connections', { engine: 'postgres', state: 'idle' })).toBe(1);
      expect(series(text, 'svc_warehouse_pool_connections', { engine: 'postgres', state: 'waiting' })).toBe(0);
    } finally {
      await app.close();
      await db.drop();
    }
  });
});

describe.skipIf(!(await hasService('mysql')))('with a MySQL/MariaDB warehouse', () => {
  it("reports the mysql2 pool's connections once a run has given its connection back", async () => {
    const db = await createTestMysqlDatabase();
    const app = await startTestApp({ env: { SVC_METRICS_TOKEN: TOKEN } });
    try {
      const space = await seedWorkspace(app.services);
      const url = new URL(db.url);
      const settings = { host: url.hostname, port: Number(url.port || 3306), database: db.database, user: decodeURIComponent(url.username), ...(url.password ? { password: decodeURIComponent(url.password) } : {}) };
      await app.services.connections.create(space.id, { name: 'maria', engine: 'mysql', settings });
      const tracer = await signIn(app.app, space.members.tracer.email);
      const run = await app.app.inject({ method: 'POST', url: '/api/studio/query', headers: { cookie: tracer, 'content-type': 'application/json' }, payload: { connection: 'maria', sql: 'SELECT 1 AS one' } });
      expect(run.statusCode, run.body).toBe(200);
      // The driver resets the session after answering, then gives the connection back: idle from then on.
      await vi.waitFor(async () => {
        const text = (await scrape(app)).body;
        expect(series(text, 'svc_warehouse_pool_connections', { engine: 'mysql', state: 'total' })).toBe(1);
        expect(series(text, 'svc_warehouse_pool_connections', { engine: 'mysql', state: 'idle' })).toBe(1);
        expect(series(text, 'svc_warehouse_pool_connections', { engine: 'mysql', state: 'waiting' })).toBe(0);
      }, { timeout: 3000, interval: 50 });
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
