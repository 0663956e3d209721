// Scenes that keep `compare`, `shares` and `per`, over the real stack (PGlite store, DuckDB demo
// warehouse): saved and read back as POST /v1/query takes them, checked against the live model (a 400
// naming what is wrong), run through the governed path with the caller's data keys (the rows of
// POST /v1/query for the same body and member), changed and removed by PATCH, broken by a deploy that
// removes the compared dimension (409 on runs, repaired by the next deploy), and run in mosaics as is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir, setUpDemo } from '../../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-scene-compare-'));
// The demo's data ends at this instant; comparisons' `partial` is measured against the app's clock, started here.
const NOW = new Date('2025-06-18T10:00:00Z');
let t: TestApp;
let ws: SeededWorkspace;
const keys: Record<string, string> = {};
let demoFiles: Awaited<ReturnType<typeof readModelDir>>;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The demo model with `placed_at`, a second time dimension (the order's time, under another name). */
function withPlacedAt(files: typeof demoFiles) {
  return files.map((f) =>
    f.path === 'orders.cml'
      ? { ...f, content: f.content.replace(/^(\s*)dimension created_at .*$/m, (line, indent: string) => `${line}\n${indent}dimension placed_at { type: timestamp  sql: \${TABLE}.created_at }`) }
      : f,
  );
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir }, clock: new TestClock(NOW) });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  const content = ['query', 'models:read', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: [...content, 'models:write'] })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  // The editor sees the orders shipped to Europe only (data key `region`).
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region: 'Europe' });
  demoFiles = await readModelDir(DEMO_MODEL_DIR);
  const deployed = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: withPlacedAt(demoFiles) });
  expect(deployed.statusCode, deployed.body).toBe(200);
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function c(who: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

async function saved(who: string, body: object) {
  const response = await c(who, 'POST', '/scenes', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().scene as { id: string; vault: string; name: string } & Record<string, unknown>;
}

/** What a scene keeps: a query with a comparison by month, shares and a ratio. */
const QUERY = {
  node: 'orders',
  dimensions: ['created_at.month', 'channel'],
  measures: ['gross_revenue'],
  filters: [{ field: 'status', operator: 'notEquals', value: 'cancelled' }],
  sorts: [
    { field: 'created_at.month', direction: 'asc' },
    { field: 'gross_revenue.change', direction: 'desc' },
  ],
  compare: { dimension: 'created_at', range: ['2025-03-01', '2025-07-01'], to: 'previous_year' },
  shares: [{ measure: 'gross_revenue', of: ['created_at.month'] }],
  per: [{ measure: 'gross_revenue', by: 'order_count' }],
};
const SCENE = { name: 'Revenue against a year before', ...QUERY, visualization: { type: 'bar', x: 'created_at.month', y: ['gross_revenue.change'], series: 'channel' } };

describe('scenes with compare, shares and per', () => {
  it('are saved and read back as POST /v1/query takes them, and run to the rows POST /v1/query answers the same member', async () => {
    const scene = await saved('editor', SCENE);
    expect(scene).toMatchObject({ ...SCENE, status: 'ok', version: 1 });
    const read = (await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene;
    expect(read).toEqual(scene);
    expect(read.compare).toEqual(QUERY.compare);

    for (const who of ['editor', 'luminary']) {
      const run = await c(who, 'POST', `/scenes/${scene.id}/run`);
      expect(run.statusCode, run.body).toBe(200);
      const direct = await c(who, 'POST', '/query', QUERY);
      expect(direct.statusCode, direct.body).toBe(200);
      const [body, expected] = [run.json(), direct.json()];
      expect(body.data.length).toBeGreaterThan(4);
      expect(body.data).toEqual(expected.data);
      expect(body.metadata.columns).toEqual(expected.metadata.columns);
      expect(body.metadata.comparison).toEqual(expected.metadata.comparison);
      expect(body.query).toMatchObject({ compare: QUERY.compare, shares: QUERY.shares, per: QUERY.per });
      expect(Object.keys(body.data[0])).toEqual([
        'created_at.month',
        'channel',
        'gross_revenue',
        'gross_revenue.comparison',
        'gross_revenue.change',
        'gross_revenue.change_percent',
        'gross_revenue.share',
        'gross_revenue.per.order_count',
        'created_at.partial',
      ]);
    }
    // Each member reads with their own data keys: the editor's comparison is Europe's only.
    const [europe, all] = [(await c('editor', 'POST', `/scenes/${scene.id}/run`)).json(), (await c('luminary', 'POST', `/scenes/${scene.id}/run`)).json()];
    const total = (rows: Array<Record<string, number | null>>) => rows.reduce((sum, r) => sum + (r['gross_revenue.comparison'] ?? 0), 0);
    expect(total(europe.data)).toBeLessThan(total(all.data));
    // Every statement ran through the governed path, recorded with the scene as its origin.
    await t.services.rawSql.flush();
    const runs = (await t.services.history.pageForWorkspace(ws.id, { limit: 50, origin: `scene:${scene.id}` })).rows;
    // Two runs before, two here; each of three statements: the current period, the comparison and the shares' total.
    expect(runs).toHaveLength(12);
  });

  it('keep a run’s filters and limit on top of the comparison', async () => {
    const scene = await saved('luminary', SCENE);
    const filters = [{ field: 'channel', operator: 'equals', value: 'web' }];
    const run = (await c('luminary', 'POST', `/scenes/${scene.id}/run`, { filters, limit: 2 })).json();
    const direct = (await c('luminary', 'POST', '/query', { ...QUERY, filters: [...QUERY.filters, ...filters], limit: 2 })).json();
    expect(run.data).toHaveLength(2);
    expect(run.data).toEqual(direct.data);
    expect(run.metadata.truncated).toBe(true);
  });

  it('change by PATCH: a new comparison replaces the old, null and [] remove them', async () => {
    const scene = await saved('luminary', SCENE);
    const months = { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'], to: 'previous_period' };
    const moved = await c('luminary', 'PATCH', `/scenes/${scene.id}`, { compare: months });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().scene).toMatchObject({ compare: months, shares: QUERY.shares, per: QUERY.per, version: 2 });
    expect((await c('luminary', 'POST', `/scenes/${scene.id}/run`)).json().metadata.comparison).toMatchObject({ range: ['2025-01-01T00:00:00.000', '2025-04-01T00:00:00.000'] });
    // The visualization draws a comparison's column: removing the comparison alone would leave it stray.
    const stray = await c('luminary', 'PATCH', `/scenes/${scene.id}`, { compare: null });
    expect([stray.statusCode, stray.json().code]).toEqual([400, 'invalid_scene']);
    expect(stray.json().error).toMatch(/gross_revenue\.change/);
    const plain = await c('luminary', 'PATCH', `/scenes/${scene.id}`, { compare: null, shares: [], per: null, sorts: [], visualization: { type: 'table' } });
    expect(plain.statusCode, plain.body).toBe(200);
    const body = plain.json().scene;
    expect([body.compare, body.shares, body.per]).toEqual([undefined, undefined, undefined]);
    const run = (await c('luminary', 'POST', `/scenes/${scene.id}/run`)).json();
    expect(Object.keys(run.data[0])).toEqual(['created_at.month', 'channel', 'gross_revenue']);
    expect(run.sql).not.toContain(';');
  });

  it.each<[string, object, RegExp]>([
    ['an unknown key in compare', { compare: { ...QUERY.compare, until: 'now' } }, /body\.compare: Unrecognized key: "until"/],
    ['an unknown comparison', { compare: { ...QUERY.compare, to: 'previous_decade' } }, /body\.compare\.to/],
    ['an unknown key in a share', { shares: [{ measure: 'gross_revenue', within: [] }] }, /body\.shares\[0\]: Unrecognized key: "within"/],
    ['an unknown key in a ratio', { per: [{ measure: 'gross_revenue', over: 'order_count' }] }, /body\.per\[0\]/],
    ['a compared dimension that is no time', { compare: { ...QUERY.compare, dimension: 'channel' } }, /channel/],
    ['an empty range', { compare: { ...QUERY.compare, range: ['2025-07-01', '2025-03-01'] } }, /compare\.range is empty/],
    ['a share of a dimension outside the query', { shares: [{ measure: 'gross_revenue', of: ['ship_region'] }] }, /ship_region/],
    ['a ratio by an unknown measure', { per: [{ measure: 'gross_revenue', by: 'profit' }] }, /profit/],
    ['a sort on a column the answer lacks', { sorts: [{ field: 'order_count.change', direction: 'asc' }] }, /order_count\.change/],
  ])('refuses %s with 400 naming it', async (_case, change, message) => {
    const response = await c('luminary', 'POST', '/scenes', { ...SCENE, ...change });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatch(message);
  });
});

describe('deploys', () => {
  it('a deploy removing the compared dimension breaks the scene (409 on runs, listed in the deploy answer); the next one repairs it', async () => {
    const scene = await saved('editor', { ...SCENE, name: 'By placed_at', compare: { ...QUERY.compare, dimension: 'placed_at' }, dimensions: ['placed_at.month', 'channel'], shares: [{ measure: 'gross_revenue', of: ['placed_at.month'] }], sorts: [], visualization: { type: 'table' } });
    expect((await c('editor', 'POST', `/scenes/${scene.id}/run`)).statusCode).toBe(200);
    const broke = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: demoFiles });
    expect(broke.statusCode, broke.body).toBe(200);
    expect(broke.json().broken_scenes).toContainEqual({ id: scene.id, name: 'By placed_at', vault: scene.vault, reason: expect.stringMatching(/placed_at/) });
    expect((await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene).toMatchObject({ status: 'broken', broken_reason: expect.stringMatching(/placed_at/) });
    const run = await c('editor', 'POST', `/scenes/${scene.id}/run`);
    expect([run.statusCode, run.json().code]).toEqual([409, 'scene_broken']);
    expect(run.json().error).toMatch(/placed_at/);

    const repaired = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: withPlacedAt(demoFiles) });
    expect(repaired.json().repaired_scenes).toContainEqual({ id: scene.id, name: 'By placed_at', vault: scene.vault });
    expect((await c('editor', 'POST', `/scenes/${scene.id}/run`)).statusCode).toBe(200);
  });
});

