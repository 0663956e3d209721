// The CML builder's comparison, percent of total and negated filter in Chromium: the figures the page
// shows are those POST /api/studio/query/cml answers to the very body the page sent, under the metrics'
// names. The page's clock is the server's test clock, so "last month" is the same month on both sides.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { arrowOf, figure, readGrid } from './answer-grid.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

type Row = Record<string, unknown>;

/** YYYY-MM-DD of the first day of the month `offset` months from the month of `at` (UTC: the seeded workspace's zone). */
function monthStart(at: Date, offset: number): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

describe.skipIf(!hasChromium)('CML builder: compare to, percent of total, negated filter', () => {
  const harness = signedInConsole({ orders: 1500 });
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = harness();
    await h.page.clock.setFixedTime(h.t.clock.now());
  });

  it('compares metrics of a reveal with the month before, within a negated filter, with each metric’s percent of total', async () => {
    const { page } = h;
    await page.goto(`${h.base}/cml-builder`);
    await page.getByLabel('Reveal').selectOption({ label: 'sales (commerce)' });
    await page.getByRole('checkbox', { name: 'revenue', exact: true }).check();
    await page.getByRole('checkbox', { name: 'orders', exact: true }).check();
    await page.getByLabel('Dimensions (comma-separated)').fill('channel');
    // The reveal's fields come with the first preview.
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption('channel');
    await filter.getByLabel('Operator').selectOption({ label: 'is' });
    await filter.getByLabel('Value').fill('marketplace');
    await filter.getByRole('checkbox', { name: 'Not' }).check();
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const compare = page.getByRole('group', { name: 'Compare to' });
    expect(await compare.getByLabel('Time dimension').inputValue()).toBe('created_at'); // the reveal's time
    await compare.getByLabel('Current period').selectOption({ label: 'Last month' });
    await page.getByRole('checkbox', { name: 'orders as % of total' }).check();

    const [request] = await Promise.all([
      page.waitForRequest((r: Request) => r.url().endsWith('/api/studio/query/cml') && (r.postDataJSON() as Row).run === true),
      page.getByRole('button', { name: 'Run query' }).click(),
    ]);
    const body = request.postDataJSON() as Row;
    const now = h.t.clock.now();
    expect(body).toMatchObject({
      reveal: 'sales',
      measures: ['revenue', 'orders'],
      dimensions: ['channel'],
      filters: [{ field: 'channel', operator: 'notEquals', value: 'marketplace' }],
      compare: { dimension: 'created_at', range: [monthStart(now, -1), monthStart(now, 0)], to: 'previous_period' },
      shares: [{ measure: 'orders' }],
    });
    const response = await h.t.app.inject({ method: 'POST', url: '/api/studio/query/cml', headers: { cookie: await sessionCookie(h), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().result.rows as Row[];
    expect(rows.map((r) => r.channel).sort()).toEqual(['mobile', 'web']);

    const shown = await readGrid(page, 'Result rows');
    expect(shown.map((r) => r['Channel'])).toEqual(rows.map((r) => r.channel));
    rows.forEach((row, i) => {
      const cells = shown[i]!;
      expect(figure(cells['revenue'])).toBeCloseTo(row.revenue as number, 2);
      expect(figure(cells['revenue (previous period)'])).toBeCloseTo(row['revenue.comparison'] as number, 2);
      expect(figure(cells['revenue change'])).toBeCloseTo(row['revenue.change'] as number, 2);
      expect(cells['revenue change']!.slice(0, 1)).toBe(arrowOf(row['revenue.change'] as number, 2));
      expect(figure(cells['orders'])).toBe(row.orders);
      expect(Math.abs(figure(cells['orders change %'])! - (row['orders.change_percent'] as number))).toBeLessThanOrEqual(0.05);
      expect(Math.abs(figure(cells['orders % of total'])! - (row['orders.share'] as number) * 100)).toBeLessThanOrEqual(0.05);
    });
    // The total is of the rows the filter keeps: web and mobile make 100 %.
    expect(Math.abs(shown.reduce((sum, r) => sum + figure(r['orders % of total'])!, 0) - 100)).toBeLessThanOrEqual(0.1);
    await page.getByLabel(/^Chart: revenue vs previous period/).waitFor();
    await h.screenshot('cml-builder-compare');
    expect(cspViolations(h)).toEqual([]);
  });

  it('shows why a metric computed from other metrics cannot be compared, beside the comparison', async () => {
    const { page } = h;
    await page.goto(`${h.base}/cml-builder`);
    await page.getByLabel('Reveal').selectOption({ label: 'sales (commerce)' });
    await page.getByRole('checkbox', { name: 'average_order_value', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const alert = page.getByRole('group', { name: 'Compare to' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Metric average_order_value is computed from other metrics/);
  });
});
