// Connections, Ask and the CML editor in Chromium. Ask and CML validation use the session routes
// POST /api/ask and POST /api/model/validate (and the model routes for the editor).
import { beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('connections, ask and model in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeAll(() => {
    h = harness();
  });

  it('creates a DuckDB connection, tests it, edits and deletes it, and never shows a password', async () => {
    const { page } = h;
    await page.goto(`${h.base}/connections`);
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Connection name').fill('copy_of_demo');
    await form.getByLabel('Engine').selectOption('duckdb');
    await form.getByLabel(/File path/).fill('warehouse.duckdb');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection copy_of_demo created.' }).waitFor();
    const row = page.getByRole('row', { name: /copy_of_demo/ });
    await row.getByRole('button', { name: 'Test copy_of_demo' }).click();
    await page.getByRole('status').filter({ hasText: 'copy_of_demo: connected' }).waitFor();
    await h.screenshot('connections');

    // A postgres form offers a password field that starts empty, on create and on edit.
    await form.getByLabel('Engine').selectOption('postgres');
    expect(await form.getByLabel('Password').inputValue()).toBe('');
    await row.getByRole('button', { name: 'Edit copy_of_demo' }).click();
    const edit = page.getByRole('form', { name: 'Edit copy_of_demo' });
    expect(await edit.getByLabel(/File path/).inputValue()).toBe('warehouse.duckdb');
    await edit.getByLabel('Connection name').fill('demo_copy');
    await edit.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection demo_copy saved.' }).waitFor();

    const renamed = page.getByRole('row', { name: /demo_copy/ });
    await renamed.getByRole('button', { name: 'Delete demo_copy' }).click();
    await renamed.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection demo_copy deleted.' }).waitFor();
    await page.getByRole('row', { name: /demo_copy/ }).waitFor({ state: 'detached' });
    const left = await h.t.services.connections.list(h.ws.id);
    expect(left.map((c) => c.name)).toEqual(['warehouse']);
  });

  it('keeps a password write-only: saved, never shown, the edit field empty', async () => {
    const { page } = h;
    await page.goto(`${h.base}/connections`);
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Connection name').fill('pg');
    await form.getByLabel('Engine').selectOption('postgres');
    await form.getByLabel('Host').fill('127.0.0.1');
    await form.getByLabel('Database').fill('postgres');
    await form.getByLabel('User').fill('reader');
    await form.getByLabel('Password').fill('pw-that-must-not-show');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connection pg created.' }).waitFor();
    const row = page.getByRole('row', { name: /^pg / });
    await row.getByRole('cell', { name: 'saved' }).waitFor(); // the list reloads after the notice
    await row.getByRole('button', { name: 'Edit pg' }).click();
    const edit = page.getByRole('form', { name: 'Edit pg' });
    expect(await edit.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await edit.getByText(/A password is saved/).waitFor();
    expect(await page.content()).not.toContain('pw-that-must-not-show');
    await h.screenshot('connections-edit');
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('asks a question and shows the answer with its provenance', async () => {
    const { page } = h;
    await page.goto(`${h.base}/ask`);
    await page.getByLabel('Question').fill('How many orders were there?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const provenance = page.getByRole('region', { name: 'Provenance' });
    await provenance.waitFor();
    const text = (await provenance.textContent())!;
    expect(text).toMatch(/Reveal/);
    expect(text).toMatch(/Freshness/);
    expect(text).toMatch(/Confidence(high|medium)/);
    expect(text).toMatch(/Assumptions/);
    await h.screenshot('ask');
  });

  it("shows the SQL behind a governed answer on demand, which surface A's answer does not carry", async () => {
    const { page } = h;
    await page.goto(`${h.base}/ask`);
    await page.getByLabel('Question').fill('How many orders were there?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('region', { name: 'Provenance' }).getByText('semantic layer').waitFor();
    await page.getByText('Show SQL').click();
    const sql = (await page.getByLabel('SQL behind the answer').textContent())!;
    expect(sql).toMatch(/^\s*SELECT/i);
    expect(sql).toMatch(/orders/);
    await page.getByText('compiled from the').waitFor();
    await h.screenshot('ask-sql');

    // Surface A's body is unchanged: the same question through a question key has no `sql`.
    const cookie = await sessionCookie(h);
    const created = await h.t.app.inject({ method: 'POST', url: '/api/keys', headers: { cookie, 'content-type': 'application/json' }, payload: { name: 'ask', surface: 'question' } });
    const key = (created.json() as { value: string }).value;
    const onA = await h.t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: { question: 'How many orders were there?' } });
    expect(onA.statusCode, onA.body).toBe(200);
    expect(onA.json()).toMatchObject({ provenance: { source: 'semantic layer' } });
    expect(onA.json()).not.toHaveProperty('sql');
  });

  it('underlines a CML error at its line while typing, and lists it', async () => {
    const { page } = h;
    await page.goto(`${h.base}/model`);
    await page.getByLabel('File').selectOption('orders.cml');
    const editor = page.getByRole('textbox', { name: 'CML' });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nnode broken {\n  table: shop.orders\n  dimension x { type: nonsense }\n}\n');
    const list = page.getByRole('list', { name: 'Diagnostics' });
    await list.waitFor();
    expect(await list.textContent()).toMatch(/orders\.cml:\d+:\d+ error/);
    // The underline sits on the line the diagnostic names, one of the lines just typed.
    const listed = Number(/orders\.cml:(\d+):/.exec((await list.textContent())!)![1]);
    // The line number shown beside the underlined line (the gutter element at the same height).
    const { number, text } = await page.evaluate(() => {
      const line = document.querySelector('.cm-lintRange-error')!.closest('.cm-line')!;
      const top = line.getBoundingClientRect().top;
      const gutter = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].find((g) => Math.abs(g.getBoundingClientRect().top - top) < 2);
      return { number: Number(gutter?.textContent), text: line.textContent };
    });
    expect(number).toBe(listed);
    expect(['node broken {', '  table: shop.orders', '  dimension x { type: nonsense }', '}']).toContain(text);
    await h.screenshot('model-cml-diagnostic');
    expect(cspViolations(h)).toEqual([]);
  });

  it('deploys an edited file, and refuses to deploy a broken one with its diagnostics', async () => {
    const { page } = h;
    await page.goto(`${h.base}/model`);
    await page.getByLabel('File').selectOption('products.cml');
    await page.getByRole('textbox', { name: 'CML' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# Reviewed in the console.\n');
    await page.getByLabel('Deploy message').fill('A comment');
    await page.getByRole('button', { name: 'Deploy project' }).click();
    await page.getByRole('status').filter({ hasText: /^Deployed:/ }).waitFor();
    const files = await h.t.services.store.db.selectFrom('cml_files').select(['path', 'content']).where('path', '=', 'products.cml').execute();
    expect(files.some((f) => f.content.includes('# Reviewed in the console.'))).toBe(true);

    await page.getByRole('textbox', { name: 'CML' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('node {');
    await page.getByRole('button', { name: 'Deploy project' }).click();
    const refusal = page.getByRole('region', { name: 'CML editor' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/cml_invalid/);
    expect(await page.getByRole('list', { name: 'Diagnostics' }).textContent()).toMatch(/products\.cml:\d+:\d+ error/);
  });

  it('drops a refused deploy\'s error once the text is fixed: the live list says the project is valid', async () => {
    const { page } = h;
    await page.goto(`${h.base}/model`);
    await page.getByLabel('File').selectOption('customers.cml');
    await page.getByRole('textbox', { name: 'CML' }).click();
    await page.keyboard.press('Control+End');
    const broken = '\nnode a {\nnode b {';
    await page.keyboard.type(broken);
    await page.getByRole('button', { name: 'Deploy project' }).click();
    const region = page.getByRole('region', { name: 'CML editor' });
    const refusal = region.getByRole('alert').filter({ hasText: /The model has \d+ errors?; nothing was deployed/ });
    await refusal.waitFor();
    await h.screenshot('model-deploy-refused');

    // Undo what was typed: the project is valid again, and the refusal, about the old text, is gone.
    await page.getByRole('textbox', { name: 'CML' }).click();
    for (let i = 0; i < 20; i++) await page.keyboard.press('Control+z');
    await region.getByRole('status').filter({ hasText: 'The project is valid.' }).waitFor();
    expect(await refusal.count()).toBe(0);
    expect(await region.getByRole('alert').count()).toBe(0);
    await h.screenshot('model-fixed');
  });
});
