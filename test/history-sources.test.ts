// The query history by source: a user's own SQL is not pushed out of their list by the runs made on
// their behalf (a signal every minute, scenes, API requests). `?source=` narrows the editor's history
// and the workspace's to the SQL typed in the editor, the CML builder, scenes (and mosaic tiles),
// signals or API requests; every run belongs to exactly one, and a filtered list pages like the whole.
// On both metadata stores: PGlite and, when it answers, PostgreSQL.
import { beforeAll, describe, expect } from 'vitest';
import { createKey, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { demoAppOn, METADATA_STORES } from './helpers/demo-on-stores.js';

interface Run {
  id: string;
  surface: string;
  origin: string;
  sql: string;
}

describe.each(METADATA_STORES)('on $store', (store) => {
  // TRUST_PROXY: the workspace API's key is sent with X-Forwarded-Proto: https.
  const { it, app } = demoAppOn(store, 300, { TRUST_PROXY: 'true' });
  let t: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;
  let editorSql = '';

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = { cookie }) => {
    const response = await t.app.inject({ method, url, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  /** Every run a list answers, following next_cursor `limit` runs at a time. */
  const allRuns = async (base: string, limit = 200): Promise<Run[]> => {
    const runs: Run[] = [];
    let cursor: string | null = null;
    do {
      const sep = base.includes('?') ? '&' : '?';
      const page: { runs: Run[]; next_cursor: string | null } = await call('GET', `${base}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      runs.push(...page.runs);
      cursor = page.next_cursor;
    } while (cursor);
    return runs;
  };

  beforeAll(async () => {
    if (!store.available) return;
    ({ t, ws, cookie } = app());
    const step = () => t.clock.advance(1000); // each run at its own instant

    // One of each source, run by the luminary: SQL in the editor, the CML builder, a structured query
    // from a key and one from Explore, raw SQL on the workspace API, a scene, a mosaic and a signal.
    editorSql = 'SELECT status, COUNT(*) AS n FROM shop.orders GROUP BY 1';
    await call('POST', '/api/studio/query', { connection: 'warehouse', sql: editorSql });
    step();
    await call('POST', '/api/studio/query/cml', { reveal: 'sales', measures: ['orders'] });
    step();
    const structuredKey = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query'] })).value;
    await call('POST', '/v1/query', { node: 'orders', measures: ['order_count'] }, { authorization: `Bearer ${structuredKey}` });
    step();
    await call('POST', '/api/query', { node: 'orders', dimensions: ['channel'], measures: ['order_count'] });
    step();
    const workspaceKey = (await createKey(t.services, ws, 'luminary', 'workspace')).value;
    const connectionId = (await t.services.connections.list(ws.id))[0]!.id;
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/v1/query',
      headers: { authorization: `Bearer ${workspaceKey}`, 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      payload: { connection_id: connectionId, sql: 'SELECT 1 AS one' },
    });
    expect(raw.statusCode, raw.body).toBe(200);
    step();
    const scene = (await call('POST', '/api/scenes', { name: 'By channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'] })).scene;
    await call('POST', `/api/scenes/${scene.id}/run`, {});
    step();
    const mosaic = (await call('POST', '/api/mosaics', { name: 'Board', tiles: [{ id: 'a', kind: 'scene', scene_id: scene.id, layout: { x: 0, y: 0, w: 6, h: 4 } }] })).mosaic;
    await call('POST', `/api/mosaics/${mosaic.id}/run`, {});
    step();
    const signal = (await call('POST', '/api/signals', { name: 'Orders', watch: { node: 'orders', measure: 'order_count' }, condition: 'less_than', threshold: 1, schedule: { interval_seconds: 60 } })).signal;
    // A signal evaluated every minute for 40 minutes, after the SQL typed in the editor.
    for (let i = 0; i < 40; i++) {
      await call('POST', `/api/signals/${signal.id}/evaluate`, {});
      t.clock.advance(60_000);
    }
  }, 120_000);

  it("keeps the user's own SQL in view however many runs are made on their behalf", async () => {
    const latest: Run[] = (await call('GET', '/api/studio/history?limit=20')).runs;
    expect(latest.some((r) => r.sql === editorSql)).toBe(false); // the flood the filter is for
    const mine: Run[] = (await call('GET', '/api/studio/history?limit=20&source=editor')).runs;
    expect(mine.map((r) => r.sql)).toEqual([editorSql]);
    expect(mine[0]).toMatchObject({ surface: 'studio', origin: 'sql' });
  });

  it('puts every run in exactly one source, read from its surface and origin', async () => {
    const all = await allRuns('/api/studio/history');
    const bySource: Record<string, Run[]> = {};
    for (const source of ['editor', 'cml', 'scene', 'signal', 'api', 'sql']) bySource[source] = await allRuns(`/api/studio/history?source=${source}`);
    expect(bySource.editor!.map((r) => r.surface)).toEqual(['studio']);
    expect(bySource.cml!.map((r) => `${r.surface} ${r.origin}`)).toEqual(['studio_cml cml']);
    expect(new Set(bySource.scene!.map((r) => r.origin.split(':')[0]))).toEqual(new Set(['scene', 'mosaic']));
    expect(bySource.signal!).toHaveLength(40);
    expect(bySource.signal!.every((r) => r.origin.startsWith('signal:'))).toBe(true);
    expect(new Set(bySource.api!.map((r) => r.surface))).toEqual(new Set(['structured_api', 'workspace_api']));
    expect(bySource.api!.every((r) => r.surface !== 'structured_api' || r.origin === 'structured')).toBe(true);
    const ids = Object.values(bySource).flatMap((runs) => runs.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length); // no run in two sources
    expect(ids.sort()).toEqual(all.map((r) => r.id).sort()); // and none in no source
  });

  it('takes several sources at once, and pages a filtered list without repeats or gaps', async () => {
    const both = await allRuns('/api/studio/history?source=scene,editor');
    const scene = await allRuns('/api/studio/history?source=scene');
    expect(both.map((r) => r.id).sort()).toEqual([...scene.map((r) => r.id), ...(await allRuns('/api/studio/history?source=editor')).map((r) => r.id)].sort());
    const paged = await allRuns('/api/studio/history?source=signal', 7);
    expect(paged.map((r) => r.id)).toEqual((await allRuns('/api/studio/history?source=signal')).map((r) => r.id));
  });

  it("filters the workspace's history (luminary) the same way", async () => {
    const mine = await allRuns('/api/history?source=editor');
    expect(mine.map((r) => r.sql)).toEqual([editorSql]);
    const signals = await allRuns(`/api/history?source=signal&user_id=${ws.members.luminary.id}`);
    expect(signals).toHaveLength(40);
  });

  it('refuses an unknown source with a 400 naming the sources', async () => {
    for (const source of ['nope', 'editor,', 'editor,,scene', 'EDITOR', '', 'sql_api']) {
      for (const url of ['/api/studio/history', '/api/history']) {
        const response = await t.app.inject({ method: 'GET', url: `${url}?source=${encodeURIComponent(source)}`, headers: { cookie } });
        expect(response.statusCode, `${url} ${source}`).toBe(400);
        expect(response.json()).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/editor, cml, scene, signal, api, sql/) });
      }
    }
  });
});
