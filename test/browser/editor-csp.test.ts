// Editing in CodeMirror under the strict Content-Security-Policy: selecting (all, a word, from inside a
// highlighted token, across lines) and typing over the selection never makes the browser write a style
// attribute, which the policy would refuse and report. The harness watches the page's
// securitypolicyviolation events and console (csp-watch.ts). Typing over a selection still goes through
// the editor's input handlers (brackets wrap the selection, completion opens) and the text is exactly
// what was typed.
import { beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('editing under the CSP in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  const editorText = () => h.page.evaluate(() => document.querySelector('.cm-content')!.textContent);

  async function openSqlEditor(text: string): Promise<void> {
    await h.page.goto(`${h.base}/sql`);
    await h.page.getByLabel('Schema browser').getByText('shop.orders', { exact: true }).waitFor();
    await h.page.getByRole('textbox', { name: 'SQL' }).click();
    await h.page.keyboard.type(text);
    await h.page.keyboard.press('Escape'); // closes a completion list, if one is open
  }

  it('replaces everything after Ctrl+A without a violation, and runs what was typed', async () => {
    const { page } = h;
    await openSqlEditor('SELECT 1 + 1 AS two');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('SELECT 42 AS answer');
    await page.keyboard.press('Escape');
    expect(await editorText()).toBe('SELECT 42 AS answer');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('table', { name: 'Results' }).getByRole('cell', { name: '42', exact: true }).waitFor();
    expect(cspViolations(h)).toEqual([]);
  });

  it('types over a word, a selection from inside a token, and one across lines, without a violation', async () => {
    const { page } = h;
    await openSqlEditor('SELECT status');
    await page.keyboard.press('Enter');
    await page.keyboard.type('FROM shop.orders');
    await page.keyboard.press('Escape');
    // A double-clicked keyword.
    await page.getByText('FROM', { exact: true }).dblclick();
    await page.keyboard.type('from');
    // From inside SELECT to the end of the text, across the line break.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+Shift+End');
    await page.keyboard.type('x');
    expect(await editorText()).toBe('SEx');
    expect(cspViolations(h)).toEqual([]);
  });

  it("keeps the editor's own input handling over a selection: brackets wrap it, completion opens", async () => {
    const { page } = h;
    await openSqlEditor('SELECT 1 + 1');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.type('(');
    expect(await editorText()).toBe('SELECT (1 + 1)');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('SELECT * FROM shop.ord');
    await page.getByRole('option', { name: /orders/ }).first().waitFor();
    await page.keyboard.press('Escape');
    expect(cspViolations(h)).toEqual([]);
  });

  it('replaces a CML file after Ctrl+A without a violation', async () => {
    const { page } = h;
    await page.goto(`${h.base}/model`);
    await page.getByLabel('File').selectOption('products.cml');
    await page.getByRole('textbox', { name: 'CML' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('node x {');
    expect(await page.evaluate(() => document.querySelector('.cm-content')!.textContent)).toBe('node x {}');
    expect(cspViolations(h)).toEqual([]);
  });
});
