// The SQL editor's run history in Chromium. It shows your own editor runs unless you choose another
// source, so a signal evaluated every minute does not push your SQL out of the list; and a governed run
// (an Explore query, with awkward values and your data key) shown there reopens as SQL that runs as
// shown, answering the rows the governed run answered.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('SQL editor run history in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  beforeEach(() => {
    h = harness();
  });

  const call = async (url: string, payload: object) => {
    const response = await h.t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };

  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
  });

  it('lists your own SQL by default, however many runs are made on your behalf', async () => {
    const { page } = h;
    await page.goto(`${h.base}/sql`);
    await page.getByLabel('Schema browser').getByText('shop.orders', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.type('SELECT channel, count(*) AS n FROM shop.orders GROUP BY channel');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('table', { name: 'Results' }).waitFor();

    // A signal evaluated 25 times after it: more runs than the list's first page holds.
    const signal = (await call('/api/signals', { name: 'Busy', watch: { node: 'orders', measure: 'order_count' }, condition: 'less_than', threshold: 1, schedule: { interval_seconds: 60 } })).signal;
    for (let i = 0; i < 25; i++) await call(`/api/signals/${signal.id}/evaluate`, {});

    await page.goto(`${h.base}/sql`);
    const history = page.getByRole('region', { name: 'Run history' });
    await history.getByRole('button', { name: /Reopen: SELECT channel, count/ }).waitFor();
    expect(await history.getByText(`signal:${signal.id}`).count()).toBe(0);
    await h.screenshot('sql-history-mine');

    await history.getByLabel('Show').selectOption('signal');
    await history.getByText(`signal:${signal.id}`).first().waitFor();
    expect(await history.getByRole('button', { name: /Reopen: SELECT channel, count/ }).count()).toBe(0);
    await history.getByLabel('Show').selectOption('');
    await history.getByText(`signal:${signal.id}`).first().waitFor();
    expect(cspViolations(h)).toEqual([]);
  });

  it('reopens a governed run as SQL that runs as shown and answers the same rows', async () => {
    const { page } = h;
    const answer = await call('/api/query', {
      node: 'orders',
      dimensions: ['channel', 'status'],
      measures: ['order_count'],
      filters: [{ field: 'channel', operator: 'notEquals', value: "it's \\ $1" }, { field: 'created_at', operator: 'inThePast', value: '10 years' }],
      sorts: [{ field: 'channel', direction: 'asc' }, { field: 'status', direction: 'asc' }],
    });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.sql).toMatch(/\$1/);

    await page.goto(`${h.base}/sql`);
    const history = page.getByRole('region', { name: 'Run history' });
    await history.getByLabel('Show').selectOption('api');
    const entry = history.getByRole('listitem').first();
    await entry.getByRole('button', { name: /^Reopen: SELECT/ }).waitFor();
    await entry.getByText('As it ran: placeholders and values').click();
    expect(await entry.textContent()).toContain('"it\'s \\\\ $1"');
    await entry.getByRole('button', { name: /^Reopen: SELECT/ }).click();
    const shown = await page.evaluate(() => document.querySelector('.cm-content')!.textContent);
    expect(shown).toContain("'it''s \\ $1'"); // the value, as a literal
    expect(shown!.replace(/'(?:[^']|'')*'/g, "''")).not.toMatch(/\$\d/); // and no placeholder left
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const grid = page.getByRole('table', { name: 'Results' });
    await grid.waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(answer.data.length + 1));
    const first = answer.data[0] as Record<string, unknown>;
    expect(await grid.getByRole('row').nth(1).textContent()).toBe(`${String(first.channel)}${String(first.status)}${String(first.order_count)}`);
    await h.screenshot('sql-history-reopened');
    expect(cspViolations(h)).toEqual([]);
  });
});
