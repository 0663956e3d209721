// Content in Chromium: a mosaic of two scenes opens as a grid of tiles, each with its chart (uPlot, drawn
// under the strict CSP) and its rows; a scene runs on its own. Scenes run through POST /api/query.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('content in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  // Scenes run through the session route POST /api/query: on a build without it, these tests say so and skip.
  let queryRoute = false;
  beforeAll(async () => {
    h = harness();
    queryRoute = h.t.app.hasRoute({ method: 'POST', url: '/api/query' });
    if (!queryRoute) console.warn('The session route POST /api/query is absent: the content browser tests skip.');
    // Scenes and a mosaic made through the console's own API, with the browser's session.
    const cookie = (await h.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const call = async (url: string, payload: object) => {
      const response = await h.t.app.inject({ method: 'POST', url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const byRegion = (await call('/scenes', { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } })).scene;
    const byChannel = (await call('/scenes', { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'bar' } })).scene;
    const tile = (id: string, sceneId: string, x: number) => ({ id, kind: 'scene', scene_id: sceneId, layout: { x, y: 0, w: 6, h: 4 } });
    await call('/mosaics', { name: 'Sales board', tiles: [tile('regions', byRegion.id, 0), tile('channels', byChannel.id, 6)] });
  });

  it('opens a mosaic as a grid of tiles with charts and rows', async (context) => {
    if (!queryRoute) return context.skip();
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Open mosaic Sales board' }).click();
    const grid = page.getByLabel('Mosaic Sales board');
    await grid.getByRole('heading', { name: 'Orders by channel' }).waitFor();
    expect(await grid.getByRole('heading', { name: 'Orders by region' }).isVisible()).toBe(true);
    expect(await grid.getByLabel(/^Chart: /).count()).toBe(2);
    expect(await grid.locator('canvas').count()).toBe(2); // uPlot draws on a canvas
    expect(await grid.getByRole('table', { name: 'Orders by channel rows' }).getByRole('cell', { name: 'web' }).isVisible()).toBe(true);
    await h.screenshot('content-mosaic');
  });

  it('runs a scene on its own', async (context) => {
    if (!queryRoute) return context.skip();
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Run scene Orders by region' }).click();
    await page.getByRole('table', { name: 'Orders by region rows' }).waitFor();
    expect(cspViolations(h.messages)).toEqual([]);
  });
});
