// Scenes over the real stack (PGlite store, DuckDB demo warehouse): saves checked against the live
// model, vault isolation (404), runs with the caller's data keys through the governed pipeline and
// recorded with origin scene:<id>, concurrent edits, pages stable under inserts, deploys that break and
// repair scenes, and every bad input a 4xx with {"error"}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateAgainstContent } from '../../src/cli/model.js';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir, setUpDemo } from '../../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-scenes-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const keys: Record<string, string> = {};
let region: string;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  const content = ['query', 'models:read', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: [...content, 'models:write'] })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  keys.editorReadOnly = (await createKey(t.services, ws, 'editor', 'structured')).value;
  keys.viewer = (await createKey(t.services, ws, 'viewer', 'structured')).value;
  keys.tracer = (await createKey(t.services, ws, 'tracer', 'structured', { scopes: ['query', 'content:read'] })).value;
  keys.other = (await createKey(t.services, other, 'luminary', 'structured', { scopes: content })).value;
  const regions = (await c('luminary', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'] })).json().data;
  region = regions[0].ship_region;
  // The editor sees one region's orders only (data key `region`).
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region });
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function c(who: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    headers: { authorization: `Bearer ${keys[who]}`, ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

const byRegion = { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'ship_region', direction: 'asc' }], visualization: { type: 'bar', x: 'ship_region', y: ['order_count'] } };

