// Scheduled deliveries in Chromium: a schedule is created on the Content page (after the server's
// refusal of a bad cron is shown by the form), sent now to a real chat receiver on loopback, its recent
// deliveries show the delivered run, it is paused and resumed, shows why it stopped when its runs kept
// failing (resumed, the reason goes), and is deleted after a confirmation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failedRunsReason, stoppedFields } from '../../src/jobs/run-stops.js';
import { startReceiver } from '../webhooks/receiver.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('scheduled deliveries in Chromium', () => {
  const harness = signedInConsole({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  let h: ConsoleHarness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(() => {
    h = harness();
  });
  beforeAll(async () => {
    h = harness();
    receiver = await startReceiver();
    await h.t.services.webhooks.create(h.ws.id, { url: receiver.url, events: ['model.deployed'], format: 'chat', description: 'Team chat' });
    // The demo's deploy recorded model.deployed before the endpoint existed: a pass settles it first.
    await h.t.services.deliveryWorker().runOnce();
    const cookie = await sessionCookie(h);
    const response = await h.t.app.inject({
      method: 'POST',
      url: '/api/scenes',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'] },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
  afterAll(async () => {
    await receiver.close();
  });

  const item = () => h.page.getByRole('listitem', { name: 'Schedule Weekday orders' });

  it('creates a schedule after showing the refusal of a bad cron, and sends it now to the chat receiver', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name').fill('Weekday orders');
    await form.getByLabel('Send').selectOption({ label: 'Scene: Orders by channel' });
    await form.getByLabel('To endpoint').selectOption({ label: `Team chat (chat · ${new URL(receiver.url).host})` });
    await form.getByLabel('Cron').fill('every weekday');
    await form.getByLabel('Time zone (optional)').fill('Europe/Berlin');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.getByText(/cron "every weekday" is not a valid cron expression/).waitFor();
    await form.getByLabel('Cron').fill('0 9 * * 1-5');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByText('Schedule Weekday orders is created.').waitFor();
    await item().getByText('scene "Orders by channel" · 0 9 * * 1-5 (Europe/Berlin)').waitFor();

    await item().getByRole('button', { name: 'Send Weekday orders now' }).click();
    await page.getByText('Schedule Weekday orders is queued for delivery.').waitFor();
    await h.t.services.deliveryWorker().runOnce();
    expect(receiver.received).toHaveLength(1);
    const { text } = JSON.parse(receiver.received[0]!.body) as { text: string };
    expect(text).toContain('Weekday orders: scene "Orders by channel"');
    expect(text).toMatch(/channel\s*\|\s*order_count/);

    await page.reload();
    const runs = item().getByRole('table', { name: 'Recent deliveries of Weekday orders' });
    const row = runs.getByRole('row').nth(1);
    await row.getByRole('cell', { name: 'delivered' }).waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([expect.any(String), 'sent now', 'delivered', '1', '']);
    await h.screenshot('delivery-schedules');
  });

  it('pauses and resumes a schedule, shows why it stopped by itself, and deletes it after a confirmation', async () => {
    const { page } = h;
    await item().getByRole('button', { name: 'Pause Weekday orders' }).click();
    await page.getByText('Schedule Weekday orders is paused.').waitFor();
    await item().getByText(/· paused/).waitFor();
    await item().getByText('Next run —').waitFor();
    await item().getByRole('button', { name: 'Resume Weekday orders' }).click();
    await page.getByText('Schedule Weekday orders is resumed.').waitFor();
    // Stopped by the service after its runs kept failing: the list says why, and resuming clears it.
    await h.t.store.db
      .updateTable('delivery_schedules')
      .set({ ...stoppedFields(failedRunsReason(5, 'Not sent: the scene was deleted')), failed_runs: 5 })
      .where('workspace_id', '=', h.ws.id)
      .where('name', '=', 'Weekday orders')
      .execute();
    await page.reload();
    await item().getByText('Stopped after 5 failed runs in a row (the last: Not sent: the scene was deleted); edit or resume the schedule to run it again').waitFor();
    await item().getByRole('button', { name: 'Resume Weekday orders' }).click();
    await page.getByText('Schedule Weekday orders is resumed.').waitFor();
    expect(await item().getByText(/Stopped after/).count()).toBe(0);
    await item().getByRole('button', { name: 'Delete Weekday orders' }).click();
    await page.getByRole('group', { name: 'Confirm deleting Weekday orders' }).getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Schedule Weekday orders is deleted.').waitFor();
    expect(await item().count()).toBe(0);
    expect(cspViolations(h)).toEqual([]);
  });
});
