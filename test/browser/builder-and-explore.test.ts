// The CML builder and Explore in Chromium: a reveal's metric by a dimension shows the compiled SQL and
// runs; a node's fields with a filter run, chart and save as a scene. They use the session routes
// GET /api/reveals, GET /api/nodes(/:id/fields) and POST /api/query.
import { beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('CML builder and Explore in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeAll(() => {
    h = harness();
  });

  it('builds SQL from a reveal, previews it and runs it', async () => {
    const { page } = h;
    await page.goto(`${h.base}/cml-builder`);
    await page.getByLabel('Reveal').selectOption({ label: 'sales (commerce)' });
    await page.getByRole('checkbox', { name: 'orders', exact: true }).check();
    await page.getByLabel('Dimensions (comma-separated)').fill('channel');
    const preview = page.getByLabel('Compiled SQL');
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/FROM shop\.orders/);
    await page.getByRole('button', { name: 'Run query' }).click();
    const rows = page.getByRole('table', { name: 'Result rows' });
    await rows.waitFor();
    expect(await rows.getByRole('cell', { name: 'marketplace' }).isVisible()).toBe(true);
    await h.screenshot('cml-builder');
  });

  it('explores a node with a filter, charts it and saves it as a scene', async () => {
    const { page } = h;
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'channel' }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption('channel');
    await filter.getByLabel('Value').fill('web, mobile');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Explore rows' });
    await rows.waitFor();
    expect(await rows.getByRole('cell', { name: 'web' }).isVisible()).toBe(true);
    expect(await rows.getByRole('cell', { name: 'marketplace' }).count()).toBe(0);
    expect(await page.getByLabel(/^Chart: /).count()).toBe(1);
    await page.getByLabel('Scene name').fill('Web and mobile orders');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Web and mobile orders saved.' }).waitFor();
    await h.screenshot('explore');
    expect(cspViolations(h.messages)).toEqual([]);
  });
});
