// Signals in Chromium: one is created on the page (a node's measure, a cron schedule), after the form
// said that a scene without a sort has no one first row to watch and the server's refusal of a cron
// that does not parse is shown next to the form; until it is first evaluated it says so and when it is
// due; "Evaluate now" shows the value and that it would fire while recording nothing; the history lists recorded evaluations a page
// at a time; an interval under 60 s is refused on edit, a valid edit is saved; delete asks first.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('signals in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  beforeEach(() => {
    h = harness();
  });
  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
    // A scene with a dimension and no sort: it has no one first row to watch.
    const scene = await h.t.app.inject({ method: 'POST', url: '/api/scenes', headers: { cookie, 'content-type': 'application/json' }, payload: { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'] } });
    expect(scene.statusCode, scene.body).toBe(201);
  });

  const inject = async (method: 'GET' | 'POST', url: string) => {
    const response = await h.t.app.inject({ method, url, headers: { cookie, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, ...(method === 'POST' ? { payload: {} } : {}) });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  const signalId = async (name: string) => {
    const { body } = await inject('GET', '/api/signals?limit=200');
    return (body.signals as Array<{ id: string; name: string }>).find((s) => s.name === name)?.id;
  };

  it('creates a signal after showing the server refusing a bad cron expression', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'New signal' }).click();
    const form = page.getByRole('form', { name: 'New signal' });
    await form.getByLabel('Signal name').fill('Few orders');
    // Watching a scene, the form says which value; of a scene without a sort, that it has no one first row.
    await form.getByLabel('Watch').selectOption({ label: 'A scene' });
    await form.getByLabel('Scene').selectOption({ label: 'Orders by channel' });
    await form.getByRole('note')
      .getByText('Orders by channel has no sort, so its first row could be any row: give it a sort with Edit under Scenes (by Orders, Descending, to watch the largest).').waitFor();
    await form.getByLabel('Watch').selectOption({ label: "A node's measure" });
    await form.getByLabel('Node').selectOption('orders');
    await form.getByLabel('Measure').selectOption('order_count');
    await form.getByLabel('Condition').selectOption('less_than');
    await form.getByLabel('Threshold').fill('1000000');
    await form.getByLabel('Schedule').selectOption('cron');
    await form.getByLabel('Cron', { exact: true }).fill('every monday');
    await form.getByLabel('Time zone').fill('Europe/Paris');
    await form.getByRole('button', { name: 'Create signal' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/cron|schedule/i);
    expect(await signalId('Few orders')).toBeUndefined();

    await form.getByLabel('Cron', { exact: true }).fill('0 9 * * 1');
    await form.getByRole('button', { name: 'Create signal' }).click();
    await page.getByRole('status').getByText('Signal Few orders is created.').waitFor();
    // The list reloads after the confirmation: wait for the row rather than read it at once.
    const row = page.getByRole('listitem', { name: 'Signal Few orders' });
    const summary = row.getByText('is less than 1,000,000 · 0 9 * * 1 (Europe/Paris)');
    await summary.waitFor({ timeout: 10_000 });
    await summary.waitFor();
    // Never evaluated: it says so, and when it is due (as the API says, in the page's own words for times).
    const created = (await inject('GET', `/api/signals/${(await signalId('Few orders'))!}`)).body.signal as { state: string; next_run_at: string };
    expect(created.state).toBe('pending');
    const due = await page.evaluate((iso) => new Date(iso).toLocaleString(), created.next_run_at);
    await row.getByText(`State: Not evaluated yet · next evaluation ${due}`).waitFor();
    expect(await row.getByText('State: ok').count()).toBe(0);
    await h.screenshot('signals-created');
  });

  it('evaluates now without recording or sending, and pages through the recorded history', async () => {
    const { page } = h;
    const id = (await signalId('Few orders'))!;
    await page.goto(`${h.base}/content`);
    const row = page.getByRole('listitem', { name: 'Signal Few orders' });
    await row.getByRole('button', { name: 'Evaluate Few orders now' }).click();
    const result = row.getByRole('status', { name: 'Evaluation of Few orders' });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Value now: 400.*Would fire.*Nothing was sent/s);
    expect((await inject('GET', `/api/signals/${id}/evaluations`)).body.evaluations).toEqual([]);
    // A dry run records nothing: still not evaluated.
    await row.getByText('State: Not evaluated yet').waitFor();

    // 23 recorded evaluations: the history shows 20, then the rest after "Load more".
    for (let i = 0; i < 23; i++) expect((await inject('POST', `/api/signals/${id}/evaluate?send=true`)).status).toBe(200);
    await row.getByRole('button', { name: 'History of Few orders' }).click();
    const history = row.getByRole('table', { name: 'Evaluations of Few orders' });
    await history.getByRole('cell', { name: '400' }).first().waitFor();
    expect(await history.getByRole('row').count()).toBe(21); // header + 20
    await row.getByRole('button', { name: 'Load more evaluations' }).click();
    await expect.poll(() => history.getByRole('row').count()).toBe(24);
    expect(await row.getByRole('button', { name: 'Load more evaluations' }).count()).toBe(0);
    await h.screenshot('signals-history');
    // Evaluated now: the state the evaluations led to (400 orders is less than 1,000,000).
    await page.reload();
    await row.getByText('State: triggered').waitFor();
    expect(await row.getByText('Not evaluated yet').count()).toBe(0);
  });

  it('refuses an interval under 60 s on edit, saves a valid edit, and deletes after a confirmation', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    const row = page.getByRole('listitem', { name: 'Signal Few orders' });
    await row.getByRole('button', { name: 'Edit Few orders' }).click();
    const form = row.getByRole('form', { name: 'Edit signal Few orders' });
    await form.getByLabel('Schedule').selectOption('interval');
    await form.getByLabel('Interval in seconds').fill('30');
    await form.getByRole('button', { name: 'Save signal' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toMatch(/interval_seconds|60/);

    await form.getByLabel('Interval in seconds').fill('300');
    await form.getByLabel('Threshold').fill('10');
    await form.getByRole('button', { name: 'Save signal' }).click();
    await page.getByRole('status').getByText('Signal Few orders is saved.').waitFor();
    const saved = page.getByRole('listitem', { name: 'Signal Few orders' });
    await saved.getByText('is less than 10 · every 300 s').waitFor();

    const id = (await signalId('Few orders'))!;
    await saved.getByRole('button', { name: 'Delete Few orders' }).click();
    const confirm = saved.getByRole('group', { name: 'Confirm deleting Few orders' });
    expect((await inject('GET', `/api/signals/${id}`)).status).toBe(200); // asking deletes nothing
    await confirm.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('status').getByText('Signal Few orders is deleted.').waitFor();
    expect((await inject('GET', `/api/signals/${id}`)).status).toBe(404);
    expect(await page.getByRole('listitem', { name: 'Signal Few orders' }).count()).toBe(0);
    expect(cspViolations(h)).toEqual([]);
  });
});
