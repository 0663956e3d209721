// GET /api/rollups and POST /api/rollups/:node/:name/build on PGlite and PostgreSQL: a workspace with a
// small DuckDB source and a model with a rollup is deployed, the build loop runs once, one /v1/query is
// answered by the rollup (a hit) and one from the source (a miss, by reason code); the list shows the
// rollup's state, partitions, rows and counts (on another instance over the same store too, the counts
// being kept in the store), "build now" makes it due, another workspace's luminary gets 404, a viewer 403.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { consoleCall, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { createTestDatabase } from '../helpers/services.js';
import { test } from 'vitest';
import { factRows, loadDuckDbFacts } from './fact-table.js';

const MODEL = `node orders {
  connection: warehouse  table: main.orders
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  rollup by_status { dimensions: [status]  measures: [order_count]  refresh: on_deploy }
}
`;

const series = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
const TOKEN = 'rollup-api-metrics-token-0123456789';

describe.each(METADATA_STORES)('rollups API on $store', (store) => {
  const it = store.available ? test : test.skip;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rollapi-'));
  const otherDir = mkdtempSync(path.join(tmpdir(), 'rollapi-other-'));
  let t: TestApp;
  let other: TestApp;
  let ws: SeededWorkspace;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (!store.available) return;
    const database = store.postgres ? await createTestDatabase() : undefined;
    drop = database?.drop;
    t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_METRICS_TOKEN: TOKEN }, ...(database ? { databaseUrl: database.url } : {}) });
    // A second instance over the same metadata store, with files of its own.
    other = await startTestApp({ store: t.store, env: { SVC_DATA_DIR: otherDir } });
    ws = await seedWorkspace(t.services);
    const directory = t.services.connections.directoryOf(ws.id);
    mkdirSync(directory, { recursive: true });
    await loadDuckDbFacts(path.join(directory, 'facts.duckdb'), factRows(200, 5));
    await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'duckdb', settings: { path: 'facts.duckdb' } });
    const lum = ws.members.luminary;
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'facts', [{ path: 'facts.cml', content: MODEL }], { message: 'facts', projectName: 'Facts' });
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('lists the built rollup with its hits and misses, builds it on demand, and keeps it to its workspace', async () => {
    const { services } = t;
    const editor = await signIn(t.app, ws.members.editor.email);
    const luminary = await signIn(t.app, ws.members.luminary.email);
    const viewer = await signIn(t.app, ws.members.viewer.email);

    const before = await consoleCall(t, editor, 'GET', '/api/rollups');
    expect(before.statusCode).toBe(200);
    expect(before.json().rollups).toMatchObject([{ node: 'orders', name: 'by_status', state: 'pending', partitions_built: 0, partitions_total: 1, rows: 0, hits: 0, misses: 0 }]);
    expect(before.json().file_bytes).toBeNull();

    const loop = new RollupBuildScheduler(services.rollupBuildRows, services.rollupBuilds, t.clock, 60_000, { pollMs: 60_000 });
    const buildStarted = t.clock.now().getTime();
    expect(await loop.tick()).toBe(1);
    const buildEnded = t.clock.now().getTime();

    const key = (await createKey(services, ws, 'luminary', 'structured')).value;
    const query = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}` }, payload });
    const hit = await query({ node: 'orders', dimensions: ['status'], measures: ['order_count'] });
    expect(hit.statusCode).toBe(200);
    expect(hit.json().metadata.rollup.name).toBe('by_status');
    const miss = await query({ node: 'orders', dimensions: ['region'], measures: ['order_count'] });
    expect(miss.statusCode).toBe(200);
    expect(miss.json().metadata.rollup).toMatchObject({ used: null, candidates: [{ name: 'by_status', reason_code: 'lacks_dimension' }] });

    const listed = await consoleCall(t, editor, 'GET', '/api/rollups');
    expect(listed.statusCode).toBe(200);
    const [rollup] = listed.json().rollups;
    expect(rollup).toMatchObject({ node: 'orders', name: 'by_status', state: 'ready', partitions_built: 1, partitions_total: 1, rows: hit.json().data.length, last_error: null, next_refresh_at: null, build_due: false, hits: 1, misses: 1, miss_reasons: { lacks_dimension: 1 } });
    expect(rollup.table).toMatch(/by_status/);
    expect(Date.parse(rollup.last_built_at)).toBeGreaterThanOrEqual(buildStarted);
    expect(Date.parse(rollup.last_built_at)).toBeLessThanOrEqual(buildEnded);
    expect(rollup.last_build_ms).toBeGreaterThanOrEqual(0);
    expect(listed.json().file_bytes).toBeGreaterThan(0);
    // The counts are the store's: another instance lists the same.
    const elsewhere = await other.services.rollupOverviews.list(ws.id);
    expect(elsewhere.rollups[0]!.answers).toEqual({ hits: 1, misses: 1, missReasons: { lacks_dimension: 1 } });

    const scraped = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(series(scraped.body, 'svc_rollup_answers_total{outcome="hit",reason=""}')).toBe(1);
    expect(series(scraped.body, 'svc_rollup_answers_total{outcome="miss",reason="lacks_dimension"}')).toBe(1);
    expect(scraped.body).not.toContain(ws.id);

    // On C with a key that reads models: the same list.
    const v1 = await t.app.inject({ method: 'GET', url: '/v1/rollups', headers: { authorization: `Bearer ${key}` } });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().rollups[0]).toMatchObject({ name: 'by_status', hits: 1 });

    expect((await consoleCall(t, viewer, 'GET', '/api/rollups')).statusCode).toBe(403);
    const refused = await consoleCall(t, viewer, 'POST', '/api/rollups/orders/by_status/build', {});
    expect(refused.statusCode).toBe(403);
    expect((await consoleCall(t, editor, 'POST', '/api/rollups/orders/by_status/build', {})).statusCode).toBe(403);

    t.clock.advance(60_000);
    const asked = t.clock.now().getTime();
    const built = await consoleCall(t, luminary, 'POST', '/api/rollups/orders/by_status/build', {});
    expect(built.statusCode).toBe(202);
    expect(built.json().rollup).toMatchObject({ name: 'by_status', state: 'ready', build_due: true });
    const due = Date.parse(built.json().rollup.next_refresh_at);
    expect(due).toBeGreaterThanOrEqual(asked);
    expect(due).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await loop.tick()).toBe(1);
    const rebuilt = (await consoleCall(t, editor, 'GET', '/api/rollups')).json().rollups[0];
    expect(rebuilt).toMatchObject({ state: 'ready', next_refresh_at: null, build_due: false });
    expect(Date.parse(rebuilt.last_built_at)).toBeGreaterThanOrEqual(due);

    const unknown = await consoleCall(t, luminary, 'POST', '/api/rollups/orders/by_region/build', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('unknown_rollup');

    // Another workspace: its luminary neither sees nor builds this one's rollup.
    const stranger = await seedWorkspace(services);
    const strangerCookie = await signIn(t.app, stranger.members.luminary.email);
    expect((await consoleCall(t, strangerCookie, 'GET', '/api/rollups')).json()).toEqual({ rollups: [], file_bytes: null });
    const across = await consoleCall(t, strangerCookie, 'POST', '/api/rollups/orders/by_status/build', {});
    expect(across.statusCode).toBe(404);
    expect(across.body).not.toContain(rollup.table);
  });
});
