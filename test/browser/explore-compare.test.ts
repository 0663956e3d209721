// Explore's comparisons, percents of total and negated filters in Chromium. Every figure the page shows
// is checked against POST /api/query's answer to the very body the page sent, and the body against what
// the controls mean (the period a preset names, the operator a negation gives). The page's clock is the
// server's test clock, so "last month" is the same month on both sides whatever the machine's date.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { arrowOf, figure, monthName, readGrid } from './answer-grid.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

type Row = Record<string, unknown>;
interface Answer { data: Row[]; metadata: { columns: Array<{ key: string; kind: string }>; comparison?: { range: string[]; comparison_range: string[]; partial: boolean } } }

/** YYYY-MM-DD of the first day of the month `offset` months from the month of `at` (UTC: the seeded workspace's zone). */
function monthStart(at: Date, offset: number): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

describe.skipIf(!hasChromium)('Explore: compare to, percent of total, negated filters', () => {
  const harness = signedInConsole({ orders: 1500 });
  let h: ConsoleHarness;
  let page: Page;
  beforeAll(async () => {
    h = harness();
    page = h.page;
    await page.clock.setFixedTime(h.t.clock.now());
  });

  /** The same body, sent to the session route directly. */
  async function direct(body: unknown): Promise<Answer> {
    const response = await h.t.app.inject({ method: 'POST', url: '/api/query', headers: { cookie: await sessionCookie(h), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** Clicks Run and answers the body the page sent, once the rows it got are shown. */
  async function run(): Promise<Row> {
    const [request] = await Promise.all([
      page.waitForRequest((r: Request) => r.url().endsWith('/api/query') && r.method() === 'POST'),
      page.getByRole('button', { name: 'Run', exact: true }).click(),
    ]);
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
    return request.postDataJSON() as Row;
  }

  async function startQuery(dimensions: string[], measures: string[]) {
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    for (const d of dimensions) await page.getByRole('checkbox', { name: d, exact: true }).check();
    for (const m of measures) await page.getByRole('checkbox', { name: m, exact: true }).check();
  }

  it('compares last month with the month before: each figure is the API’s, each change shows its direction', async () => {
    await startQuery(['Channel'], ['Orders', 'Gross revenue']);
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const compare = page.getByRole('group', { name: 'Compare to' });
    await compare.getByLabel('Time dimension').selectOption('created_at');
    await compare.getByLabel('Current period').selectOption({ label: 'Last month' });
    await compare.getByLabel('Compared with').selectOption({ label: 'Previous period' });
    const body = await run();
    const now = h.t.clock.now();
    expect(body.compare).toEqual({ dimension: 'created_at', range: [monthStart(now, -1), monthStart(now, 0)], to: 'previous_period' });

    const answer = await direct(body);
    expect(answer.metadata.comparison).toMatchObject({ range: [`${monthStart(now, -1)}T00:00:00.000`, `${monthStart(now, 0)}T00:00:00.000`], comparison_range: [`${monthStart(now, -2)}T00:00:00.000`, `${monthStart(now, -1)}T00:00:00.000`], partial: false });
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Channel'])).toEqual(answer.data.map((r) => r.channel));
    expect(answer.data.length).toBe(3);
    answer.data.forEach((row, i) => {
      const cells = shown[i]!;
      for (const [key, label] of [['order_count', 'Orders'], ['gross_revenue', 'Gross revenue']] as const) {
        expect(figure(cells[label]), label).toBeCloseTo(row[key] as number, 2);
        expect(figure(cells[`${label} (previous period)`])).toBeCloseTo(row[`${key}.comparison`] as number, 2);
        expect(figure(cells[`${label} change`])).toBeCloseTo(row[`${key}.change`] as number, 2);
        expect(cells[`${label} change`]!.slice(0, 1)).toBe(arrowOf(row[`${key}.change`] as number, 2));
        const percent = row[`${key}.change_percent`] as number | null;
        if (percent === null) expect(cells[`${label} change %`]).toBe('—');
        else {
          expect(Math.abs(figure(cells[`${label} change %`])! - percent)).toBeLessThanOrEqual(0.05);
          expect(cells[`${label} change %`]).toMatch(percent >= 0.05 ? /^▲ \+/ : percent <= -0.05 ? /^▼ −/ : /^= /);
        }
      }
      expect(cells['Period']).toBe(''); // last month is over: nothing partial
    });
    // The chart draws both periods of the value chosen, as grouped bars by channel.
    const chart = page.getByLabel(/^Chart: Orders vs previous period/);
    expect(await chart.getAttribute('data-chart-type')).toBe('bar');
    expect(await chart.locator('.u-legend .u-series').count()).toBe(3); // x and the two periods
    await h.screenshot('explore-compare');
  });

  it('compares each month of this quarter with the same month a year before, and marks the month not over as partial', async () => {
    await startQuery(['Ordered at'], ['Orders']);
    expect(await page.getByLabel('Group Ordered at by').inputValue()).toBe('month');
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const compare = page.getByRole('group', { name: 'Compare to' });
    await compare.getByLabel('Current period').selectOption({ label: 'This quarter' });
    await compare.getByLabel('Compared with').selectOption({ label: 'Same period last year' });
    const body = await run();
    const now = h.t.clock.now();
    const quarter = -(now.getUTCMonth() % 3);
    expect(body).toMatchObject({ dimensions: ['created_at.month'], compare: { dimension: 'created_at', range: [monthStart(now, quarter), monthStart(now, quarter + 3)], to: 'previous_year' } });
    const answer = await direct(body);
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Ordered at (month)'])).toEqual(answer.data.map((r) => monthName(r['created_at.month'])));
    answer.data.forEach((row, i) => {
      expect(figure(shown[i]!['Orders'])).toBe(row.order_count);
      expect(figure(shown[i]!['Orders (a year before)'])).toBe(row['order_count.comparison']);
      expect(shown[i]!['Period']).toBe(row['created_at.partial'] ? '◐ Partial' : '');
    });
    // The test clock's month is in this quarter and not over.
    expect(answer.data.find((r) => String(r['created_at.month']).startsWith(monthStart(now, 0)))?.['created_at.partial']).toBe(true);
    await page.getByText('The current period is not over: its figures are partial.').waitFor();
    const chart = page.getByLabel(/^Chart: Orders vs a year before/);
    expect(await chart.getAttribute('data-chart-type')).toBe('line');
    await h.screenshot('explore-compare-months');
  });

  it('shows each measure as a percent of the total of all rows, or of each group, adding up to 100 %', async () => {
    await startQuery(['Channel'], ['Orders']);
    await page.getByRole('checkbox', { name: 'Orders as % of total' }).check();
    const body = await run();
    expect(body.shares).toEqual([{ measure: 'order_count' }]);
    const answer = await direct(body);
    const shown = await readGrid(page, 'Explore rows');
    const percents = shown.map((r) => figure(r['Orders % of total'])!);
    answer.data.forEach((row, i) => expect(Math.abs(percents[i]! - (row['order_count.share'] as number) * 100)).toBeLessThanOrEqual(0.05));
    expect(Math.abs(percents.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(0.05 * percents.length);
    // The share is the chart's value when chosen.
    await page.getByLabel('Chart value').selectOption({ label: 'Orders % of total' });
    await page.getByLabel('Chart: Orders % of total').waitFor();

    // Within each status: every status's channels add up to 100 %.
    await page.getByRole('checkbox', { name: 'Status', exact: true }).check();
    await page.getByRole('group', { name: 'Percent of total: Orders' }).getByLabel('Total of').selectOption({ label: 'Each Status' });
    const within = await run();
    expect(within.shares).toEqual([{ measure: 'order_count', of: ['status'] }]);
    await direct(within);
    const rows = await readGrid(page, 'Explore rows');
    const byStatus = new Map<string, number>();
    for (const r of rows) byStatus.set(r['Status']!, (byStatus.get(r['Status']!) ?? 0) + figure(r['Orders % of each Status'])!);
    expect(byStatus.size).toBeGreaterThan(1);
    for (const [status, total] of byStatus) expect(Math.abs(total - 100), status).toBeLessThanOrEqual(0.2);
    await h.screenshot('explore-share');
  });

  it('negates a filter: the rows are the API’s for the negated filter, and with the filter’s they make all the rows', async () => {
    await startQuery(['Channel'], ['Orders']);
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption('channel');
    await filter.getByLabel('Operator').selectOption({ label: 'starts with' });
    await filter.getByLabel('Value').fill('w');
    const kept = await run();
    const keptRows = (await direct(kept)).data.map((r) => r.channel);
    expect(keptRows).toEqual(['web']);

    await filter.getByRole('checkbox', { name: 'Not' }).check();
    await filter.getByText('Keeps the rows where Channel does not start with w, and those where Channel has no value.').waitFor();
    const negated = await run();
    expect(negated.filters).toEqual([{ field: 'channel', operator: 'notStartsWith', value: 'w' }]);
    const answer = await direct(negated);
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Channel'])).toEqual(answer.data.map((r) => r.channel));
    expect(new Set([...keptRows, ...answer.data.map((r) => r.channel)]).size).toBe(keptRows.length + answer.data.length);
    expect(answer.data.map((r) => r.channel).sort()).toEqual(['marketplace', 'mobile']);
    await h.screenshot('explore-negated-filter');

    // A comparison without a negated form is sent as a `not` group: fewer than N orders, or none.
    await filter.getByRole('checkbox', { name: 'Not' }).uncheck();
    await filter.getByLabel('Field').selectOption('order_count');
    await filter.getByLabel('Operator').selectOption({ label: 'is greater than' });
    const all = (await direct({ node: 'orders', dimensions: ['channel'], measures: ['order_count'] })).data;
    const middle = [...all.map((r) => r.order_count as number)].sort((a, b) => a - b)[1]!;
    await filter.getByLabel('Value').fill(String(middle));
    await filter.getByRole('checkbox', { name: 'Not' }).check();
    const notGreater = await run();
    expect(notGreater.filters).toEqual([{ not: { field: 'order_count', operator: 'gt', value: middle } }]);
    const small = await direct(notGreater);
    expect((await readGrid(page, 'Explore rows')).map((r) => r['Channel'])).toEqual(small.data.map((r) => r.channel));
    expect(small.data.map((r) => r.channel).sort()).toEqual(all.filter((r) => (r.order_count as number) <= middle).map((r) => r.channel).sort());
    expect(cspViolations(h)).toEqual([]);
  });

  it('shows a refused comparison beside the comparison controls, with the server’s message', async () => {
    await startQuery(['Ordered at'], ['Orders']);
    await page.getByLabel('Group Ordered at by').selectOption({ label: 'exact time' });
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/query')), page.getByRole('button', { name: 'Run', exact: true }).click()]);
    expect(response.status()).toBe(400);
    const { error, code } = await response.json();
    expect(code).toBe('invalid_compare');
    const alert = page.getByRole('group', { name: 'Compare to' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(error);
    await h.screenshot('explore-compare-refused');
  });
});
