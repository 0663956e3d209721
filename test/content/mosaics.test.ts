// Mosaics over the real stack (PGlite store, DuckDB demo warehouse): tiles on the 12-column grid,
// scene tiles hidden from readers who may not see their scene, runs of every tile with the caller's
// data keys and the mosaic filters that apply to each tile's node, one failing tile failing alone,
// vault isolation, If-Match, and every bad input a 4xx with {"error"}.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-mosaics-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const keys: Record<string, string> = {};
let region: string;
let shared: { id: string };
const scenes: Record<string, { id: string; name: string }> = {};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

function c(who: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}`, ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

async function scene(who: string, body: object) {
  const response = await c(who, 'POST', '/scenes', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().scene;
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  const content = ['query', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: content })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  keys.viewer = (await createKey(t.services, ws, 'viewer', 'structured')).value;
  keys.other = (await createKey(t.services, other, 'luminary', 'structured', { scopes: content })).value;
  region = (await c('luminary', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'] })).json().data[0].ship_region;
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region });

  scenes.byRegion = await scene('editor', { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count'] });
  scenes.byChannel = await scene('editor', { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'] });
  scenes.customers = await scene('editor', { name: 'Customers by segment', node: 'customers', dimensions: ['segment'], measures: ['customer_count'] });
  // In the luminary's personal vault: the editor may not see it.
  scenes.secret = await scene('luminary', { name: 'Revenue (private)', node: 'orders', measures: ['gross_revenue'], visualization: { type: 'number' } });

  const cookie = await signIn(t.app, lum.email);
  const consoleCall = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
  shared = (await consoleCall('POST', '/vaults', { name: 'Dashboards' })).json().vault;
  await consoleCall('PUT', `/vaults/${shared.id}/members/${ws.members.editor.id}`, { access: 'edit' });
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const tile = (id: string, sceneId: string, x: number, y: number) => ({ id, kind: 'scene', scene_id: sceneId, layout: { x, y, w: 6, h: 4 } });

function board() {
  return {
    name: 'Sales board',
    vault: shared.id,
    tiles: [
      { id: 'title', kind: 'heading', text: 'Sales', layout: { x: 0, y: 0, w: 12, h: 1 } },
      tile('regions', scenes.byRegion!.id, 0, 1),
      tile('channels', scenes.byChannel!.id, 6, 1),
      tile('customers', scenes.customers!.id, 0, 5),
      tile('secret', scenes.secret!.id, 6, 5),
      { id: 'note', kind: 'text', text: 'Figures exclude tax.', layout: { x: 0, y: 9, w: 12, h: 2 } },
    ],
    filters: [{ field: 'channel', operator: 'equals', value: 'web' }],
  };
}

describe('mosaics', () => {
  it('saves a mosaic and reads it with scene summaries; a tile whose scene the reader may not see is hidden', async () => {
    const created = await c('luminary', 'POST', '/mosaics', board());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().mosaic.id;
    const asLuminary = (await c('luminary', 'GET', `/mosaics/${id}`)).json().mosaic;
    expect(asLuminary.tiles.map((t: { kind: string }) => t.kind)).toEqual(['heading', 'scene', 'scene', 'scene', 'scene', 'text']);
    expect(asLuminary.tiles[1]).toMatchObject({ scene_id: scenes.byRegion!.id, scene: { id: scenes.byRegion!.id, name: 'Orders by region', node: 'orders', status: 'ok', visualization_type: 'table' } });
    // The scene's whole visualization, so a tile is drawn exactly as its scene is (type, axes, series).
    const secretTile = asLuminary.tiles.find((tile: { scene_id?: string }) => tile.scene_id === scenes.secret!.id);
    expect(secretTile.scene.visualization).toEqual({ type: 'number' });
    expect(asLuminary.tiles[1].scene.visualization).toEqual({ type: 'table' });
    const asEditor = (await c('editor', 'GET', `/mosaics/${id}`)).json().mosaic;
    expect(asEditor.tiles[4]).toEqual({ id: 'secret', kind: 'hidden', layout: { x: 6, y: 5, w: 6, h: 4 } });
    expect(JSON.stringify(asEditor)).not.toContain(scenes.secret!.id);
    expect((await c('editor', 'GET', `/mosaics?vault=${shared.id}`)).json().mosaics).toContainEqual(expect.objectContaining({ id, tile_count: 6 }));
  });

  it('runs every scene tile with the caller’s data keys and the filters that apply to its node', async () => {
    const id = (await c('luminary', 'POST', '/mosaics', board())).json().mosaic.id;
    const response = await c('editor', 'POST', `/mosaics/${id}/run`);
    expect(response.statusCode, response.body).toBe(200);
    const run = response.json();
    expect(run.mosaic.id).toBe(id);
    const byTile = Object.fromEntries(run.tiles.map((tile: { tile_id: string }) => [tile.tile_id, tile]));
    expect(Object.keys(byTile).sort()).toEqual(['channels', 'customers', 'regions', 'secret']);
    expect(byTile.secret).toEqual({ tile_id: 'secret', kind: 'hidden' });
    // Data keys: the editor sees one region only.
    expect(byTile.regions.result.data.map((r: { ship_region: string }) => r.ship_region)).toEqual([region]);
    // The channel filter applies to orders tiles, not to customers (which has no channel).
    expect(byTile.channels.result.data.map((r: { channel: string }) => r.channel)).toEqual(['web']);
    expect(byTile.regions.result.query.filters).toEqual([{ field: 'channel', operator: 'equals', value: 'web' }]);
    expect(byTile.customers.result.query.filters).toEqual([]);
    expect(byTile.customers.result.data.length).toBeGreaterThan(1);
    // Each tile's run is recorded with the mosaic as origin.
    await t.services.rawSql.flush();
    const runs = (await t.services.history.pageForWorkspace(ws.id, { limit: 50, origin: `mosaic:${id}` })).rows;
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.surface === 'structured_api' && r.user_id === ws.members.editor.id)).toBe(true);
  });

  it('answers a failing tile with its own error, the others with their results', async () => {
    const body = { ...board(), filters: [{ field: 'status', operator: 'resembles', value: 'x', tiles: ['channels'] }] };
    const id = (await c('luminary', 'POST', '/mosaics', body)).json().mosaic.id;
    const run = (await c('luminary', 'POST', `/mosaics/${id}/run`)).json();
    const byTile = Object.fromEntries(run.tiles.map((tile: { tile_id: string }) => [tile.tile_id, tile]));
    expect(byTile.channels.error).toMatchObject({ code: expect.any(String), status: 400, error: expect.stringMatching(/resembles/) });
    expect(byTile.regions.result.data.length).toBeGreaterThan(1);
    expect(byTile.secret.result.data).toHaveLength(1);
  });

  it('runs of scenes and mosaics leave the result cache to the answers it serves', async () => {
    // A structured answer is cached; runs of scenes and mosaics are always fresh and read nothing from
    // the cache, so they must not fill it (they would push C's answers out).
    const query = { node: 'orders', dimensions: ['channel'], measures: ['order_count'] };
    expect((await c('luminary', 'POST', '/query', query)).headers['x-cache']).toBe('miss');
    const before = t.services.resultCache.stats();
    const saved = await c('luminary', 'POST', '/mosaics', board());
    expect(saved.statusCode, saved.body).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await c('editor', 'POST', `/scenes/${scenes.byRegion!.id}/run`, {})).statusCode).toBe(200);
      expect((await c('editor', 'POST', `/mosaics/${saved.json().mosaic.id}/run`, {})).statusCode).toBe(200);
    }
    expect(t.services.resultCache.stats()).toEqual(before);
    expect((await c('luminary', 'POST', '/query', query)).headers['x-cache']).toBe('hit');
  });

  it('runs a 12-tile mosaic', async () => {
    const tiles = Array.from({ length: 12 }, (_, i) => tile(`t${i}`, [scenes.byRegion, scenes.byChannel, scenes.customers][i % 3]!.id, (i % 2) * 6, Math.floor(i / 2) * 4));
    const id = (await c('editor', 'POST', '/mosaics', { name: 'Twelve', tiles })).json().mosaic.id;
    const run = (await c('editor', 'POST', `/mosaics/${id}/run`, { filters: [{ field: 'segment', operator: 'equals', value: 'enterprise' }] })).json();
    expect(run.tiles).toHaveLength(12);
    expect(run.tiles.every((tile: { result?: unknown }) => tile.result)).toBe(true);
    expect(run.tiles[2].result.data.map((r: { segment: string }) => r.segment)).toEqual(['enterprise']);
  });

  it('hides mosaics of vaults one may not see (404), across users and workspaces', async () => {
    const id = (await c('luminary', 'POST', '/mosaics', board())).json().mosaic.id;
    for (const who of ['viewer', 'other']) {
      for (const [method, url] of [['GET', `/mosaics/${id}`], ['POST', `/mosaics/${id}/run`]] as const) {
        const response = await c(who, method, url);
        expect([who, url, response.statusCode, response.json().code]).toEqual([who, url, 404, 'unknown_mosaic']);
      }
      expect((await c(who, 'GET', '/mosaics')).json().mosaics.map((m: { id: string }) => m.id)).not.toContain(id);
    }
    expect((await c('other', 'PATCH', `/mosaics/${id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await c('other', 'DELETE', `/mosaics/${id}`)).statusCode).toBe(404);
  });

  it('last write wins without If-Match; a stale If-Match answers 412; delete removes it', async () => {
    const id = (await c('editor', 'POST', '/mosaics', { name: 'Edited', vault: shared.id })).json().mosaic.id;
    expect((await c('luminary', 'PATCH', `/mosaics/${id}`, { name: 'By luminary' })).json().mosaic.version).toBe(2);
    const stale = await c('editor', 'PATCH', `/mosaics/${id}`, { name: 'By editor' }, { 'if-match': '"1"' });
    expect([stale.statusCode, stale.json().code]).toEqual([412, 'version_mismatch']);
    const fresh = await c('editor', 'PATCH', `/mosaics/${id}`, { tiles: [tile('a', scenes.byRegion!.id, 0, 0)] }, { 'if-match': '"2"' });
    expect(fresh.json().mosaic).toMatchObject({ name: 'By luminary', version: 3, tiles: [expect.objectContaining({ id: 'a' })] });
    expect((await c('editor', 'DELETE', `/mosaics/${id}`)).statusCode).toBe(204);
    expect((await c('editor', 'GET', `/mosaics/${id}`)).statusCode).toBe(404);
  });

  it.each<[string, (b: ReturnType<typeof board>) => object, RegExp]>([
    ['a tile past the 12th column', (b) => ({ ...b, tiles: [{ ...tile('wide', scenes.byRegion!.id, 10, 0), layout: { x: 10, y: 0, w: 4, h: 2 } }] }), /past the 12-column grid/],
    ['overlapping tiles', (b) => ({ ...b, tiles: [tile('a', scenes.byRegion!.id, 0, 0), tile('b', scenes.byChannel!.id, 3, 2)] }), /overlaps tile "a"/],
    ['duplicate tile ids', (b) => ({ ...b, tiles: [tile('a', scenes.byRegion!.id, 0, 0), tile('a', scenes.byChannel!.id, 6, 0)] }), /more than once/],
    ['a scene tile without a scene', (b) => ({ ...b, tiles: [{ id: 'a', kind: 'scene', layout: { x: 0, y: 0, w: 2, h: 2 } }] }), /needs a scene_id/],
    ['a text tile without text', (b) => ({ ...b, tiles: [{ id: 'a', kind: 'text', layout: { x: 0, y: 0, w: 2, h: 2 } }] }), /needs a text/],
    ['a scene the editor may not see', (b) => ({ ...b, tiles: [tile('a', scenes.secret!.id, 0, 0)] }), /Unknown scene/],
    ['a filter naming a missing tile', (b) => ({ ...b, tiles: b.tiles.filter((x) => x.id !== 'secret'), filters: [{ field: 'channel', operator: 'equals', value: 'web', tiles: ['nope'] }] }), /tile "nope"/],
    ['an unknown tile kind', (b) => ({ ...b, tiles: [{ id: 'a', kind: 'video', layout: { x: 0, y: 0, w: 2, h: 2 } }] }), /kind/],
    ['a negative coordinate', (b) => ({ ...b, tiles: [{ ...tile('a', scenes.byRegion!.id, 0, 0), layout: { x: -1, y: 0, w: 2, h: 2 } }] }), /layout/],
  ])('refuses %s with 400 naming it', async (_case, make, message) => {
    const response = await c('editor', 'POST', '/mosaics', make(board()));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });
});
