// The delivery worker against a real loopback receiver: retries through a 500 and a hang to a 200 with
// the same webhook-id, verified by the standardwebhooks library; 410 stops and disables; an exhausted
// schedule fails; 3 days of failures disable; the previous secret stops signing after 24 h; a worker
// stopped mid-attempt (as by kill -9) leaves a row another worker delivers once its lease ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { recordEvent } from '../../src/events/event-record.js';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, verifyAt } from './receiver.js';

let t: TestApp;
const receivers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost' } });
}, 60_000);
afterAll(async () => {
  await t.close();
  for (const r of receivers) await r.close();
});

/** A workspace with one endpoint on a fresh receiver, and one model.deployed event in it. */
async function setUp(script: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(script);
  receivers.push(receiver);
  const ws = await seedWorkspace(t.services);
  const { endpoint, secret } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['*'] });
  const event = await recordEvent(t.store.db, {
    workspaceId: ws.id,
    type: 'model.deployed',
    fields: { deployed_at: t.clock.now().toISOString(), deployed_by: 'ops@example.com', changed_nodes: ['orders'], pr_url: 'https://git.example.com/pr/1' },
  });
  return { receiver, ws, endpoint, secret, event };
}

const deliveries = (endpointId: string) => t.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
const endpointRow = (id: string) => t.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/**
 * Whether `secret` signed the request, by the standardwebhooks library's own signing. Used where the
 * test clock runs ahead (days), outside the library verifier's 5-minute timestamp window.
 */
