// The SQL editor in Chromium: "Download CSV" saves the whole result as RFC 4180 CSV (the file read back
// here), a header click sorts the grid ascending, descending, then not (numbers as numbers, dates as
// dates), and a bare column name of a table the statement names completes.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

async function openEditor(h: ConsoleHarness, sql: string): Promise<void> {
  await h.page.goto(`${h.base}/sql`);
  await h.page.getByLabel('Schema browser').getByText('shop.orders', { exact: true }).waitFor();
  await h.page.getByRole('textbox', { name: 'SQL' }).click();
  await h.page.keyboard.type(sql);
  await h.page.keyboard.press('Escape'); // closes a completion list, if one is open
}

/** The texts of one column of the results grid, in the order shown. */
async function columnTexts(h: ConsoleHarness, index: number): Promise<string[]> {
  return h.page
    .getByRole('table', { name: 'Results' })
    .locator('[role=rowgroup]:nth-child(2) [role=row]')
    .evaluateAll((rows, i) => rows.map((row) => row.querySelectorAll('[role=cell]')[i]!.textContent ?? ''), index);
}

describe.skipIf(!hasChromium)('SQL editor: CSV, sort and completion in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('downloads the whole result as CSV, quoted as RFC 4180 says', async () => {
    const { page } = h;
    await openEditor(h, `SELECT 'a,b' AS "label, with comma", 'say "hi"' AS quoted, 'café' AS word, 7 AS n, NULL AS empty UNION ALL SELECT 'plain', 'x', 'y', 8, NULL ORDER BY n`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('warehouse-result.csv');
    const content = readFileSync((await download.path())!, 'utf8');
    expect(content).toBe('"label, with comma",quoted,word,n,empty\r\n"a,b","say ""hi""",café,7,\r\nplain,x,y,8,\r\n');
    await page.getByRole('status').filter({ hasText: 'Saved warehouse-result.csv: 2 rows' }).waitFor();
    // The export is in the run history as the editor's SQL, and reopens.
    await page.getByRole('region', { name: 'Run history' }).getByRole('button', { name: /Reopen: SELECT 'a,b'/ }).waitFor();

    // Every row, far past the grid's cap of 10,000 (the export's own is a million).
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('SELECT a.id FROM shop.orders a CROSS JOIN shop.orders b');
    await page.keyboard.press('Escape');
    const [big] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const lines = readFileSync((await big.path())!, 'utf8').split('\r\n');
    const orders = Math.sqrt(lines.length - 2);
    expect(Number.isInteger(orders) && orders * orders > 10_000).toBe(true);
    await page.getByRole('status').filter({ hasText: `Saved warehouse-result.csv: ${(orders * orders).toLocaleString('en-US')} rows` }).waitFor();
    await h.screenshot('sql-csv-download');

    // A refused statement is shown as the run shows it, and no file comes.
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('DELETE FROM shop.orders');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await page.getByRole('alert').filter({ hasText: 'this editor only reads' }).waitFor();
    expect(cspViolations(h)).toEqual([]);
  });

  it('sorts a column on a header click: ascending, descending, off; numbers and dates by value', async () => {
    const { page } = h;
    await openEditor(h, "SELECT * FROM (VALUES (9, DATE '2024-10-01', 'b'), (100, DATE '2023-01-15', 'a'), (10, DATE '2024-02-29', 'c'), (NULL, NULL, NULL)) AS t(n, d, s)");
    await page.keyboard.press('Control+Enter');
    await page.getByRole('table', { name: 'Results' }).waitFor();
    expect(await columnTexts(h, 0)).toEqual(['9', '100', '10', '∅']);

    const header = page.getByRole('columnheader', { name: 'n' });
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    expect(await columnTexts(h, 0)).toEqual(['9', '10', '100', '∅']); // as text it would be 10, 100, 9
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(await columnTexts(h, 0)).toEqual(['100', '10', '9', '∅']);
    await h.screenshot('sql-sorted');
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('none');
    expect(await columnTexts(h, 0)).toEqual(['9', '100', '10', '∅']);

    await page.getByRole('columnheader', { name: 'd' }).getByRole('button').click();
    expect(await columnTexts(h, 1)).toEqual(['2023-01-15', '2024-02-29', '2024-10-01', '∅']);
    expect(await columnTexts(h, 0)).toEqual(['100', '10', '9', '∅']);
  });

  it('completes a bare column name of a table the statement names', async () => {
    const { page } = h;
    await openEditor(h, 'SELECT  FROM shop.orders');
    await page.keyboard.press('Home');
    for (let i = 0; i < 'SELECT '.length; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.type('ship_re');
    const option = page.getByRole('option', { name: /ship_region/ }).first();
    await option.waitFor();
    expect(await option.textContent()).toContain('orders');
    await h.screenshot('sql-bare-column-completion');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.querySelector('.cm-content')!.textContent)).toBe('SELECT ship_region FROM shop.orders');
  });
});
