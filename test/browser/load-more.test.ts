// Lists longer than a page in Chromium: scenes, mosaics, signals and keys (50 a page) and deployments (20
// a page) show their first page, and "Load more" follows next_cursor to the rest, then disappears.
// (The delivery log and a signal's evaluations page the same way: webhooks.test.ts, signals.test.ts.)
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir } from '../../src/demo-setup.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('"Load more" in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  beforeAll(async () => {
    h = harness();
    const cookie = await sessionCookie(h);
    const call = async (url: string, payload: object) => {
      const response = await h.t.app.inject({ method: 'POST', url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const files = await readModelDir(DEMO_MODEL_DIR);
    // 51 of each 50-a-page list; 20 deployments after the demo's own make 21, one more than a page.
    for (let i = 0; i < 51; i++) {
      const { scene } = await call('/scenes', { name: `Scene ${i}`, node: 'orders', measures: ['order_count'] });
      await call('/mosaics', { name: `Board ${i}`, tiles: [{ id: 't', kind: 'scene', scene_id: scene.id, layout: { x: 0, y: 0, w: 6, h: 4 } }] });
      await call('/signals', { name: `Watch ${i}`, watch: { scene_id: scene.id }, condition: 'greater_than', threshold: 1, schedule: { interval_seconds: 3600 } });
      await call('/keys', { name: `key ${i}`, surface: 'question' });
    }
    for (let i = 0; i < 20; i++) await call('/model/deploy', { project: DEMO_PROJECT, files, message: `deploy ${i}` });
  }, 120_000);

  /** The list's rows before and after "Load more", and whether the button is left. */
  async function pageThrough(region: string, rows: string, what: string) {
    const list = h.page.getByRole('region', { name: region, exact: true });
    const items = list.getByRole(rows === 'row' ? 'row' : 'listitem');
    const more = list.getByRole('button', { name: `Load more ${what}` });
    await more.waitFor();
    const first = await items.count();
    await more.click();
    await expect.poll(() => items.count()).toBeGreaterThan(first);
    return { first, all: await items.count(), moreLeft: await more.count() };
  }

  it('pages scenes, mosaics and signals on the Content page', async () => {
    await h.page.goto(`${h.base}/content`);
    expect(await pageThrough('Scenes', 'listitem', 'scenes')).toEqual({ first: 50, all: 51, moreLeft: 0 });
    expect(await pageThrough('Mosaics', 'listitem', 'mosaics')).toEqual({ first: 50, all: 51, moreLeft: 0 });
    // Each signal is a list item of its own, holding no nested list.
    expect(await pageThrough('Signals', 'listitem', 'signals')).toEqual({ first: 50, all: 51, moreLeft: 0 });
    const signals = h.page.getByRole('region', { name: 'Signals', exact: true });
    expect(await signals.getByRole('listitem', { name: 'Signal Watch 0' }).count()).toBe(1);
    expect(await signals.getByRole('listitem', { name: 'Signal Watch 50' }).count()).toBe(1);
    await h.screenshot('load-more-content');
  });

  it('pages keys and deployments', async () => {
    await h.page.goto(`${h.base}/keys`);
    // The header row and 50 keys, then the 51st.
    expect(await pageThrough('Keys', 'row', 'keys')).toEqual({ first: 51, all: 52, moreLeft: 0 });
    expect(await h.page.getByRole('cell', { name: 'key 0', exact: true }).count()).toBe(1);
    expect(await h.page.getByRole('cell', { name: 'key 50', exact: true }).count()).toBe(1);

    // A cursor the server did not give, or a limit out of range, is a clear 400.
    const cookie = await sessionCookie(h);
    const bad = async (query: string) => {
      const response = await h.t.app.inject({ method: 'GET', url: `/api/keys?${query}`, headers: { cookie } });
      return [response.statusCode, (response.json() as { code: string }).code];
    };
    expect(await bad('cursor=nope')).toEqual([400, 'invalid_cursor']);
    expect(await bad('limit=0')).toEqual([400, 'invalid_request']);

    await h.page.goto(`${h.base}/model`);
    expect(await pageThrough('Deployments', 'row', 'deployments')).toEqual({ first: 21, all: 22, moreLeft: 0 });
    expect(cspViolations(h)).toEqual([]);
  });
});
