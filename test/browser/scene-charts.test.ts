// A scene's saved chart type is what the console draws, wherever the scene is drawn: run on the Content
// page and as a mosaic's tile. Bars, lines, areas and points are uPlot's; a pie is drawn as its slices;
// a number is the figure itself; a table is the rows alone. A type the data cannot be drawn as faithfully
// (a pie of two measures, a number of many rows) is drawn in its closest form, and the chart says so.
// Explore offers the chart types and saves the one chosen.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

interface SceneSpec {
  name: string;
  dimensions: string[];
  measures: string[];
  visualization: { type: string; x?: string; y?: string[]; series?: string };
}

const SCENES: SceneSpec[] = [
  { name: 'Orders by channel as a pie', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'pie' } },
  { name: 'Orders by month as a line', dimensions: ['created_at.month'], measures: ['order_count'], visualization: { type: 'line' } },
  { name: 'Revenue by month as an area', dimensions: ['created_at.month'], measures: ['gross_revenue'], visualization: { type: 'area' } },
  { name: 'Orders against revenue as points', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], visualization: { type: 'scatter', x: 'order_count', y: ['gross_revenue'] } },
  { name: 'All orders as a number', dimensions: [], measures: ['order_count'], visualization: { type: 'number' } },
  { name: 'Orders by status as a table', dimensions: ['status'], measures: ['order_count'], visualization: { type: 'table' } },
  { name: 'Orders by region as bars', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } },
  { name: 'Two measures as a pie', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], visualization: { type: 'pie' } },
  { name: 'Orders by channel as a number', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'number' } },
];

/** What the chart of `within` shows: its drawn type, and what it is drawn with. */
async function drawn(within: Locator) {
  const figure = within.locator('figure.chart, figure.number');
  if ((await figure.count()) === 0) return { type: 'none', canvas: 0, slices: 0, note: '' };
  await figure.first().waitFor();
  // uPlot draws its canvas in an effect, after the figure is painted: wait for it (a pie's slices and a
  // number come with the figure).
  if ((await figure.first().getAttribute('class')) === 'chart') await figure.first().locator('canvas').first().waitFor();
  return {
    type: (await figure.first().getAttribute('data-chart-type')) ?? 'unsaid',
    canvas: await figure.first().locator('canvas').count(),
    slices: await figure.first().locator('svg [data-slice]').count(),
    note: (await within.getByRole('note').allTextContents()).join(' '),
  };
}

describe.skipIf(!hasChromium)('scene charts in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  beforeEach(() => {
    h = harness();
  });

  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
    const ids: string[] = [];
    for (const scene of SCENES) {
      const response = await h.t.app.inject({ method: 'POST', url: '/api/scenes', headers: { cookie, 'content-type': 'application/json' }, payload: { node: 'orders', ...scene } });
      if (response.statusCode !== 201 && response.statusCode !== 200) throw new Error(`${scene.name}: ${response.statusCode} ${response.body}`);
      ids.push(response.json().scene.id);
    }
    const tiles = ids.map((id, i) => ({ id: `t${i}`, kind: 'scene', scene_id: id, layout: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 } }));
    const mosaic = await h.t.app.inject({ method: 'POST', url: '/api/mosaics', headers: { cookie, 'content-type': 'application/json' }, payload: { name: 'Every chart', tiles } });
    if (mosaic.statusCode >= 300) throw new Error(`mosaic: ${mosaic.statusCode} ${mosaic.body}`);
  });

  const EXPECTED: Record<string, { type: string; canvas: number; slices: number; note?: RegExp }> = {
    'Orders by channel as a pie': { type: 'pie', canvas: 0, slices: 3 },
    'Orders by month as a line': { type: 'line', canvas: 1, slices: 0 },
    'Revenue by month as an area': { type: 'area', canvas: 1, slices: 0 },
    'Orders against revenue as points': { type: 'scatter', canvas: 1, slices: 0 },
    'All orders as a number': { type: 'number', canvas: 0, slices: 0 },
    'Orders by status as a table': { type: 'none', canvas: 0, slices: 0 },
    'Orders by region as bars': { type: 'bar', canvas: 1, slices: 0 },
    'Two measures as a pie': { type: 'pie', canvas: 0, slices: 3, note: /pie shows one measure.*Orders|order_count/i },
    'Orders by channel as a number': { type: 'bar', canvas: 1, slices: 0, note: /number shows one value.*3 rows.*bars/i },
  };

  it('draws each scene run on the Content page as its saved chart type', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    const section = page.getByRole('region', { name: 'Scenes' });
    for (const scene of SCENES) {
      await section.getByRole('button', { name: `Run scene ${scene.name}` }).click();
      // The section shows one run at a time: the one just asked for.
      const view = section;
      await view.getByRole('table', { name: `${scene.name} rows` }).waitFor();
      const expected = EXPECTED[scene.name]!;
      const got = await drawn(view);
      expect({ ...got, note: undefined }, scene.name).toEqual({ type: expected.type, canvas: expected.canvas, slices: expected.slices, note: undefined });
      if (expected.note) expect(got.note, scene.name).toMatch(expected.note);
      else expect(got.note, scene.name).toBe('');
      if (scene.name === 'All orders as a number') expect(await view.getByRole('figure').textContent()).toMatch(/\d/);
      if (expected.type === 'pie') {
        // Each slice is named with its category and share.
        expect(await view.locator('figure.chart').textContent()).toMatch(/web.*%/s);
        await h.screenshot(`scene-chart-${scene.name.replaceAll(' ', '-').toLowerCase()}`);
      }
    }
    expect(cspViolations(h)).toEqual([]);
  });

  it("draws each of a mosaic's tiles as its scene's saved chart type", async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'Open mosaic Every chart' }).click();
    const grid = page.getByLabel('Mosaic Every chart');
    for (const scene of SCENES) {
      const tile = grid.getByRole('article', { name: `Tile ${scene.name}` });
      if (scene.name === 'All orders as a number') {
        // One value: the tile shows its figure alone, no grid repeats it.
        await tile.locator('figure[data-chart-type="number"]').waitFor();
        expect(await tile.getByRole('table').count()).toBe(0);
      } else await tile.getByRole('table', { name: `${scene.name} rows` }).waitFor();
      const expected = EXPECTED[scene.name]!;
      const got = await drawn(tile);
      expect({ type: got.type, canvas: got.canvas, slices: got.slices }, scene.name).toEqual({ type: expected.type, canvas: expected.canvas, slices: expected.slices });
      if (expected.note) expect(got.note, scene.name).toMatch(expected.note);
    }
    await h.screenshot('mosaic-every-chart');
    expect(cspViolations(h)).toEqual([]);
  });

  it('lets Explore choose the chart type, draws it, and saves it with the scene', async () => {
    const { page } = h;
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Channel' }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('table', { name: 'Explore rows' }).waitFor();
    await page.getByLabel('Chart type').selectOption('pie');
    const result = page.getByRole('region', { name: 'Result' });
    expect((await drawn(result)).type).toBe('pie');
    await page.getByLabel('Scene name').fill('Explored pie');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Explored pie saved.' }).waitFor();
    const list = await h.t.app.inject({ method: 'GET', url: '/api/scenes?limit=200', headers: { cookie } });
    const saved = (list.json().scenes as Array<{ name: string; visualization: { type: string } }>).find((s) => s.name === 'Explored pie');
    expect(saved?.visualization.type).toBe('pie');
    await h.screenshot('explore-pie');
  });
});
