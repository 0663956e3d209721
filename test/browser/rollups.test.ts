// The Rollups page in Chromium: with no rollups, what one is; then a rollup over the demo's orders, deployed, built once by the build loop
// and asked two queries (one it answers, one it cannot), shows its state, rows, last build and hit rate;
// a luminary's "Build now" queues a build and the row says so. axe and the keyboard walk find nothing on
// the page, before and after; the harness fails the test on any Content-Security-Policy violation.
import { beforeEach, describe, expect, it } from 'vitest';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { audit } from './audit.js';
import { hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';
import { keyboardFindings } from './keyboard-reach.js';

const ROLLUP_PROJECT = [
  {
    path: 'orders_by_channel.cml',
    content: `node channel_orders {
  connection: warehouse  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension channel { type: string }
  dimension status { type: string }
  measure order_count { type: count }
  rollup by_channel { dimensions: [channel]  measures: [order_count]  refresh: on_deploy }
}
`,
  },
];

describe.skipIf(!hasChromium)('the rollups page in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('explains what a rollup is while the model has none', async () => {
    const { page } = h;
    await page.goto(`${h.base}/rollups`);
    await page.getByRole('heading', { name: 'Rollups', level: 1 }).waitFor();
    await page.getByText('No rollups in the deployed model.').waitFor();
    await page.getByRole('link', { name: 'rollup in the glossary' }).waitFor();
    await audit(page, 'rollups, none yet');
    expect(await keyboardFindings(page)).toEqual([]);
    await h.screenshot('rollups-empty');
    await page.getByRole('link', { name: 'rollup in the glossary' }).click();
    await page.locator('article.glossary').getByRole('heading', { name: 'rollup', exact: true }).waitFor();
  });

  it('shows the rollup with its state and hit rate, and queues a build on "Build now"', async () => {
    const { page } = h;
    const { services } = h.t;
    const lum = h.ws.members.luminary;
    await services.models.deploy({ workspaceId: h.ws.id, userId: lum.id, email: lum.email }, 'rollup-extra', ROLLUP_PROJECT);
    const loop = new RollupBuildScheduler(services.rollupBuildRows, services.rollupBuilds, h.t.clock, 60_000, { pollMs: 60_000 });
    expect(await loop.tick()).toBe(1);
    const cookie = await sessionCookie(h);
    const query = async (dimension: string) => {
      const response = await h.t.app.inject({ method: 'POST', url: '/api/query', headers: { cookie, 'content-type': 'application/json' }, payload: { node: 'channel_orders', dimensions: [dimension], measures: ['order_count'] } });
      expect(response.statusCode).toBe(200);
      return response.json().metadata.rollup;
    };
    expect((await query('channel')).name).toBe('by_channel');
    expect((await query('status')).used).toBeNull();
    await page.goto(`${h.base}/rollups`);
    await page.getByRole('heading', { name: 'Rollups', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'channel_orders.by_channel' }) });
    await row.getByText('ready', { exact: true }).waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toMatch(/^\d+ \(1 of 1 partitions\)$/);
    expect(cells[4]).toBe('50% (1 of 2); missed: lacks_dimension 1');
    expect(cells[5]).toBe('none');
    await page.getByText(/rollup file holds [\d.]+ (B|KB|MB)/).waitFor();
    await audit(page, 'rollups');
    expect(await keyboardFindings(page)).toEqual([]);
    await h.screenshot('rollups');

    await row.getByRole('button', { name: 'Build channel_orders.by_channel now' }).click();
    await page.getByRole('status').filter({ hasText: 'A build of channel_orders.by_channel is queued' }).waitFor();
    await row.getByRole('cell', { name: 'queued: builds at the next poll' }).waitFor();
    await audit(page, 'rollups with a build queued');
    expect(await keyboardFindings(page)).toEqual([]);
    await h.screenshot('rollups-queued');
  });
});
