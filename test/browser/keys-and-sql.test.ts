// Keys and the SQL editor in Chromium: a key created on the page works over HTTPS until it is revoked on
// the page; SQL typed into CodeMirror reaches the server exactly as typed (ordinary spaces), runs, and a
// write is refused with the read-only explanation; 10,000 rows stay a few dozen DOM rows.
import { beforeEach, describe, expect, it } from 'vitest';
import { request } from '../helpers/http-client.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

/** The SQL editor with the demo schema loaded and the cursor in the statement. */
async function openEditor(h: ConsoleHarness): Promise<void> {
  await h.page.goto(`${h.base}/sql`);
  await h.page.getByLabel('Schema browser').getByText('shop.orders', { exact: true }).waitFor();
  await h.page.getByRole('textbox', { name: 'SQL' }).click();
}

describe.skipIf(!hasChromium)('keys and SQL editor in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('creates a workspace key shown once, which answers over HTTPS until it is revoked on the page', async () => {
    const { page } = h;
    await page.goto(`${h.base}/keys`);
    await page.getByLabel('Key name').fill('browser key');
    await page.getByLabel('Surface').selectOption('workspace');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = (await page.getByLabel('Key value').textContent())!.trim();
    expect(value.length).toBeGreaterThan(20);
    await page.getByText(`Bearer ${value}`).first().waitFor();
    await h.screenshot('keys-created');
    // Nothing of the key is kept in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(value.slice(-10));

    const auth = { authorization: `Bearer ${value}` };
    const ok = await request(`${h.base}/api/v1/workspace`, { headers: auth, ca: h.cert });
    expect(ok.status).toBe(200);

    await page.getByRole('button', { name: 'Done, hide the key' }).click();
    expect(await page.getByLabel('Key value').count()).toBe(0);
    const row = page.getByRole('row', { name: /browser key/ });
    await row.getByRole('button', { name: 'Revoke browser key' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'is revoked' }).waitFor();
    await row.getByText('revoked').waitFor(); // the list reloads after the notice
    await h.screenshot('keys-revoked');

    const refused = await request(`${h.base}/api/v1/workspace`, { headers: auth, ca: h.cert });
    expect(refused.status).toBe(401);
  });

  it('runs SQL typed with spaces exactly as typed, and shows the rows', async () => {
    const { page } = h;
    await openEditor(h);
    const typed = 'SELECT   status,  count(*) AS n FROM shop.orders GROUP BY status ORDER BY status';
    await page.keyboard.type(typed);
    await page.keyboard.press('Escape'); // closes a completion list, if one is open
    await page.keyboard.press('Control+Enter');
    await page.getByRole('table', { name: 'Results' }).waitFor();
    await page.getByRole('cell', { name: 'completed' }).waitFor();
    await page.getByRole('columnheader', { name: 'n' }).waitFor();
    await h.screenshot('sql-rows');

    // What the server ran, from its own history: the typed text, with ordinary spaces.
    const cookie = await sessionCookie(h);
    const history = await h.t.app.inject({ method: 'GET', url: '/api/studio/history?limit=1', headers: { cookie } });
    const ran = history.json().runs[0].sql as string;
    expect(ran).toBe(typed);
    expect(ran).not.toMatch(/\u00a0/);
  });

  it('completes table and column names from the schema browser', async () => {
    const { page } = h;
    await openEditor(h);
    await page.keyboard.type('SELECT * FROM shop.ord');
    await page.getByRole('option', { name: /orders/ }).first().waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.type('ers WHERE orders.ship_reg');
    await page.getByRole('option', { name: /ship_region/ }).first().waitFor();
    await h.screenshot('sql-completion');
    await page.keyboard.press('Escape');
  });

  it('refuses a write and explains why', async () => {
    const { page } = h;
    await openEditor(h);
    await page.keyboard.type('DELETE FROM shop.orders');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/this editor only reads/i);
    expect(await alert.textContent()).toMatch(/Only SELECT, WITH and EXPLAIN statements are allowed/);
    expect(await alert.textContent()).toMatch(/Why: /);
    await h.screenshot('sql-refused');
  });

  it("shows an engine error at its line and column, selecting the word it points at", async () => {
    const { page } = h;
    await openEditor(h);
    await page.keyboard.type('SELECT 1,');
    await page.keyboard.press('Enter');
    await page.keyboard.type('nosuchcol FROM shop.orders');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/nosuchcol/);
    await page.getByText(/At line 2, column \d+/).waitFor();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('nosuchcol');
    await h.screenshot('sql-error-position');
  });

  it('keeps 10,000 rows to a few dozen DOM rows and scrolls to the last one', async () => {
    const { page } = h;
    await openEditor(h);
    await page.getByLabel('Row limit').selectOption('10000');
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.type('SELECT i FROM range(20000) t(i)');
    const started = performance.now();
    await page.keyboard.press('Control+Enter');
    const grid = page.getByRole('table', { name: 'Results' });
    await grid.waitFor();
    const shownMs = performance.now() - started;
    expect(await grid.getAttribute('aria-rowcount')).toBe('10001');
    await page.getByText(/truncated/).waitFor();
    expect(await grid.getByRole('row').count()).toBeLessThan(80);
    await grid.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await grid.getByRole('cell', { name: '9999', exact: true }).waitFor();
    console.log(`10,000 rows: run and shown in ${shownMs} ms`);
    await h.screenshot('sql-10k');
  });

  it('reopens a past run from the history', async () => {
    const { page } = h;
    await page.goto(`${h.base}/sql`);
    await page.getByRole('button', { name: /Reopen: SELECT status, count/ }).click();
    expect(await page.getByRole('textbox', { name: 'SQL' }).textContent()).toContain('count(*) AS n FROM shop.orders');
    expect(cspViolations(h)).toEqual([]);
  });
});