async function saved(who: string, body: object = byRegion) {
  const response = await c(who, 'POST', '/scenes', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().scene as { id: string; vault: string; version: number; updated_at: string; name: string };
}

describe('saving and reading scenes', () => {
  it('saves a scene in the personal vault, checked against the model, and reads it back with its version', async () => {
    const scene = await saved('editor');
    expect(scene).toMatchObject({ ...byRegion, description: '', limit: null, status: 'ok', broken_reason: null, version: 1, created_by: ws.members.editor.id, updated_by: ws.members.editor.id, filters: [] });
    const read = await c('editor', 'GET', `/scenes/${scene.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.json().scene).toEqual(scene);
  });

  it.each<[string, object, RegExp]>([
    ['an unknown measure', { ...byRegion, measures: ['profit'] }, /Unknown measure "profit"/],
    ['an unknown dimension', { ...byRegion, dimensions: ['planet'], sorts: [] }, /Unknown dimension "planet"/],
    ['an unknown node', { ...byRegion, node: 'invoices' }, /Unknown node "invoices"/],
    ['a filter on an unknown field', { ...byRegion, filters: [{ field: 'colour', operator: 'equals', value: 'red' }] }, /colour/],
    ['an unknown operator', { ...byRegion, filters: [{ field: 'status', operator: 'resembles', value: 'x' }] }, /resembles/],
    ['a visualization field outside the query', { ...byRegion, visualization: { type: 'line', x: 'created_at.month' } }, /created_at\.month/],
    ['an unknown visualization type', { ...byRegion, visualization: { type: 'radar' } }, /visualization/],
    ['no name', { ...byRegion, name: ' ' }, /name/],
    ['an unknown property', { ...byRegion, owner: 'me' }, /owner/],
    ['a limit over the maximum', { ...byRegion, limit: 50_001 }, /limit/],
  ])('refuses %s with 400 naming it', async (_case, body, message) => {
    const response = await c('editor', 'POST', '/scenes', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });

  it('needs content:write and the editor role to write, content:read to read', async () => {
    expect((await c('editorReadOnly', 'POST', '/scenes', byRegion)).json()).toMatchObject({ code: 'scope_required' });
    const viewerWrite = await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['content:read'] });
    expect(viewerWrite.value).toBeTruthy();
    expect((await c('editorReadOnly', 'GET', '/scenes')).statusCode).toBe(200);
    const noContent = (await createKey(t.services, ws, 'editor', 'structured', { scopes: ['query'] })).value;
    keys.noContent = noContent;
    expect((await c('noContent', 'GET', '/scenes')).statusCode).toBe(403);
  });
});

describe('vault isolation', () => {
  it('hides scenes of vaults one may not see (404), from other users and other workspaces; luminaries see all', async () => {
    const scene = await saved('editor');
    for (const who of ['viewer', 'tracer', 'other']) {
      for (const [method, url, body] of [
        ['GET', `/scenes/${scene.id}`, undefined],
        ['POST', `/scenes/${scene.id}/run`, {}],
        ['PATCH', `/scenes/${scene.id}`, { name: 'x' }],
        ['DELETE', `/scenes/${scene.id}`, undefined],
      ] as const) {
        const response = await c(who, method, url, body);
        // Writes are refused to roles below editor before anything is looked up; to everyone else the scene does not exist.
        const expected = method === 'GET' || method === 'POST' || who === 'other' ? [404, 'unknown_scene'] : [403, 'role_required'];
        expect([who, method, response.statusCode, response.json().code]).toEqual([who, method, ...expected]);
      }
      const listed = (await c(who, 'GET', '/scenes?limit=200')).json().scenes.map((s: { id: string }) => s.id);
      expect(listed).not.toContain(scene.id);
      expect((await c(who, 'GET', `/scenes?vault=${scene.vault}`)).statusCode).toBe(404);
    }
    expect((await c('luminary', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(200);
    expect((await c('luminary', 'GET', `/scenes?vault=${scene.vault}`)).json().scenes.map((s: { id: string }) => s.id)).toContain(scene.id);
  });

  it('shares a scene through vault membership: view reads and runs, edit changes', async () => {
    const luminaryCookie = await signIn(t.app, ws.members.luminary.email);
    const consoleCall = (method: Method, url: string, payload?: object) =>
      t.app.inject({ method, url: `/api${url}`, headers: { cookie: luminaryCookie, 'content-type': 'application/json' }, ...(payload ? { payload } : {}) });
    const vault = (await consoleCall('POST', '/vaults', { name: 'Shared' })).json().vault;
    const scene = await saved('luminary', { ...byRegion, vault: vault.id });
    expect((await c('tracer', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(404);
    await consoleCall('PUT', `/vaults/${vault.id}/members/${ws.members.tracer.id}`, { access: 'view' });
    await consoleCall('PUT', `/vaults/${vault.id}/members/${ws.members.editor.id}`, { access: 'view' });
    expect((await c('tracer', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(200);
    expect((await c('tracer', 'POST', `/scenes/${scene.id}/run`)).statusCode).toBe(200);
    const denied = await c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'Renamed' });
    expect([denied.statusCode, denied.json().code]).toEqual([403, 'vault_access_required']);
    await consoleCall('PUT', `/vaults/${vault.id}/members/${ws.members.editor.id}`, { access: 'edit' });
    expect((await c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'Renamed' })).json().scene.name).toBe('Renamed');
    // Removing a member hides the scene from their very next request, though they just read it.
    expect((await c('tracer', 'GET', `/scenes/${scene.id}`)).json().scene.name).toBe('Renamed');
    await consoleCall('DELETE', `/vaults/${vault.id}/members/${ws.members.tracer.id}`);
    expect((await c('tracer', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(404);
    expect((await c('tracer', 'POST', `/scenes/${scene.id}/run`)).statusCode).toBe(404);
    // The console shows the same scene; a vault holding it is only deleted with force.
    expect((await consoleCall('GET', `/scenes/${scene.id}`)).json().scene.name).toBe('Renamed');
    expect((await consoleCall('DELETE', `/vaults/${vault.id}`)).json().code).toBe('vault_not_empty');
    expect((await consoleCall('DELETE', `/vaults/${vault.id}?force=true`)).statusCode).toBe(204);
    expect((await c('luminary', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(404);
  });
});

describe('running scenes', () => {
  it('answers fresh results in the shape of POST /v1/query with the scene and the query, under the caller’s data keys', async () => {
    const scene = await saved('editor');
    const run = await c('editor', 'POST', `/scenes/${scene.id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    const body = run.json();
    expect(body.scene).toEqual({ id: scene.id, name: scene.name });
    expect(body.query).toMatchObject({ node: 'orders', dimensions: ['ship_region'], measures: ['order_count', 'gross_revenue'], limit: 5000 });
    expect(body.metadata).toMatchObject({ node: 'orders', cached: false, row_count: 1 });
    expect(body.data.map((r: { ship_region: string }) => r.ship_region)).toEqual([region]);
    // The same query through POST /v1/query gives the same rows.
    const direct = (await c('editor', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'ship_region', direction: 'asc' }] })).json();
    expect(body.data).toEqual(direct.data);
    // The luminary (every region) runs the same scene and sees every region.
    const all = (await c('luminary', 'POST', `/scenes/${scene.id}/run`)).json();
    expect(all.data.length).toBeGreaterThan(1);
    expect((await c('luminary', 'POST', `/scenes/${scene.id}/run`)).json().metadata.cached).toBe(false);
  });

  it('adds the run’s filters to the saved ones and takes its limit', async () => {
    const scene = await saved('luminary', { ...byRegion, filters: [{ field: 'channel', operator: 'equals', value: 'web' }] });
    const plain = (await c('luminary', 'POST', `/scenes/${scene.id}/run`, {})).json();
    const narrowed = (await c('luminary', 'POST', `/scenes/${scene.id}/run`, { filters: [{ field: 'status', operator: 'equals', value: 'completed' }], limit: 2 })).json();
    expect(narrowed.query.filters).toEqual([
      { field: 'channel', operator: 'equals', value: 'web' },
      { field: 'status', operator: 'equals', value: 'completed' },
    ]);
    expect(narrowed.data.length).toBeLessThanOrEqual(2);
    const total = (rows: Array<{ order_count: number }>) => rows.reduce((sum, r) => sum + r.order_count, 0);
    expect(total(narrowed.data)).toBeLessThan(total(plain.data));
    for (const [body, message] of [
      [{ filters: [{ field: 'planet', operator: 'equals', value: 'x' }] }, /planet/],
      [{ limit: 0 }, /limit/],
      [{ timezone: 'Mars/Olympus' }, /Mars\/Olympus/],
      [{ colour: 'red' }, /colour/],
    ] as const) {
      const response = await c('luminary', 'POST', `/scenes/${scene.id}/run`, body);
      expect([response.statusCode, response.json().error]).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it('records every run in the history with origin scene:<id> on the structured API', async () => {
    const scene = await saved('editor');
    await c('editor', 'POST', `/scenes/${scene.id}/run`);
    await t.services.rawSql.flush();
    const runs = (await t.services.history.pageForWorkspace(ws.id, { limit: 50, origin: `scene:${scene.id}` })).rows;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ surface: 'structured_api', origin: `scene:${scene.id}`, status: 'success', user_id: ws.members.editor.id });
  });
});

describe('concurrent edits', () => {
  it('last write wins without If-Match; If-Match with a stale version or updated_at answers 412', async () => {
    const scene = await saved('editor');
    const [a, b] = await Promise.all([c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'A' }), c('luminary', 'PATCH', `/scenes/${scene.id}`, { description: 'B' })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const now = (await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene;
    expect(now).toMatchObject({ name: 'A', description: 'B', version: 3 });
    for (const stale of ['1', '"2"', 'W/"1"', scene.updated_at]) {
      const refused = await c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'Stale' }, { 'if-match': stale });
      expect([stale, refused.statusCode, refused.json().code]).toEqual([stale, 412, 'version_mismatch']);
    }
    const ok = await c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'Fresh' }, { 'if-match': `"${now.version}"` });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.etag).toBe('"4"');
    const byTime = await c('editor', 'PATCH', `/scenes/${scene.id}`, { name: 'By time' }, { 'if-match': ok.json().scene.updated_at });
    expect(byTime.json().scene).toMatchObject({ name: 'By time', version: 5 });
    // Two writers holding the same version: exactly one wins.
    const race = await Promise.all(['X', 'Y'].map((name) => c('editor', 'PATCH', `/scenes/${scene.id}`, { name }, { 'if-match': '5' })));
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 412]);
  });
});

