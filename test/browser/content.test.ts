// Content in Chromium: a mosaic of two scenes opens as a grid of tiles, each with its chart (uPlot, drawn
// under the strict CSP) and its rows; a scene runs on its own. Scenes and mosaics run through their own
// routes (POST /api/scenes/:id/run, POST /api/mosaics/:id/run), so the history records them as such, and
// a tile whose scene no longer runs shows its own error while the other tile keeps its rows.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir } from '../../src/demo-setup.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('content in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  let mosaicId = '';
  let regionSceneId = '';
  let cookie = '';
  beforeAll(async () => {
    h = harness();
    // Scenes and a mosaic made through the console's own API, with the browser's session.
    cookie = await sessionCookie(h);
    const call = async (url: string, payload: object) => {
      const response = await h.t.app.inject({ method: 'POST', url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const byRegion = (await call('/scenes', { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } })).scene;
    regionSceneId = byRegion.id;
    const byChannel = (await call('/scenes', { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'bar' } })).scene;
    const tile = (id: string, sceneId: string, x: number) => ({ id, kind: 'scene', scene_id: sceneId, layout: { x, y: 0, w: 6, h: 4 } });
    mosaicId = (await call('/mosaics', { name: 'Sales board', tiles: [tile('regions', byRegion.id, 0), tile('channels', byChannel.id, 6)] })).mosaic.id;
  });

  it('opens a mosaic as a grid of tiles with charts and rows', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Open mosaic Sales board' }).click();
    const grid = page.getByLabel('Mosaic Sales board');
    await grid.getByRole('heading', { name: 'Orders by channel' }).waitFor();
    await grid.getByRole('heading', { name: 'Orders by region' }).waitFor();
    // A tile's heading is there while it loads: its chart comes with its rows, and uPlot draws on a
    // canvas in an effect, after the chart's figure is painted.
    await expect.poll(() => grid.getByLabel(/^Chart: /).count()).toBe(2);
    await expect.poll(() => grid.locator('canvas').count()).toBe(2);
    await grid.getByRole('table', { name: 'Orders by channel rows' }).getByRole('cell', { name: 'web' }).waitFor();
    await h.screenshot('content-mosaic');
  });

  it('runs a scene on its own', async () => {
    const { page } = h;
    const before = await runsFrom(`scene:${regionSceneId}`);
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Run scene Orders by region' }).click();
    await page.getByRole('table', { name: 'Orders by region rows' }).waitFor();
    expect(await runsFrom(`scene:${regionSceneId}`)).toBe(before + 1);
    expect(cspViolations(h)).toEqual([]);
  });

  /** The workspace's recorded runs with an origin (GET /api/history), through the browser's session. */
  async function runsFrom(origin: string): Promise<number> {
    const response = await h.t.app.inject({ method: 'GET', url: `/api/history?origin=${encodeURIComponent(origin)}&limit=100`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return (response.json() as { runs: unknown[] }).runs.length;
  }

  it('records the mosaic run as a mosaic run, and shows a failing tile its own error', async () => {
    const { page } = h;
    const before = await runsFrom(`mosaic:${mosaicId}`);
    expect(before).toBeGreaterThanOrEqual(2); // the first test's opening ran both tiles through the mosaic route

    // A deploy without orders.channel breaks the "Orders by channel" scene; its tile fails on its own.
    const files = (await readModelDir(DEMO_MODEL_DIR)).map((f) => (f.path === 'orders.cml' ? { ...f, content: f.content.replace(/^\s*dimension channel .*$/m, '') } : f));
    const deploy = await h.t.app.inject({ method: 'POST', url: '/api/model/deploy', headers: { cookie, 'content-type': 'application/json' }, payload: { project: DEMO_PROJECT, files } });
    expect(deploy.statusCode, deploy.body).toBe(200);

    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Open mosaic Sales board' }).click();
    const broken = page.getByRole('article', { name: 'Tile Orders by channel' });
    await broken.getByRole('alert').waitFor();
    expect(await broken.getByRole('alert').textContent()).toMatch(/does not run on the live model.*channel/s);
    await broken.getByText('code: scene_broken').waitFor();
    const working = page.getByRole('article', { name: 'Tile Orders by region' });
    await working.getByRole('table', { name: 'Orders by region rows' }).waitFor();
    expect(await working.getByRole('alert').count()).toBe(0);
    expect(await runsFrom(`mosaic:${mosaicId}`)).toBe(before + 1); // only the tile that ran is recorded
    await h.screenshot('content-mosaic-tile-error');
  });
});
