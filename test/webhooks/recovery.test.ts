// Disabled endpoints and recovery, through the console routes, on both metadata stores: events that
// happen while an endpoint is disabled are recorded (skipped, nothing sent) and sent by a recovery of
// their time range once it is enabled again; a recovery sends only what was not delivered, within its
// range; bad ranges are 400s, a disabled endpoint 409, another workspace's endpoint 404; retries held
// while an endpoint was disabled are not attempted then, and go out at once when it is enabled again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/event-record.js';
import { readStoreNow } from '../../src/store/store-clock.js';
import { consoleCall, seedWorkspace, signIn, type SeededWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { startReceiver } from './receiver.js';

const HOUR = 3_600_000;

describe.each(METADATA_STORES)('disabled endpoints and recovery on $name', (store) => {
  let t: StoreTestApp;
  let ws: SeededWorkspace;
  let cookie: string;
  const receivers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    t = await store.start({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    ws = await seedWorkspace(t.services);
    cookie = await signIn(t.app, ws.members.luminary.email);
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await t.close();
  });

  async function endpointOn(script: Parameters<typeof startReceiver>[0] = []) {
    const receiver = await startReceiver(script);
    receivers.push(receiver);
    const created = await consoleCall(t, cookie, 'POST', '/api/webhooks', { url: receiver.url, events: ['*'] });
    expect(created.statusCode).toBe(201);
    return { receiver, id: created.json().webhook.id as string };
  }
  const deployed = (n: number) => recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { n } });
  const rowsOf = (id: string) => t.store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id).orderBy('created_at').execute();
  const setEnabled = async (id: string, enabled: boolean) => expect((await consoleCall(t, cookie, 'PATCH', `/api/webhooks/${id}`, { enabled })).statusCode).toBe(200);

  it('events while an endpoint is disabled are recorded, not sent, and sent by a recovery of their range', async () => {
    const { receiver, id } = await endpointOn();
    const worker = t.services.deliveryWorker();
    const before = await deployed(1);
    await worker.runOnce();
    expect(receiver.received).toHaveLength(1);

    await setEnabled(id, false);
    // A test event to a disabled endpoint is recorded the same way.
    const test = await consoleCall(t, cookie, 'POST', `/api/webhooks/${id}/test`);
    expect(test.json().delivery).toMatchObject({ status: 'skipped', attempts: 0, next_attempt_at: null });
    await t.store.db.deleteFrom('webhook_deliveries').where('id', '=', test.json().delivery.id).execute();
    const missed = [await deployed(2), await deployed(3)];
    await worker.runOnce();
    expect(receiver.received).toHaveLength(1);
    const skipped = (await rowsOf(id)).filter((r) => r.event_id !== before.id);
    // Fanned out together, the two may share their creation time: compared in event order.
    const byEvent = (a: { event_id: string }, b: { event_id: string }) => a.event_id.localeCompare(b.event_id);
    expect(skipped.sort(byEvent).map((r) => [r.event_id, r.status, r.attempts])).toEqual(missed.map((e) => ({ event_id: e.id })).sort(byEvent).map((e) => [e.event_id, 'skipped', 0]));
    const log = (await consoleCall(t, cookie, 'GET', `/api/webhooks/${id}/deliveries`)).json().deliveries;
    expect(log.filter((d: { status: string }) => d.status === 'skipped')).toHaveLength(2);

    // Enabling sends nothing of what was skipped by itself: the luminary chooses what to recover.
    await setEnabled(id, true);
    await worker.runOnce();
    expect(receiver.received).toHaveLength(1);

    const since = new Date(Math.min(...skipped.map((r) => r.created_at.getTime()))).toISOString();
    const recovered = await consoleCall(t, cookie, 'POST', `/api/webhooks/${id}/recover`, { since });
    expect(recovered.statusCode, recovered.body).toBe(202);
    expect(recovered.json()).toMatchObject({ requeued: 2, has_more: false, since });
    await worker.runOnce();
    expect(receiver.received.slice(1).map((r) => r.headers['webhook-id']).sort()).toEqual(missed.map((e) => e.id).sort());
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered']);

    // Delivered ones are not sent again by a recovery of the whole range.
    const again = await consoleCall(t, cookie, 'POST', `/api/webhooks/${id}/recover`, { since: new Date(before.createdAt.getTime() - 1000).toISOString() });
    expect(again.json()).toMatchObject({ requeued: 0, has_more: false });
  });

  it('a recovery sends again only what was not delivered, created within [since, until)', async () => {
    const { receiver, id } = await endpointOn();
    const base = new Date(t.clock.now().getTime() - 10 * 24 * HOUR);
    const at = (hours: number) => new Date(base.getTime() + hours * HOUR);
    const cases = [
      { hours: -1, status: 'failed' }, // before the range
      { hours: 0, status: 'failed' }, // at its start: in
      { hours: 1, status: 'skipped' },
      { hours: 2, status: 'delivered' },
      { hours: 3, status: 'gone' },
      { hours: 4, status: 'pending' },
      { hours: 24, status: 'failed' }, // at its end: out
    ] as const;
    const events: Record<number, string> = {};
    for (const c of cases) {
      const event = await deployed(c.hours);
      events[c.hours] = event.id;
      await t.store.db
        .insertInto('webhook_deliveries')
        .values({ event_id: event.id, endpoint_id: id, workspace_id: ws.id, status: c.status, attempts: 3, next_attempt_at: c.status === 'pending' ? new Date(t.clock.now().getTime() + 100 * HOUR) : null, created_at: at(c.hours), updated_at: at(c.hours) })
        .execute();
    }
    await t.store.db.updateTable('events').set({ fanned_out_at: t.clock.now() }).where('id', 'in', Object.values(events)).execute();

    const response = await consoleCall(t, cookie, 'POST', `/api/webhooks/${id}/recover`, { since: at(0).toISOString(), until: at(24).toISOString() });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ requeued: 3, has_more: false, since: at(0).toISOString(), until: at(24).toISOString() });
    await t.services.deliveryWorker().runOnce();
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([events[0], events[1], events[3]].sort());
    const rows = await rowsOf(id);
    const statusOf = (hours: number) => rows.find((r) => r.event_id === events[hours])!;
    expect(statusOf(0)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect([-1, 2, 4, 24].map((h) => statusOf(h).status)).toEqual(['failed', 'delivered', 'pending', 'failed']);
  });

  it('bad ranges are 400s, a disabled endpoint 409, another workspace\'s or an unknown endpoint 404, a non-luminary 403', async () => {
    const { id } = await endpointOn();
    // Ranges are of delivery times, which the store stamps: "the future" is past the store's now.
    const now = (await readStoreNow(t.store.db)).getTime();
    const iso = (offset: number) => new Date(now + offset).toISOString();
    const recover = (body: object, target = id, as = cookie) => consoleCall(t, as, 'POST', `/api/webhooks/${target}/recover`, body);
    for (const [body, code] of [
      [{ since: iso(-HOUR), until: iso(-2 * HOUR) }, 'invalid_range'],
      [{ since: iso(-HOUR), until: iso(-HOUR) }, 'invalid_range'],
      [{ since: iso(HOUR) }, 'invalid_range'],
      [{ since: 'yesterday' }, 'invalid_request'],
      [{ since: '2025-13-40T00:00:00Z' }, 'invalid_request'],
      [{ until: iso(-HOUR) }, 'invalid_request'],
      [{ since: iso(-HOUR), until: 12 }, 'invalid_request'],
    ] as const) {
      const response = await recover(body);
      expect([JSON.stringify(body), response.statusCode, response.json().code]).toEqual([JSON.stringify(body), 400, code]);
      expect(typeof response.json().error).toBe('string');
    }
    await setEnabled(id, false);
    const disabled = await recover({ since: iso(-HOUR) });
    expect([disabled.statusCode, disabled.json().code]).toEqual([409, 'webhook_disabled']);
    await setEnabled(id, true);

    const other = await seedWorkspace(t.services);
    const otherCookie = await signIn(t.app, other.members.luminary.email);
    expect((await recover({ since: iso(-HOUR) }, id, otherCookie)).statusCode).toBe(404);
    expect((await recover({ since: iso(-HOUR) }, crypto.randomUUID())).statusCode).toBe(404);
    expect((await recover({ since: iso(-HOUR) }, 'not-a-uuid')).statusCode).toBe(404);
    const editor = await signIn(t.app, ws.members.editor.email);
    expect((await recover({ since: iso(-HOUR) }, id, editor)).statusCode).toBe(403);
  });

  it('an endpoint enabled again sends its held retries at once, not at their old backoff time', async () => {
    const { receiver, id } = await endpointOn([500, 200]);
    const event = await deployed(1);
    const worker = t.services.deliveryWorker({ retryDelaysMs: [HOUR] });
    await worker.runOnce();
    const [first] = await rowsOf(id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    expect(first!.next_attempt_at!.getTime()).toBeGreaterThan(t.clock.now().getTime() + 0.5 * HOUR);

    await setEnabled(id, false);
    await setEnabled(id, true);
    await worker.runOnce();
    expect(await rowsOf(id)).toEqual([expect.objectContaining({ event_id: event.id, status: 'delivered', attempts: 2, last_status_code: 200 })]);
    expect(receiver.received).toHaveLength(2);
  });

  // Last: it moves the test clock.
  it('a retry that falls due while its endpoint is disabled is held, not attempted nor failed', async () => {
    const { receiver, id } = await endpointOn([500, 200]);
    await deployed(1);
    const worker = t.services.deliveryWorker({ retryDelaysMs: [HOUR] });
    await worker.runOnce();
    await setEnabled(id, false);
    t.clock.advance(2 * HOUR);
    await worker.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect(await rowsOf(id)).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, claimed_until: null })]);
    await setEnabled(id, true);
    await worker.runOnce();
    expect(await rowsOf(id)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
  });
});