function signedBy(secret: string, request: { headers: Record<string, string>; body: string }): boolean {
  const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
  return request.headers['webhook-signature']!.split(' ').includes(new Webhook(secret).sign(request.headers['webhook-id']!, at, request.body));
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs passes until the endpoint's deliveries are all settled (or `passes` run out). */
async function drain(worker: { runOnce(): Promise<void> }, endpointId: string, passes = 40) {
  for (let i = 0; i < passes; i++) {
    await worker.runOnce();
    const rows = await deliveries(endpointId);
    if (rows.length && rows.every((r) => r.status !== 'pending')) return rows;
    await sleep(30);
  }
  return deliveries(endpointId);
}

describe('delivery worker', () => {
  it('retries through a 500 and a hang to a 200: one webhook-id, verified, seen once by a deduplicating receiver', async () => {
    const { receiver, endpoint, secret, event } = await setUp([500, 'hang', 200]);
    const worker = t.services.deliveryWorker({ retryDelaysMs: [20, 20, 20], timeoutMs: 400 });
    const [row] = await drain(worker, endpoint.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, last_response: 'answer 200', last_error: null });
    expect(receiver.received).toHaveLength(3);
    const processed = new Map<string, unknown>();
    for (const request of receiver.received) {
      expect(request.headers['webhook-id']).toBe(event.id);
      const payload = verifyAt(t.clock, secret, request);
      if (!processed.has(request.headers['webhook-id']!)) processed.set(request.headers['webhook-id']!, payload);
    }
    expect([...processed.values()]).toEqual([event.payload]);
    // A tampered body does not verify.
    const first = receiver.received[0]!;
    expect(() => verifyAt(t.clock, secret, { ...first, body: first.body.replace('orders', 'refunds') })).toThrow();
  }, 30_000);

  it('an endpoint receives the events that happened once it existed, not older ones still waiting to be fanned out', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const ws = await seedWorkspace(t.services);
    const older = await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { pr_url: null } });
    // Embedded PGlite's clock counts milliseconds: an event in the endpoint's own millisecond counts as
    // after it (sent rather than lost), so the older event is written a few milliseconds before.
    await sleep(5);
    const { endpoint } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['*'] });
    const newer = await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { pr_url: null } });
    const rows = await drain(t.services.deliveryWorker(), endpoint.id);
    expect(rows.map((r) => r.event_id)).toEqual([newer.id]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([newer.id]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).not.toContain(older.id);
  });

  it('a 410 stops at once and disables the endpoint (gone); later events are recorded as skipped, not sent', async () => {
    const { receiver, ws, endpoint } = await setUp([410]);
    const worker = t.services.deliveryWorker({ retryDelaysMs: [20, 20] });
    const [row] = await drain(worker, endpoint.id);
    expect(row).toMatchObject({ status: 'gone', attempts: 1, last_status_code: 410 });
    expect(await t.services.webhooks.get(ws.id, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const later = await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: {} });
    await worker.runOnce();
    const rows = await deliveries(endpoint.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.event_id === later.id)).toMatchObject({ status: 'skipped', attempts: 0, next_attempt_at: null, last_error: expect.stringMatching(/disabled/) });
    expect(receiver.received).toHaveLength(1);
  });

  it('fails after the schedule; an endpoint failing for 3 days is disabled (failing)', async () => {
    const { receiver, ws, endpoint } = await setUp([500, 500, 500, 503]);
    const worker = t.services.deliveryWorker({ retryDelaysMs: [20, 20] });
    const [row] = await drain(worker, endpoint.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500, last_error: 'HTTP 500' });
    expect(receiver.received).toHaveLength(3);
    expect((await endpointRow(endpoint.id)).enabled).toBe(true);

    t.clock.advance(3 * 24 * 3_600_000);
    await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: {} });
    await t.services.deliveryWorker({ retryDelaysMs: [] }).runOnce();
    expect(await t.services.webhooks.get(ws.id, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
  });

  it('after a rotation both secrets sign; after 24 h only the new one does', async () => {
    const { receiver, ws, endpoint, secret: old } = await setUp([]);
    const worker = t.services.deliveryWorker();
    await drain(worker, endpoint.id);
    const { secret: fresh } = await t.services.webhooks.rotate(ws.id, endpoint.id);
    await t.services.webhooks.sendTest(ws.id, endpoint.id);
    await drain(worker, endpoint.id);
    const during = receiver.received[1]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(signedBy(old, during)).toBe(true);
    expect(signedBy(fresh, during)).toBe(true);

    t.clock.advance(24 * 3_600_000 + 1000);
    await t.services.webhooks.sendTest(ws.id, endpoint.id);
    await drain(worker, endpoint.id);
    const after = receiver.received[2]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(signedBy(fresh, after)).toBe(true);
    expect(signedBy(old, after)).toBe(false);
    expect((await t.services.webhooks.get(ws.id, endpoint.id)).previous_secret_expires_at).toBeNull();
  });

  it('a worker stopped mid-attempt records nothing; another delivers once the lease ends', async () => {
    const { receiver, endpoint, secret } = await setUp(['hang', 200]);
    const killed = t.services.deliveryWorker({ timeoutMs: 1500, leaseMs: 2500 });
    const pass = killed.runOnce();
    await receiver.waitFor(1);
    killed.abandon();

    const restarted = t.services.deliveryWorker();
    await restarted.runOnce();
    expect(receiver.received).toHaveLength(1); // still leased to the dead worker
    // The lease runs on the store's clock: the passes below take the row once it has run out.
    const [row] = await drain(restarted, endpoint.id, 200);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(signedBy(secret, receiver.received[1]!)).toBe(true);

    await pass; // the dead worker's attempt times out and must not overwrite the delivered row
    expect((await deliveries(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  }, 30_000);

  it('the server worker starts, polls at SVC_EVENTS_POLL_MS and stops cleanly', async () => {
    const { receiver } = await setUp([]);
    const worker = t.services.deliveryWorker({ pollMs: 20 });
    worker.start();
    await receiver.waitFor(1);
    await worker.stop();
    expect(receiver.received).toHaveLength(1);
  });

  it('checks the address again at delivery, and connects to the address it checked', async () => {
    const { receiver, endpoint } = await setUp([]);
    const port = new URL(receiver.url).port;
    // The host now resolves to a private address (DNS changed since creation): refused, nothing sent.
    await t.store.db.updateTable('webhook_endpoints').set({ url: `https://hooks.example.test:${port}/hook` }).where('id', '=', endpoint.id).execute();
    const rebinding = t.services.deliveryWorker({ retryDelaysMs: [], resolve: async () => [{ address: '10.0.0.7', family: 4 }] });
    const [refused] = await drain(rebinding, endpoint.id);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null });
    expect(refused!.last_error).toMatch(/resolves to 10\.0\.0\.7/);
    expect(receiver.received).toHaveLength(0);

    // An allowed name that no DNS knows: the connection goes to the address the resolver gave, once.
    await t.store.db.updateTable('webhook_endpoints').set({ url: `http://pinned.test:${port}/hook` }).where('id', '=', endpoint.id).execute();
    let lookups = 0;
    const pinned = t.services.deliveryWorker({
      allowHosts: ['pinned.test'],
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    await t.services.webhooks.redeliver((await endpointRow(endpoint.id)).workspace_id, endpoint.id, refused!.id);
    const [sent] = await drain(pinned, endpoint.id);
    expect(sent).toMatchObject({ status: 'delivered', last_status_code: 200 });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`pinned.test:${port}`);
    expect(lookups).toBe(1);
  });
});
