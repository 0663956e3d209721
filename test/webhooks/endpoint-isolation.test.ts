// One receiver that hangs holds back nobody else, on both metadata stores: with 60 deliveries queued for
// an endpoint whose receiver never answers, an event of another workspace reaches its healthy receiver
// while every attempt to the hanging one is still waiting for its time limit (an ordering, not a timing:
// the limit here is 8 s). The hanging receiver never holds more requests than the per-endpoint bound,
// even with two workers (two instances) on the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_CONCURRENCY } from '../../src/events/delivery-claims.js';
import { recordEvent } from '../../src/events/event-record.js';
import { openStore, type Store } from '../../src/store/db.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { startReceiver } from './receiver.js';

const TIMEOUT_MS = 8000;
const HANGING = 60;

describe.each(METADATA_STORES)('endpoints are isolated from each other on $name', (store) => {
  let t: StoreTestApp;
  let second: Store | undefined;

  beforeAll(async () => {
    t = await store.start({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    // A second instance on the same PostgreSQL database (PGlite has one owner).
    if (t.databaseUrl) second = await openStore({ kind: 'postgres', url: t.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('a healthy endpoint is delivered while another endpoint\'s receiver hangs', async () => {
    const hanging = await startReceiver(Array<'hang'>(HANGING * 2).fill('hang'));
    const healthy = await startReceiver();
    const slowWs = await seedWorkspace(t.services);
    const okWs = await seedWorkspace(t.services);
    const slow = await t.services.webhooks.create(slowWs.id, { url: hanging.url, events: ['*'] });
    await t.services.webhooks.create(okWs.id, { url: healthy.url, events: ['*'] });
    for (let i = 0; i < HANGING; i++) await recordEvent(t.store.db, { workspaceId: slowWs.id, type: 'model.deployed', fields: { n: i } });

    const workers = [t.services.deliveryWorker({ pollMs: 20, timeoutMs: TIMEOUT_MS })];
    if (second) workers.push(t.services.deliveryWorker({ store: second, pollMs: 20, timeoutMs: TIMEOUT_MS }));
    for (const worker of workers) worker.start();
    try {
      await hanging.waitFor(1);
      const event = await recordEvent(t.store.db, { workspaceId: okWs.id, type: 'model.deployed', fields: { healthy: true } });
      await healthy.waitFor(1, 4 * TIMEOUT_MS);
      expect(healthy.received[0]!.headers['webhook-id']).toBe(event.id);
      // Delivered while no attempt to the hanging receiver has ended: none waited for them.
      const ended = await t.store.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', slow.endpoint.id).where('last_error', 'is not', null).execute();
      expect(ended).toHaveLength(0);
      // The hanging receiver holds at most the endpoint's bound of requests, whatever the instances.
      expect(hanging.received.length).toBeGreaterThanOrEqual(1);
      expect(hanging.received.length).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
      const inFlight = await t.store.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', slow.endpoint.id).where('claimed_until', 'is not', null).execute();
      expect(inFlight.length).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
    } finally {
      // Closing the hanging receiver ends its attempts at once; stopping records them.
      await hanging.close();
      for (const worker of workers) await worker.stop();
      await healthy.close();
    }
  }, 60_000);

  it('the claim loop keeps claiming while attempts are in flight: later events go out before the slow ones end', async () => {
    const slowReceiver = await startReceiver();
    slowReceiver.delay(6000);
    const fast = await startReceiver();
    const ws = await seedWorkspace(t.services);
    await t.services.webhooks.create(ws.id, { url: slowReceiver.url, events: ['model.deployed'] });
    await t.services.webhooks.create(ws.id, { url: fast.url, events: ['signal.triggered'] });
    await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: {} });
    const worker = t.services.deliveryWorker({ pollMs: 20 });
    worker.start();
    try {
      await slowReceiver.waitFor(1);
      // Three events, one after the other, each written after the previous one has arrived.
      for (let i = 0; i < 3; i++) {
        await recordEvent(t.store.db, { workspaceId: ws.id, type: 'signal.triggered', fields: { n: i } });
        await fast.waitFor(i + 1, 20_000);
      }
      // The slow answer has not come yet: the loop did not wait for it.
      const slowRows = await t.store.db.selectFrom('webhook_deliveries as d').innerJoin('events as e', 'e.id', 'd.event_id').select('d.status').where('d.workspace_id', '=', ws.id).where('e.type', '=', 'model.deployed').execute();
      expect(slowRows.map((r) => r.status)).toEqual(['pending']);
    } finally {
      await worker.stop();
      await slowReceiver.close();
      await fast.close();
    }
    const all = await t.store.db.selectFrom('webhook_deliveries').select('status').where('workspace_id', '=', ws.id).execute();
    expect(all.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  }, 60_000);
});
