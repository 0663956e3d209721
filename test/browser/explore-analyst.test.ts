// Explore as an analyst uses it, in Chromium: revenue by month for one channel as a line (the months
// named "Nov 2025" and in time order along the axis however the rows are sorted), a sort and a row
// limit, a field of a joined node and one of a node two joins away, several sort fields in turn, and
// stacked bars split by a second dimension. Every figure the page
// shows is checked against POST /api/query's answer to the very body the page sent.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { figure, monthName, readGrid } from './answer-grid.js';
import { hoverAlongX } from './chart-hover.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

type Row = Record<string, unknown>;
interface Answer { data: Row[] }

describe.skipIf(!hasChromium)('Explore: grains, formats, sort and limit, joined fields, chart types', () => {
  const harness = signedInConsole({ orders: 1500 });
  let h: ConsoleHarness;
  let page: Page;
  beforeAll(async () => {
    h = harness();
    page = h.page;
    await page.clock.setFixedTime(h.t.clock.now());
  });

  async function direct(body: unknown): Promise<Answer> {
    const response = await h.t.app.inject({ method: 'POST', url: '/api/query', headers: { cookie: await sessionCookie(h), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function savedScene(name: string): Promise<Row | undefined> {
    const list = await h.t.app.inject({ method: 'GET', url: '/api/scenes?limit=200', headers: { cookie: await sessionCookie(h) } });
    return (list.json().scenes as Row[]).find((s) => s.name === name);
  }

  async function run(): Promise<Row> {
    const [request] = await Promise.all([
      page.waitForRequest((r: Request) => r.url().endsWith('/api/query') && r.method() === 'POST'),
      page.getByRole('button', { name: 'Run', exact: true }).click(),
    ]);
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Explore rows' }).waitFor();
    return request.postDataJSON() as Row;
  }

  it('draws revenue by month for one channel as a line: months named and in time order, though the rows are sorted by revenue', async () => {
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Ordered at', exact: true }).check();
    await page.getByLabel('Group Ordered at by').selectOption('quarter');
    await page.getByLabel('Group Ordered at by').selectOption('month');
    await page.getByRole('checkbox', { name: 'Gross revenue', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption('channel');
    await filter.getByLabel('Operator').selectOption({ label: 'is' });
    await filter.getByLabel('Value').fill('web');
    const sort = page.getByRole('group', { name: 'Sort and limit' });
    await sort.getByLabel('Sort by').selectOption({ label: 'Gross revenue' });
    await sort.getByLabel('Direction').selectOption('desc');
    const body = await run();
    expect(body).toMatchObject({ node: 'orders', dimensions: ['created_at.month'], measures: ['gross_revenue'], filters: [{ field: 'channel', operator: 'equals', value: 'web' }], sorts: [{ field: 'gross_revenue', direction: 'desc' }], limit: 1000 });
    await page.getByLabel('Chart type').selectOption({ label: 'Line' });

    const answer = await direct(body);
    expect(answer.data.length).toBeGreaterThan(6);
    const revenues = answer.data.map((r) => r.gross_revenue as number);
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    // The grid keeps the rows' order (by revenue), each month by its name, each figure with its cents.
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Ordered at (month)'])).toEqual(answer.data.map((r) => monthName(r['created_at.month'])));
    shown.forEach((cells, i) => {
      expect(cells['Gross revenue']).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
      expect(figure(cells['Gross revenue'])).toBeCloseTo(revenues[i]!, 2);
    });

    // The line runs through the months in time order, each named as in the grid, each value as the grid writes it.
    expect(await page.locator('figure.chart').getAttribute('data-chart-type')).toBe('line');
    const inTime = [...answer.data].sort((a, b) => String(a['created_at.month']).localeCompare(String(b['created_at.month'])));
    const along = await hoverAlongX(page, inTime.length);
    expect(along.map((p) => p.x)).toEqual(inTime.map((r) => monthName(r['created_at.month'])));
    const gridText = new Map(shown.map((r) => [r['Ordered at (month)'], r['Gross revenue']]));
    expect(along.map((p) => p.value)).toEqual(along.map((p) => gridText.get(p.x)));
    await h.screenshot('explore-revenue-by-month-line');
    expect(cspViolations(h)).toEqual([]);
  });

  it('sorts ascending by a measure and limits the rows, by a dimension of a joined node', async () => {
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByText('Joined: Customers').click();
    const joined = page.getByRole('group', { name: 'Fields of Customers' });
    await joined.getByRole('checkbox', { name: 'Country', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    const sort = page.getByRole('group', { name: 'Sort and limit' });
    await sort.getByLabel('Sort by').selectOption({ label: 'Orders' });
    await sort.getByLabel('Direction').selectOption('asc');
    await sort.getByLabel('Row limit').fill('3');
    const body = await run();
    expect(body).toMatchObject({ dimensions: ['customers.country'], measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'asc' }], limit: 3 });

    const answer = await direct(body);
    const all = await direct({ ...body, limit: 1000 });
    expect(all.data.length).toBeGreaterThan(3);
    expect(answer.data).toEqual(all.data.slice(0, 3));
    const counts = all.data.map((r) => r.order_count as number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Customers: Country'])).toEqual(answer.data.map((r) => String(r['customers.country'] ?? '∅')));
    expect(shown.map((r) => figure(r['Orders']))).toEqual(answer.data.map((r) => r.order_count));
    await h.screenshot('explore-joined-sort-limit');

    // The scene keeps the joined field, the sort and the limit.
    await page.getByLabel('Scene name').fill('Fewest orders by country');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Fewest orders by country saved.' }).waitFor();
    expect(await savedScene('Fewest orders by country')).toMatchObject({ dimensions: ['customers.country'], sorts: [{ field: 'order_count', direction: 'asc' }], limit: 3 });
  });

  it('offers the fields of a node two joins away, labelled by the path of joins, and answers with them as the API does', async () => {
    // What the server says order_items reaches: customers through orders, under the name its fields are written with.
    const reach = await h.t.app.inject({ method: 'GET', url: '/api/nodes/order_items/reach', headers: { cookie: await sessionCookie(h) } });
    expect(reach.statusCode, reach.body).toBe(200);
    expect(reach.json().reach).toContainEqual({ name: 'customers', node: 'customers', label: 'Customers', role: null, depth: 2, declared: true,
      path: [{ name: 'orders', node: 'orders', label: 'Orders' }, { name: 'customers', node: 'customers', label: 'Customers' }] });

    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('order_items');
    await page.getByText('Joined: Orders', { exact: true }).waitFor();
    await page.getByText('Joined: Orders › Customers', { exact: true }).click();
    const far = page.getByRole('group', { name: 'Fields of Orders › Customers' });
    await far.getByRole('checkbox', { name: 'Segment', exact: true }).check();
    await far.getByRole('checkbox', { name: 'Countries', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Item revenue', exact: true }).check();
    const body = await run();
    expect(body).toMatchObject({ node: 'order_items', dimensions: ['customers.segment'], measures: ['customers.countries', 'item_revenue'] });

    const answer = await direct(body);
    expect(answer.data.length).toBeGreaterThan(1);
    // Each order line is counted once: the revenue by segment adds up to the revenue of all lines.
    const [total] = (await direct({ node: 'order_items', measures: ['item_revenue'] })).data;
    const bySegment = answer.data.reduce((sum, r) => sum + Number(r.item_revenue), 0);
    expect(bySegment).toBeCloseTo(Number(total!.item_revenue), 2);
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Orders › Customers: Segment'])).toEqual(answer.data.map((r) => String(r['customers.segment'] ?? '∅')));
    expect(shown.map((r) => figure(r['Orders › Customers: Countries']))).toEqual(answer.data.map((r) => Number(r['customers.countries'])));
    expect(shown.map((r) => figure(r['Item revenue']))).toEqual(answer.data.map((r) => Number(Number(r.item_revenue).toFixed(2))));
    await h.screenshot('explore-two-joins-away');

    // A scene keeps the fields two joins away, and runs them as Explore did.
    await page.getByLabel('Scene name').fill('Item revenue by segment');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Item revenue by segment saved.' }).waitFor();
    const scene = await savedScene('Item revenue by segment');
    expect(scene).toMatchObject({ node: 'order_items', dimensions: ['customers.segment'], measures: ['customers.countries', 'item_revenue'], status: 'ok' });
    const ran = await h.t.app.inject({ method: 'POST', url: `/api/scenes/${String(scene!.id)}/run`, headers: { cookie: await sessionCookie(h), 'content-type': 'application/json' }, payload: '{}' });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json().data).toEqual(answer.data);
  });

  it('sorts by several fields in turn, each with its direction, a removed sort row no longer sent', async () => {
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Channel', exact: true }).check();
    await page.getByText('Joined: Customers', { exact: true }).click();
    await page.getByRole('group', { name: 'Fields of Customers' }).getByRole('checkbox', { name: 'Segment', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    const sort = page.getByRole('group', { name: 'Sort and limit' });
    await sort.getByRole('group', { name: 'Sort 1' }).getByLabel('Sort by').selectOption({ label: 'Channel' });
    await sort.getByRole('group', { name: 'Sort 1' }).getByLabel('Direction').selectOption('asc');
    await sort.getByRole('button', { name: 'Add sort field' }).click();
    await sort.getByRole('group', { name: 'Sort 2' }).getByLabel('Then by').selectOption({ label: 'Customers: Segment' });
    await sort.getByRole('group', { name: 'Sort 2' }).getByLabel('Direction').selectOption('asc');
    await sort.getByRole('button', { name: 'Add sort field' }).click();
    // A field sorted by already is not offered again.
    const third = sort.getByRole('group', { name: 'Sort 3' });
    await expect.poll(() => third.getByLabel('Then by').locator('option').allTextContents()).toEqual(['—', 'Orders']);
    await third.getByLabel('Then by').selectOption({ label: 'Orders' });
    await third.getByLabel('Direction').selectOption('desc');
    // The segment row goes: orders now break the channel's ties.
    await sort.getByRole('button', { name: 'Remove sort 2' }).click();
    await expect.poll(() => sort.getByRole('group').count()).toBe(2);
    const body = await run();
    expect(body.sorts).toEqual([{ field: 'channel', direction: 'asc' }, { field: 'order_count', direction: 'desc' }]);

    const answer = await direct(body);
    const unsorted = await direct({ ...body, sorts: [] });
    expect(answer.data.length).toBe(unsorted.data.length);
    expect(answer.data).not.toEqual(unsorted.data);
    // Channels ascending; within a channel, the most orders first.
    answer.data.forEach((r, i) => {
      const before = answer.data[i - 1];
      if (!before) return;
      expect(String(before.channel) <= String(r.channel)).toBe(true);
      if (before.channel === r.channel) expect(Number(before.order_count)).toBeGreaterThanOrEqual(Number(r.order_count));
    });
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => [r['Channel'], r['Customers: Segment'], figure(r['Orders'])])).toEqual(
      answer.data.map((r) => [String(r.channel), String(r['customers.segment'] ?? '∅'), r.order_count]),
    );
    await h.screenshot('explore-several-sorts');
  });

  it('refuses a row limit that is no whole number before anything runs', async () => {
    const sort = page.getByRole('group', { name: 'Sort and limit' });
    await sort.getByLabel('Row limit').fill('0');
    await expect(sort.getByRole('alert').textContent()).resolves.toContain('A row limit is a whole number from 1 to 50,000.');
    expect(await page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
  });

  it('stacks revenue by quarter split by channel, one series per channel, quarters named "Q1 2025"', async () => {
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Ordered at', exact: true }).check();
    await page.getByLabel('Group Ordered at by').selectOption('quarter');
    await page.getByRole('checkbox', { name: 'Channel', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Gross revenue', exact: true }).check();
    const body = await run();
    expect(body).toMatchObject({ dimensions: ['created_at.quarter', 'channel'] });
    await page.getByLabel('Chart type').selectOption({ label: 'Stacked bars' });
    const answer = await direct(body);
    const chart = page.locator('figure.chart');
    expect(await chart.getAttribute('data-chart-type')).toBe('stacked_bar');
    const channels = [...new Set(answer.data.map((r) => String(r.channel)))];
    const legend = await chart.locator('.u-legend .u-series .u-label').allTextContents();
    expect(legend.slice(1).sort()).toEqual(channels.sort());
    const quarters = [...new Set(answer.data.map((r) => String(r['created_at.quarter'])))].sort();
    const along = await hoverAlongX(page, quarters.length);
    expect(along.map((p) => p.x)).toEqual(quarters.map((q) => `Q${Math.floor((Number(q.slice(5, 7)) - 1) / 3) + 1} ${q.slice(0, 4)}`));
    await h.screenshot('explore-stacked-quarters');

    await page.getByLabel('Scene name').fill('Revenue stacked by channel');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Revenue stacked by channel saved.' }).waitFor();
    expect(await savedScene('Revenue stacked by channel')).toMatchObject({ visualization: { type: 'stacked_bar' } });
  });
});
