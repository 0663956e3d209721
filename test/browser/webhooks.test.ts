// Webhooks in Chromium against a real receiver on loopback (allowed by SVC_WEBHOOK_ALLOW_HOSTS): an
// endpoint added on the page shows its signing secret once (copied, then gone from the page, never in
// storage) and that secret signs what the receiver gets; the delivery log shows a failed attempt (500,
// its duration, the answer's text, the next attempt) and a manual redelivery that succeeds; rotation
// shows a new secret and says the old one stays valid for 24 h; disable and enable; an endpoint the
// service disabled (410) says why; the log pages with "Load more"; delete asks first.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, verifyAt } from '../webhooks/receiver.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('webhooks in Chromium', () => {
  const harness = signedInConsole({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  let h: ConsoleHarness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret = '';
  beforeEach(() => {
    h = harness();
  });
  beforeAll(async () => {
    receiver = await startReceiver([500]);
    // The demo's deploy recorded model.deployed before any endpoint existed: a pass settles it first.
    h = harness();
    await deliverOnce();
  });
  afterAll(async () => {
    await receiver.close();
  });

  /** One pass of the delivery worker, with retries an hour apart (the test clock does not move). */
  const deliverOnce = () => h.t.services.deliveryWorker({ retryDelaysMs: [3_600_000] }).runOnce();
  const item = () => h.page.getByRole('listitem', { name: `Webhook ${receiver.url}` });
  const log = () => item().getByRole('table', { name: `Deliveries to ${receiver.url}` });

  it('adds an endpoint and shows its signing secret once, copied and then gone', async () => {
    const { page } = h;
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${h.base}/content`);
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel('Events').selectOption('*');
    await form.getByLabel('Description (optional)').fill('Ops alerts');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByRole('region', { name: `Signing secret of ${receiver.url}` });
    secret = (await shown.getByLabel('Signing secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await h.screenshot('webhooks-secret');

    await shown.getByRole('button', { name: 'Done, hide the secret' }).click();
    expect(await page.content()).not.toContain(secret);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    await item().getByText('all events · Ops alerts').waitFor({ timeout: 10_000 });
    await item().getByText('all events · Ops alerts').waitFor();
    await item().getByText('State: enabled').waitFor();
  });

  it('sends a test event, logs the failed attempt, and redelivers it', async () => {
    await item().getByRole('button', { name: 'Send test event' }).click();
    await h.page.getByText(`A webhook.test event is queued for ${receiver.url}`).waitFor();
    await deliverOnce();
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    // The secret the page showed is the one that signs the deliveries.
    expect(() => verifyAt(h.t.clock, secret, request)).not.toThrow();

    await item().getByRole('button', { name: `Refresh deliveries of ${receiver.url}` }).click();
    const failed = log().getByRole('row').nth(1);
    await failed.getByRole('cell', { name: '500', exact: true }).waitFor();
    const cells = await failed.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('webhook.test');
    expect(cells[2]).toMatch(/^pending/);
    expect(cells[3]).toBe('1');
    expect(cells[5]).toMatch(/^\d+ ms$/);
    expect(cells[6]).toBe('answer 500');
    expect(cells[7]).not.toBe('—'); // the next attempt, an hour on

    await failed.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await item().getByText('The webhook.test delivery is queued again.').waitFor();
    await deliverOnce();
    expect(receiver.received).toHaveLength(2);
    await item().getByRole('button', { name: `Refresh deliveries of ${receiver.url}` }).click();
    await log().getByRole('cell', { name: 'answer 200' }).waitFor();
    const delivered = await log().getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(delivered.slice(2, 5)).toEqual(['delivered', '1', '200']);
    expect(delivered[7]).toBe('—');
    await h.screenshot('webhooks-delivery-log');
  });

  it('rotates the secret, saying both are valid for 24 h', async () => {
    await item().getByRole('button', { name: 'Rotate secret' }).click();
    const shown = h.page.getByRole('region', { name: `New signing secret of ${receiver.url}` });
    const fresh = (await shown.getByLabel('Signing secret').textContent()) ?? '';
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    await shown.getByText(/The previous secret stays valid too until .* \(24 h\)/).waitFor();
    await shown.getByRole('button', { name: 'Done, hide the secret' }).click();
    expect(await h.page.content()).not.toContain(fresh);
  });

  it('disables and enables; shows why the service disabled it', async () => {
    const { page } = h;
    await item().getByRole('button', { name: 'Disable' }).click();
    await item().getByText('State: disabled').waitFor();
    await item().getByRole('button', { name: 'Enable' }).click();
    await item().getByText('State: enabled').waitFor();

    receiver.script(410);
    await item().getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(`A webhook.test event is queued for ${receiver.url}`).waitFor();
    await deliverOnce();
    await page.reload();
    await item().getByText('State: disabled by the service: the receiver answered 410 Gone').waitFor();
    await h.screenshot('webhooks-disabled-gone');
    await item().getByRole('button', { name: 'Enable' }).click();
    await item().getByText('State: enabled').waitFor();
  });

  it('pages through the delivery log, and deletes the endpoint after a confirmation', async () => {
    const { page } = h;
    const cookie = await sessionCookie(h);
    const id = ((await h.t.app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie } })).json() as { webhooks: Array<{ id: string }> }).webhooks[0]!.id;
    for (let i = 0; i < 20; i++) {
      const sent = await h.t.app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: { cookie, 'content-type': 'application/json' }, payload: {} });
      expect(sent.statusCode).toBe(202);
    }
    await page.reload();
    await item().getByRole('button', { name: 'Delivery log' }).click();
    await log().getByRole('row').nth(20).waitFor();
    expect(await log().getByRole('row').count()).toBe(21); // header + the newest 20 of 22
    await item().getByRole('button', { name: 'Load more deliveries' }).click();
    await expect.poll(() => log().getByRole('row').count()).toBe(23);
    expect(await item().getByRole('button', { name: 'Load more deliveries' }).count()).toBe(0);

    await item().getByRole('button', { name: 'Delete' }).click();
    await item().getByRole('group', { name: `Confirm deleting ${receiver.url}` }).getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText(`${receiver.url} is deleted.`).waitFor();
    expect(await item().count()).toBe(0);
    expect((await h.t.app.inject({ method: 'GET', url: `/api/webhooks/${id}`, headers: { cookie } })).statusCode).toBe(404);
    expect(cspViolations(h)).toEqual([]);
  });
});