describe('mosaics', () => {
  it('run a scene that compares as the scene runs, with the mosaic filters added and the runner’s data keys', async () => {
    // Each member's own mosaic over their own copy of the scene (personal vaults).
    for (const who of ['luminary', 'editor']) {
      const scene = await saved(who, SCENE);
      const mosaic = await c(who, 'POST', '/mosaics', {
        name: 'Comparisons',
        tiles: [{ id: 'revenue', kind: 'scene', scene_id: scene.id, layout: { x: 0, y: 0, w: 12, h: 4 } }],
        filters: [{ field: 'channel', operator: 'equals', value: 'mobile' }],
      });
      expect(mosaic.statusCode, mosaic.body).toBe(201);
      const run = await c(who, 'POST', `/mosaics/${mosaic.json().mosaic.id}/run`);
      expect(run.statusCode, run.body).toBe(200);
      const tile = run.json().tiles[0];
      expect(tile).toMatchObject({ tile_id: 'revenue', kind: 'scene' });
      const direct = (await c(who, 'POST', '/query', { ...QUERY, filters: [...QUERY.filters, { field: 'channel', operator: 'equals', value: 'mobile' }] })).json();
      expect(tile.result.data.length).toBeGreaterThan(0);
      expect(tile.result.data).toEqual(direct.data);
      expect(tile.result.metadata.comparison).toEqual(direct.metadata.comparison);
      expect(tile.result.data.every((row: { channel: string }) => row.channel === 'mobile')).toBe(true);
    }
  });
});
