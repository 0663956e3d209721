// An analyst's whole task in Chromium, on the pages alone, as docs/tutorial.md walks through it: a new
// vault; in Explore, completed revenue by month for the web channel as a line (months in time order
// along the axis, values written with their cents); saved as a scene in the new vault; a mosaic with
// that scene as a tile and a date range, whose tile shows what a governed query for that range
// answers; a signal on the scene; a webhook endpoint and a scheduled delivery of the mosaic to it, sent
// now to a receiver on loopback. The API is only read, to check what the pages did. Last, the home page
// leads a first-time user to the tutorial.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startReceiver, verifyAt } from '../webhooks/receiver.js';
import { figure, monthName, readGrid } from './answer-grid.js';
import { hoverAlongX } from './chart-hover.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

type Row = Record<string, unknown>;

const VAULT = 'Web sales';
const SCENE = 'Web revenue by month';
const MOSAIC = 'Web sales board';
const SIGNAL = 'Web revenue this month';
const SCHEDULE = 'Monday web sales';
const WEB_ONLY = { field: 'channel', operator: 'equals', value: 'web' };

describe.skipIf(!hasChromium)('the analyst task in Chromium, pages only', () => {
  const harness = signedInConsole({ orders: 600, env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  let h: ConsoleHarness;
  let page: Page;
  let cookie = '';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    h = harness();
    page = h.page;
    cookie = await sessionCookie(h);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  async function read<T = Row>(url: string): Promise<T> {
    const response = await h.t.app.inject({ method: 'GET', url: `/api${url}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  }
  async function governed(body: unknown): Promise<Row[]> {
    const response = await h.t.app.inject({ method: 'POST', url: '/api/query', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: Row[] }).data;
  }
  const openPage = async (title: string) => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  };
  const byMonth = (rows: Row[]) => Object.fromEntries(rows.map((r) => [String(r['created_at.month']), r.completed_revenue]));

  it('builds a scene, a dashboard with a date range, a signal and a scheduled delivery, in the browser only', async () => {
    // a. A new vault.
    await page.goto(`${h.base}/`);
    await openPage('Content');
    const vaults = page.getByRole('region', { name: 'Vaults' });
    await vaults.getByLabel('Vault name').fill(VAULT);
    await vaults.getByRole('button', { name: 'Create vault' }).click();
    await vaults.getByRole('status').filter({ hasText: `Vault ${VAULT} created.` }).waitFor();
    const vault = (await read<{ vaults: Array<{ id: string; name: string }> }>('/vaults')).vaults.find((v) => v.name === VAULT)!;
    expect(vault).toBeTruthy();
    await h.screenshot('analyst-1-vault');

    // b. Explore: completed revenue by month for the web channel, newest month first (what the signal watches), as a line.
    await openPage('Explore');
    await page.getByLabel('Node').selectOption({ label: 'Orders' });
    await page.getByRole('checkbox', { name: 'Ordered at', exact: true }).check();
    expect(await page.getByLabel('Group Ordered at by').inputValue()).toBe('month');
    await page.getByRole('checkbox', { name: 'Completed revenue', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption({ label: 'Channel' });
    await filter.getByLabel('Operator').selectOption({ label: 'is' });
    await filter.getByLabel('Value').fill('web');
    const sort = page.getByRole('group', { name: 'Sort and limit' });
    await sort.getByLabel('Sort by').selectOption({ label: 'Ordered at (month)' });
    await sort.getByLabel('Direction').selectOption({ label: 'Descending' });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByLabel('Chart type').selectOption({ label: 'Line' });
    const query = { node: 'orders', dimensions: ['created_at.month'], measures: ['completed_revenue'], filters: [WEB_ONLY], sorts: [{ field: 'created_at.month', direction: 'desc' }] };
    const all = await governed(query);
    expect(all.length).toBeGreaterThan(5);
    const shown = await readGrid(page, 'Explore rows');
    expect(shown.map((r) => r['Ordered at (month)'])).toEqual(all.map((r) => monthName(r['created_at.month'])));
    for (const [i, cells] of shown.entries()) {
      expect(cells['Completed revenue']).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
      expect(figure(cells['Completed revenue'])).toBeCloseTo(all[i]!.completed_revenue as number, 2);
    }
    // Newest first in the grid, yet the line runs from the first month to the last, each value as the grid writes it.
    const chart = page.locator('figure.chart');
    expect(await chart.getAttribute('data-chart-type')).toBe('line');
    const along = await hoverAlongX(page, all.length);
    expect(along.map((p) => p.x)).toEqual([...shown].reverse().map((r) => r['Ordered at (month)']));
    expect(along.map((p) => p.value)).toEqual([...shown].reverse().map((r) => r['Completed revenue']));
    await h.screenshot('analyst-2-explore');

    // c. Saved as a scene in the new vault, with its grain, filter, sort and chart type.
    await page.getByLabel('Scene name').fill(SCENE);
    const vaultChoice = page.getByRole('form', { name: 'Save as scene' }).getByLabel('Vault');
    // The personal vault once, by the name the page gives it, then the shared vaults.
    expect(await vaultChoice.locator('option').allTextContents()).toEqual(['My personal vault', VAULT]);
    await vaultChoice.selectOption({ label: VAULT });
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: `Scene ${SCENE} saved.` }).waitFor();
    const scene = (await read<{ scenes: Row[] }>('/scenes?limit=200')).scenes.find((s) => s.name === SCENE)!;
    expect(scene).toMatchObject({ vault: vault.id, node: 'orders', dimensions: ['created_at.month'], measures: ['completed_revenue'], filters: [WEB_ONLY], sorts: query.sorts, visualization: { type: 'line' } });
    await h.screenshot('analyst-3-scene-saved');

    // d. A mosaic with the scene as a tile and a date range: from the first of the second month shown to the 28th of the fourth.
    const months = all.map((r) => String(r['created_at.month']).slice(0, 10)).sort();
    const range = [months[1]!, `${months[3]!.slice(0, 7)}-28`];
    await openPage('Content');
    const mosaics = page.getByRole('region', { name: 'Mosaics' });
    await mosaics.getByRole('button', { name: 'New mosaic' }).click();
    const form = mosaics.getByRole('form', { name: 'New mosaic' });
    await form.getByLabel('Mosaic name').fill(MOSAIC);
    await form.getByLabel('Mosaic vault').selectOption({ label: VAULT });
    const adder = form.getByRole('group', { name: 'Add a tile' });
    await adder.getByLabel('New tile').selectOption({ label: 'Scene (its saved chart)' });
    await adder.getByLabel('Scene').selectOption({ label: `${SCENE} (Line)` });
    await adder.getByRole('button', { name: 'Add tile' }).click();
    const dates = form.getByRole('group', { name: 'Date range (Dashboard filters)' });
    await dates.getByLabel('Date field').selectOption({ label: 'Ordered at' });
    await dates.getByLabel('From').fill(range[0]!);
    await dates.getByLabel('To').fill(range[1]!);
    await dates.getByRole('button', { name: 'Add date range' }).click();
    await form.getByRole('list', { name: 'Dashboard filters' }).getByText(`Ordered at is in the date range ${range[0]} to ${range[1]}`).waitFor();
    await form.getByRole('button', { name: 'Save mosaic' }).click();
    await mosaics.getByRole('status').filter({ hasText: `Mosaic ${MOSAIC} saved.` }).waitFor();
    const tile = mosaics.getByRole('group', { name: `Mosaic ${MOSAIC}` }).getByRole('article', { name: `Tile ${SCENE}` });
    await tile.locator('figure[data-chart-type="line"] canvas').waitFor();
    await h.screenshot('analyst-4-mosaic');
    const inRange = await governed({ ...query, filters: [WEB_ONLY, { field: 'created_at', operator: 'inDateRange', value: range }] });
    expect(inRange.length).toBe(3);
    const tileRows = await readGrid(page, `${SCENE} rows`);
    expect(tileRows.map((r) => r['Ordered at (month)'])).toEqual(inRange.map((r) => monthName(r['created_at.month'])));
    for (const [i, cells] of tileRows.entries()) {
      expect(cells['Completed revenue']).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
      expect(figure(cells['Completed revenue'])).toBeCloseTo(inRange[i]!.completed_revenue as number, 2);
    }
    // The tile's line names the months as the grid does, in time order, with its values written alike.
    const tileLine = await hoverAlongX(page, inRange.length, tile.locator('figure.chart'));
    expect(tileLine).toEqual([...tileRows].reverse().map((r) => ({ x: r['Ordered at (month)'], value: r['Completed revenue'] })));
    const mosaicId = (await read<{ mosaics: Row[] }>('/mosaics')).mosaics.find((m) => m.name === MOSAIC)!.id as string;
    expect((await read<{ mosaic: Row }>(`/mosaics/${mosaicId}`)).mosaic).toMatchObject({ vault: vault.id, filters: [{ field: 'created_at', operator: 'inDateRange', value: range }] });

    // e. A signal on the scene: its first row (the newest month), evaluated now without sending.
    const signals = page.getByRole('region', { name: 'Signals' });
    await signals.getByRole('button', { name: 'New signal' }).click();
    const signalForm = signals.getByRole('form', { name: 'New signal' });
    await signalForm.getByLabel('Signal name').fill(SIGNAL);
    await signalForm.getByLabel('Vault').selectOption({ label: VAULT });
    await signalForm.getByLabel('Watch').selectOption({ label: 'A scene' });
    await signalForm.getByLabel('Scene').selectOption({ label: SCENE });
    await signalForm.getByRole('note').getByText(`Watches Completed revenue in the first row of ${SCENE}, sorted by Ordered at (month) descending.`).waitFor();
    await signalForm.getByLabel('Condition').selectOption({ label: 'is less than' });
    await signalForm.getByLabel('Threshold').fill('100');
    await h.screenshot('analyst-5-signal-form');
    await signalForm.getByRole('button', { name: 'Create signal' }).click();
    await signals.getByRole('status').getByText(`Signal ${SIGNAL} is created.`).waitFor();
    const signal = (await read<{ signals: Row[] }>('/signals?limit=200')).signals.find((s) => s.name === SIGNAL)!;
    expect(signal).toMatchObject({ vault: vault.id, watch: { scene_id: scene.id }, condition: 'less_than', threshold: 100 });
    const signalRow = signals.getByRole('listitem', { name: `Signal ${SIGNAL}` });
    await signalRow.getByRole('button', { name: `Evaluate ${SIGNAL} now` }).click();
    const evaluation = signalRow.getByRole('status', { name: `Evaluation of ${SIGNAL}` });
    await evaluation.waitFor();
    // The newest month's revenue, its thousands separated.
    const valueNow = /Value now: ([\d,.]+)/.exec((await evaluation.textContent()) ?? '')?.[1];
    expect(valueNow).toMatch(/^\d{1,3}(,\d{3})*(\.\d{1,2})?$/);
    expect(figure(valueNow)).toBeCloseTo(all[0]!.completed_revenue as number, 2);
    await h.screenshot('analyst-5-signal');

    // f. A schedule needs an endpoint: with none yet, the form says where to add one.
    const schedules = page.getByRole('region', { name: 'Scheduled deliveries' });
    await schedules.getByRole('button', { name: 'New schedule' }).click();
    await schedules.getByRole('note').getByText('No webhook endpoint yet: add one under Webhooks (below), then create the schedule.').waitFor();
    expect(await schedules.getByRole('button', { name: 'Create schedule' }).isDisabled()).toBe(true);
    await h.screenshot('analyst-6-schedule-without-endpoint');
    await schedules.getByRole('button', { name: 'Cancel' }).click();

    // A webhook endpoint (its secret shown once), a weekly delivery of the mosaic to it, sent now.
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    const hookForm = webhooks.getByRole('form', { name: 'New webhook' });
    await hookForm.getByLabel('Endpoint URL').fill(receiver.url);
    await hookForm.getByLabel('Format').selectOption({ label: 'Signed JSON (Standard Webhooks)' });
    await hookForm.getByLabel('Description (optional)').fill('Sales receiver');
    await hookForm.getByRole('button', { name: 'Add webhook' }).click();
    const secretShown = webhooks.getByRole('region', { name: `Signing secret of ${receiver.url}` });
    const secret = (await secretShown.getByLabel('Signing secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await secretShown.getByRole('button', { name: 'Done, hide the secret' }).click();

    await schedules.getByRole('button', { name: 'New schedule' }).click();
    const scheduleForm = schedules.getByRole('form', { name: 'New schedule' });
    await scheduleForm.getByLabel('Name').fill(SCHEDULE);
    await scheduleForm.getByLabel('Send').selectOption({ label: `Mosaic: ${MOSAIC}` });
    await scheduleForm.getByLabel('To endpoint').selectOption({ label: `Sales receiver (signed JSON · ${new URL(receiver.url).host})` });
    await scheduleForm.getByLabel('Cron').fill('0 8 * * 1');
    await scheduleForm.getByRole('button', { name: 'Create schedule' }).click();
    await schedules.getByText(`Schedule ${SCHEDULE} is created.`).waitFor();
    const scheduled = schedules.getByRole('listitem', { name: `Schedule ${SCHEDULE}` });
    await scheduled.getByRole('button', { name: `Send ${SCHEDULE} now` }).click();
    await schedules.getByText(`Schedule ${SCHEDULE} is queued for delivery.`).waitFor();
    await h.t.services.deliveryWorker().runOnce();
    const delivered = receiver.received.filter((r) => r.body.includes('"delivery.scheduled"'));
    expect(delivered).toHaveLength(1);
    const body = verifyAt(h.t.clock, secret, delivered[0]!) as { schedule_name: string; target: Row; results: Array<{ title: string; rows: Row[] }> };
    expect(body).toMatchObject({ schedule_name: SCHEDULE, target: { kind: 'mosaic', id: mosaicId, name: MOSAIC } });
    // The delivered tile keeps the mosaic's date range: the same rows as the governed query for it.
    expect(body.results.map((t) => t.title)).toEqual([SCENE]);
    expect(byMonth(body.results[0]!.rows)).toEqual(byMonth(inRange));
    await page.reload();
    await scheduled.getByRole('table', { name: `Recent deliveries of ${SCHEDULE}` }).getByRole('cell', { name: 'delivered' }).waitFor();
    await h.screenshot('analyst-6-delivery');
    expect(cspViolations(h)).toEqual([]);
  });

  it('leads a first-time user from the home page to the tutorial, shown as text with its steps', async () => {
    await page.goto(`${h.base}/`);
    await page.getByRole('complementary', { name: 'New here?' }).getByRole('link', { name: 'tutorial' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tutorial: your first dashboard' }).waitFor();
    expect(page.url()).toBe(`${h.base}/tutorial`);
    const steps = ['1. Sign in', '2. A vault for your work', '3. Revenue by month for one channel, as a line', '4. Save it as a scene', '5. A dashboard with a date range', '6. A signal on the scene', '7. Send the dashboard every Monday'];
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([...steps, 'Next']);
    const article = page.locator('article.tutorial');
    // Each step is a numbered list; the labels are in bold and the values as code, with no Markdown left over.
    expect(await article.locator('ol').count()).toBe(steps.length);
    await article.getByRole('listitem').filter({ hasText: 'Group Ordered at by stays at month.' }).locator('strong', { hasText: 'Group Ordered at by' }).waitFor();
    const text = (await article.textContent())!;
    expect(text).not.toMatch(/\]\(|\*\*|`/);
    expect(text).toContain('Cron 0 8 * * 1');
    await h.screenshot('analyst-7-tutorial');
    expect(cspViolations(h)).toEqual([]);
  });
});