describe('pages', () => {
  it('pages by cursor without repeating or skipping a scene while others are saved', async () => {
    const luminaryCookie = await signIn(t.app, ws.members.luminary.email);
    const vault = (
      await t.app.inject({ method: 'POST', url: '/api/vaults', headers: { cookie: luminaryCookie, 'content-type': 'application/json' }, payload: { name: 'Paged' } })
    ).json().vault;
    const originals: string[] = [];
    for (let i = 0; i < 7; i++) originals.push((await saved('luminary', { ...byRegion, name: `Paged ${i}`, vault: vault.id })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const page: { scenes: Array<{ id: string }>; next_cursor: string | null } = (await c('luminary', 'GET', `/scenes?vault=${vault.id}&limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...page.scenes.map((s: { id: string }) => s.id));
      cursor = page.next_cursor;
      if (inserted++ < 2) await saved('luminary', { ...byRegion, name: `Inserted ${inserted}`, vault: vault.id });
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 7)).toEqual(originals);
    expect(seen).toHaveLength(9);
    // Filters: node and words.
    expect((await c('luminary', 'GET', `/scenes?vault=${vault.id}&q=inserted`)).json().scenes).toHaveLength(2);
    expect((await c('luminary', 'GET', `/scenes?vault=${vault.id}&node=customers`)).json().scenes).toHaveLength(0);
    expect((await c('luminary', 'GET', '/scenes?cursor=bogus')).json().code).toBe('invalid_cursor');
    expect((await c('luminary', 'GET', '/scenes?limit=0')).statusCode).toBe(400);
  });
});

describe('deploys', () => {
  it('marks a scene broken when a deploy removes its field, lists it in the deploy answer, and repairs it when the field returns', async () => {
    const scene = await saved('editor', { ...byRegion, name: 'By channel', dimensions: ['channel'], sorts: [], visualization: { type: 'pie', x: 'channel', y: ['order_count'] } });
    const files = await readModelDir(DEMO_MODEL_DIR);
    const without = files.map((f) => (f.path === 'orders.cml' ? { ...f, content: f.content.replace(/^\s*dimension channel .*$/m, '') } : f));
    // Before deploying, `svc model validate --against-content` names the scene the change would break.
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-cml-'));
    for (const file of without) writeFileSync(path.join(dir, file.path), file.content);
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    let code: number;
    try {
      code = await validateAgainstContent(t.services, dir, { email: ws.members.luminary.email, workspace: ws.id, project: DEMO_PROJECT });
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(code).toBe(1);
    expect(printed.join('')).toMatch(new RegExp(`scene ${scene.id} "By channel" would break: .*channel`));
    expect((await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene.status).toBe('ok');

    const broke = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: without });
    expect(broke.statusCode, broke.body).toBe(200);
    expect(broke.json().broken_scenes).toContainEqual({ id: scene.id, name: 'By channel', vault: scene.vault, reason: expect.stringMatching(/channel/) });
    const read = (await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene;
    expect(read).toMatchObject({ status: 'broken', broken_reason: expect.stringMatching(/channel/) });
    const run = await c('editor', 'POST', `/scenes/${scene.id}/run`);
    expect([run.statusCode, run.json().code]).toEqual([409, 'scene_broken']);
    // Other scenes are untouched; a scene cannot be saved on the missing field meanwhile.
    expect((await c('editor', 'POST', '/scenes', { ...byRegion, dimensions: ['channel'], sorts: [], visualization: { type: 'table' } })).statusCode).toBe(400);

    const repaired = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files });
    expect(repaired.json().repaired_scenes).toContainEqual({ id: scene.id, name: 'By channel', vault: scene.vault });
    expect(repaired.json().broken_scenes).toEqual([]);
    expect((await c('editor', 'GET', `/scenes/${scene.id}`)).json().scene).toMatchObject({ status: 'ok', broken_reason: null });
    expect((await c('editor', 'POST', `/scenes/${scene.id}/run`)).statusCode).toBe(200);
  });
});

describe('deleting', () => {
  it('deletes a scene for an editor of its vault; it is gone afterwards', async () => {
    const scene = await saved('editor');
    expect((await c('editor', 'DELETE', `/scenes/${scene.id}`)).statusCode).toBe(204);
    expect((await c('editor', 'GET', `/scenes/${scene.id}`)).statusCode).toBe(404);
    expect((await c('editor', 'DELETE', `/scenes/${scene.id}`)).statusCode).toBe(404);
    expect((await c('editor', 'GET', '/scenes/not-a-uuid')).statusCode).toBe(400);
  });
});
