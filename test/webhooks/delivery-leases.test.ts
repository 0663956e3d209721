// Delivery leases run on the store's clock, and the time limit bounds the whole attempt, on both
// metadata stores: a worker whose clock runs an hour ahead does not take over an attempt another worker
// has under way; an abandoned attempt is taken over once its lease has run out by the store's clock;
// and a DNS lookup slower than the limit ends the attempt at the limit, like a receiver that hangs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/event-record.js';
import { seedWorkspace } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { startReceiver } from './receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(METADATA_STORES)('delivery leases and limits on $name', (store) => {
  let t: StoreTestApp;
  const receivers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    t = await store.start({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t.close();
  });

  async function setUp(script: Parameters<typeof startReceiver>[0], url?: (receiverUrl: string) => string) {
    const receiver = await startReceiver(script);
    receivers.push(receiver);
    const ws = await seedWorkspace(t.services);
    const { endpoint } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['*'] });
    if (url) await t.store.db.updateTable('webhook_endpoints').set({ url: url(receiver.url) }).where('id', '=', endpoint.id).execute();
    await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { pr_url: null } });
    const row = () => t.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    return { receiver, endpoint, row };
  }

  it('a worker whose clock runs an hour ahead does not take over an attempt under way', async () => {
    const { receiver, row } = await setUp(['hang', 200]);
    const first = t.services.deliveryWorker({ timeoutMs: 2000 });
    const pass = first.runOnce();
    await receiver.waitFor(1);

    const ahead = new TestClock();
    ahead.advance(3_600_000);
    await t.services.deliveryWorker({ clock: ahead }).runOnce();
    expect(receiver.received).toHaveLength(1);

    await pass; // the first attempt reaches its time limit and is recorded as a failure, to be retried
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1, last_error: 'No answer within 2000 ms' });
  });

  it('an abandoned attempt is taken over once its lease has run out by the store\'s clock', async () => {
    const { receiver, row } = await setUp(['hang', 200]);
    const killed = t.services.deliveryWorker({ timeoutMs: 600, leaseMs: 1500 });
    const pass = killed.runOnce();
    await receiver.waitFor(1);
    killed.abandon();

    const other = t.services.deliveryWorker();
    await other.runOnce();
    expect(receiver.received).toHaveLength(1); // still leased to the abandoned worker
    // Nobody moves the test clock: only the store's clock ends the lease.
    const deadline = performance.now() + 15_000;
    while (receiver.received.length < 2 && performance.now() < deadline) {
      await sleep(100);
      await other.runOnce();
    }
    expect(await row()).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200, claimed_until: null });
    await pass;
    expect(await row()).toMatchObject({ status: 'delivered', attempts: 2 }); // the abandoned attempt records nothing
  });

  it('the time limit bounds the whole attempt: a DNS lookup slower than it ends the attempt at the limit', async () => {
    const { receiver, row } = await setUp([], (url) => url.replace('127.0.0.1', 'slow-dns.test'));
    let lookups = 0;
    const worker = t.services.deliveryWorker({
      allowHosts: ['slow-dns.test'],
      timeoutMs: 500,
      retryDelaysMs: [],
      resolve: async () => {
        lookups++;
        await sleep(6000);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const started = performance.now();
    await worker.runOnce();
    const elapsed = performance.now() - started;
    expect(lookups).toBe(1);
    expect(elapsed).toBeLessThan(4000); // the lookup alone takes 6 s
    const settled = await row();
    expect(settled).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, last_error: 'No answer within 500 ms' });
    expect(settled.last_duration_ms).toBeGreaterThanOrEqual(450);
    expect(receiver.received).toHaveLength(0);
  });
});
