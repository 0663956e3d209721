// Scheduled deliveries over the real stack, on both metadata stores: a scene sent on its cron to a real
// loopback receiver (signed per Standard Webhooks, rows as JSON and CSV, read with the owner's data
// keys), a mosaic to a chat webhook ({text}: a table and a link back), retries after a 500, "send now",
// an owner who lost access (a failed run and a failed delivery in the log, nothing sent), a claim that
// two schedulers never record twice, and every bad input a 4xx.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { DeliveryScheduler } from '../../src/deliveries/schedule-scheduler.js';
import { createKey, seedWorkspace, signIn, type SeededWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { startReceiver, verifyAt } from '../webhooks/receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(METADATA_STORES)('scheduled deliveries on $name', (store) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-deliveries-'));
  let t: StoreTestApp;
  let ws: SeededWorkspace;
  let other: SeededWorkspace;
  const keys: Record<string, string> = {};
  let shared: { id: string };
  let region: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let chat: Awaited<ReturnType<typeof startReceiver>>;
  let hook: { id: string; secret: string };
  let chatHook: { id: string };
  const scenes: Record<string, string> = {};

  function c(who: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object) {
    return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload ? { payload } : {}) });
  }
  /** As the luminary in the console; signed in again for each call, since the tests move the clock past sessions. */
  async function consoleCall(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const cookie = await signIn(t.app, ws.members.luminary.email);
    return t.app.inject({ method, url: `/api${url}`, headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) }, ...(payload ? { payload } : {}) });
  }

  async function ok(response: Awaited<ReturnType<typeof c>>, status = 200) {
    expect(response.statusCode, response.body).toBe(status);
    return status === 204 ? undefined : response.json();
  }

  /** Runs the delivery worker until the delivery is settled. */
  async function settle(deliveryId: string, worker = t.services.deliveryWorker({ retryDelaysMs: [20, 20, 20] })) {
    for (let i = 0; i < 60; i++) {
      await worker.runOnce();
      const row = await t.store.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
      if (row.status !== 'pending') return row;
      await sleep(30);
    }
    throw new Error('the delivery did not settle');
  }

  beforeAll(async () => {
    t = await store.start({ env: { SVC_DATA_DIR: dataDir, SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', SVC_CONSOLE_URL: 'https://console.example.com/' } });
    ws = await seedWorkspace(t.services);
    other = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 300 });
    const content = ['query', 'content:read', 'content:write'];
    keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: content })).value;
    keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
    keys.viewer = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['query', 'content:read'] })).value;
    keys.other = (await createKey(t.services, other, 'luminary', 'structured', { scopes: content })).value;
    region = (await c('luminary', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'] })).json().data[0].ship_region;
    // The editor's data key shows them one region's orders only.
    await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region });
    shared = (await consoleCall('POST', '/vaults', { name: 'Reports' })).json().vault;
    await consoleCall('PUT', `/vaults/${shared.id}/members/${ws.members.editor.id}`, { access: 'edit' });
    const scene = async (who: string, body: object) => (await ok(await c(who, 'POST', '/scenes', body), 201)).scene.id as string;
    scenes.byRegion = await scene('editor', { name: 'Orders by region', vault: shared.id, node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], sorts: [{ field: 'ship_region', direction: 'asc' }] });
    scenes.secret = await scene('luminary', { name: 'Revenue (private)', node: 'orders', measures: ['gross_revenue'] });
    receiver = await startReceiver();
    chat = await startReceiver();
    const created = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['model.deployed'] });
    hook = { id: created.endpoint.id, secret: created.secret };
    chatHook = { id: (await t.services.webhooks.create(ws.id, { url: chat.url, events: ['model.deployed'], format: 'chat' })).endpoint.id };
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await chat?.close();
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad cron, an unknown zone, an unknown or unreadable target and an unknown endpoint with a 4xx naming it', async () => {
    const base = { name: 'Daily', target: { kind: 'scene', id: scenes.byRegion }, endpoint_id: hook.id, cron: '0 9 * * *', timezone: 'Europe/Berlin' };
    const cases: Array<[object, string]> = [
      [{ cron: '61 9 * * *' }, 'invalid_cron'],
      [{ cron: '* * * * * *' }, 'invalid_cron'],
      [{ timezone: 'Europe/Atlantis' }, 'invalid_timezone'],
      [{ target: { kind: 'scene', id: '00000000-0000-4000-8000-000000000000' } }, 'unknown_target'],
      [{ target: { kind: 'mosaic', id: scenes.byRegion } }, 'unknown_target'],
      // The luminary's personal scene: the editor may not read it.
      [{ target: { kind: 'scene', id: scenes.secret } }, 'unknown_target'],
      [{ endpoint_id: '00000000-0000-4000-8000-000000000000' }, 'unknown_endpoint'],
    ];
    for (const [change, code] of cases) {
      const response = await c('editor', 'POST', '/delivery-schedules', { ...base, ...change });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: expect.any(String), code });
    }
    // Another workspace's endpoint is unknown here; a viewer may not create; another workspace sees nothing.
    expect((await c('other', 'POST', '/delivery-schedules', { ...base, target: { kind: 'scene', id: scenes.byRegion } })).json().code).toBe('unknown_target');
    expect((await c('viewer', 'POST', '/delivery-schedules', base)).statusCode).toBe(403);
    const mine = (await ok(await c('editor', 'POST', '/delivery-schedules', base), 201)).schedule;
    expect((await c('other', 'GET', `/delivery-schedules/${mine.id}`)).statusCode).toBe(404);
    expect((await c('viewer', 'GET', `/delivery-schedules/${mine.id}`)).statusCode).toBe(404);
    expect((await c('editor', 'PATCH', `/delivery-schedules/${mine.id}`, { timezone: 'Nowhere/Else' })).json().code).toBe('invalid_timezone');
    await ok(await c('editor', 'DELETE', `/delivery-schedules/${mine.id}`), 204);
  });

  it('sends a scene on its cron, once, signed, with the rows the owner may see as JSON and CSV; a 500 is retried', async () => {
    // 09:00 in Berlin: the next run after the test clock's instant, computed in the zone.
    const schedule = (await ok(await c('editor', 'POST', '/delivery-schedules', { name: 'Morning orders', target: { kind: 'scene', id: scenes.byRegion }, endpoint_id: hook.id, cron: '0 9 * * *', timezone: 'Europe/Berlin' }), 201)).schedule;
    const next = new Date(schedule.next_run_at);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('09:00');
    expect(next.getTime()).toBeGreaterThan(t.clock.now().getTime());

    const scheduler = new DeliveryScheduler(t.services.scheduleRows, t.services.deliverySchedules, t.clock, { pollMs: 60_000 });
    expect(await scheduler.tick()).toBe(0);
    t.clock.set(new Date(next.getTime() + 1000));
    receiver.script(500);
    const before = receiver.received.length;
    expect(await scheduler.tick()).toBe(1);
    // Claimed and advanced: the same run is not sent again.
    expect(await scheduler.tick()).toBe(0);
    const [run] = (await ok(await c('editor', 'GET', `/delivery-schedules/${schedule.id}/runs`))).runs;
    expect(run).toMatchObject({ trigger: 'schedule', status: 'queued', error: null, delivery: { status: 'pending' } });
    const row = await settle(run.delivery.id);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    const requests = receiver.received.slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers['webhook-id']).toBe(run.event_id);
    expect(requests[1]!.headers['webhook-id']).toBe(run.event_id);
    const body = verifyAt(t.clock, hook.secret, requests[1]!) as { results: Array<{ rows: Array<Record<string, unknown>>; csv: string }> };
    expect(body).toMatchObject({ event: 'delivery.scheduled', schedule_id: schedule.id, schedule_name: 'Morning orders', target: { kind: 'scene', id: scenes.byRegion, name: 'Orders by region', console_url: `https://console.example.com/content?scene=${scenes.byRegion}` } });
    // Read with the editor's data keys: what their own run of the scene shows, one region only.
    const own = (await ok(await c('editor', 'POST', `/scenes/${scenes.byRegion}/run`, {}))).data;
    const [table] = body.results;
    expect(table!.rows).toEqual(own);
    expect(table!.rows.map((r) => r.ship_region)).toEqual([region]);
    expect(table!.csv).toBe(`ship_region,order_count\r\n${region},${own[0].order_count}\r\n`);
    // The run is in the endpoint's delivery log too.
    const log = (await consoleCall('GET', `/webhooks/${hook.id}/deliveries`)).json().deliveries;
    expect(log.find((d: { id: string }) => d.id === run.delivery.id)).toMatchObject({ event: 'delivery.scheduled', status: 'delivered', attempts: 2 });
    const after = (await ok(await c('editor', 'GET', `/delivery-schedules/${schedule.id}`))).schedule;
    expect(new Date(after.next_run_at).getTime() - next.getTime()).toBe(24 * 3_600_000);
  }, 60_000);

  it('sends a mosaic now to a chat webhook: a plain-text table and a link back; pause, resume, delete', async () => {
    const mosaic = (
      await ok(
        await c('editor', 'POST', '/mosaics', { name: 'Regional board', vault: shared.id, tiles: [{ id: 'a', kind: 'scene', scene_id: scenes.byRegion, layout: { x: 0, y: 0, w: 6, h: 4 } }] }),
        201,
      )
    ).mosaic;
    const schedule = (await ok(await c('editor', 'POST', '/delivery-schedules', { name: 'Board to chat', target: { kind: 'mosaic', id: mosaic.id }, endpoint_id: chatHook.id, cron: '0 8 * * 1' }), 201)).schedule;
    // No zone given: the workspace's.
    expect(schedule.timezone).toBe((await consoleCall('GET', '/workspace')).json().workspace.timezone);
    const sent = (await ok(await c('editor', 'POST', `/delivery-schedules/${schedule.id}/send`), 202)).run;
    expect(sent).toMatchObject({ trigger: 'send_now', status: 'queued' });
    expect(await settle(sent.delivery.id)).toMatchObject({ status: 'delivered' });
    const message = JSON.parse(chat.received.at(-1)!.body);
    expect(Object.keys(message)).toEqual(['text']);
    expect(message.text).toContain('Board to chat: mosaic "Regional board"');
    expect(message.text).toMatch(new RegExp(`ship_region\\s*\\|\\s*order_count`));
    expect(message.text).toContain(region);
    expect(message.text).toContain(`https://console.example.com/content?mosaic=${mosaic.id}`);
    // Sending now leaves the cron's next run as it was.
    expect((await ok(await c('editor', 'GET', `/delivery-schedules/${schedule.id}`))).schedule.next_run_at).toBe(schedule.next_run_at);

    const paused = (await ok(await c('editor', 'POST', `/delivery-schedules/${schedule.id}/pause`))).schedule;
    expect(paused).toMatchObject({ enabled: false, next_run_at: null });
    const resumed = (await ok(await c('editor', 'POST', `/delivery-schedules/${schedule.id}/resume`))).schedule;
    expect(resumed.enabled).toBe(true);
    expect(new Date(resumed.next_run_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
    // The console lists every schedule of the workspace to a luminary.
    const listed = (await consoleCall('GET', '/delivery-schedules')).json().schedules;
    expect(listed.map((s: { id: string }) => s.id)).toContain(schedule.id);
    await ok(await c('editor', 'DELETE', `/delivery-schedules/${schedule.id}`), 204);
    expect((await c('editor', 'GET', `/delivery-schedules/${schedule.id}`)).statusCode).toBe(404);
  }, 60_000);

  it('an owner who lost access to the scene: the run fails visibly (run, schedule and delivery log) and nothing is sent', async () => {
    const schedule = (await ok(await c('editor', 'POST', '/delivery-schedules', { name: 'Lost', target: { kind: 'scene', id: scenes.byRegion }, endpoint_id: hook.id, cron: '0 9 * * *', timezone: 'UTC' }), 201)).schedule;
    expect((await consoleCall('DELETE', `/vaults/${shared.id}/members/${ws.members.editor.id}`)).statusCode).toBe(204);
    try {
      const before = receiver.received.length;
      const run = (await ok(await c('editor', 'POST', `/delivery-schedules/${schedule.id}/send`), 202)).run;
      expect(run).toMatchObject({ status: 'error', error: expect.stringMatching(/owner may no longer read scene/), delivery: { status: 'failed', attempts: 0 } });
      await t.services.deliveryWorker().runOnce();
      expect(receiver.received.length).toBe(before);
      expect((await ok(await c('editor', 'GET', `/delivery-schedules/${schedule.id}`))).schedule.last_error).toMatch(/owner may no longer read/);
      const log = (await consoleCall('GET', `/webhooks/${hook.id}/deliveries`)).json().deliveries;
      expect(log.find((d: { id: string }) => d.id === run.delivery.id)).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/owner may no longer read/) });
    } finally {
      await consoleCall('PUT', `/vaults/${shared.id}/members/${ws.members.editor.id}`, { access: 'edit' });
    }
  });

  it('two schedulers record each due run once; a run whose claim was taken over is not recorded by its first holder', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = { name: `Hourly ${i}`, target: { kind: 'scene', id: scenes.byRegion }, endpoint_id: hook.id, cron: '0 * * * *', timezone: 'Asia/Kolkata' };
      ids.push((await ok(await c('editor', 'POST', '/delivery-schedules', body), 201)).schedule.id);
    }
    const runsOf = async (id: string) => (await t.store.db.selectFrom('delivery_schedule_runs').select('id').where('schedule_id', '=', id).execute()).length;
    const first = new DeliveryScheduler(t.services.scheduleRows, t.services.deliverySchedules, t.clock, { pollMs: 60_000, batch: 2 });
    const second = new DeliveryScheduler(t.services.scheduleRows, t.services.deliverySchedules, t.clock, { pollMs: 60_000, batch: 2 });
    t.clock.advance(3_600_000);
    let recorded = 0;
    for (let poll = 0; poll < 6; poll++) recorded += (await Promise.all([first.tick(), second.tick()])).reduce((a, b) => a + b, 0);
    expect(recorded).toBeGreaterThanOrEqual(6);
    for (const id of ids) expect(await runsOf(id)).toBe(1);

    // A claim whose lease ran out is claimed again; the first holder then records nothing.
    t.clock.advance(3_600_000);
    const repo = t.services.scheduleRows;
    const [stale] = await repo.claimDue(t.clock.now(), 60_000, 1, (row) => new Date(row.next_run_at!.getTime() + 3_600_000));
    await t.store.db.updateTable('delivery_schedules').set({ claimed_until: new Date(0) }).where('id', '=', stale!.id).execute();
    const retaken = (await repo.claimDue(t.clock.now(), 60_000, 8, (row) => row.next_run_at)).find((r) => r.id === stale!.id)!;
    expect(retaken.claim).not.toBe(stale!.claim);
    expect(await t.services.deliverySchedules.runClaimed(stale!)).toBeNull();
    expect(await t.services.deliverySchedules.runClaimed(retaken)).not.toBeNull();
    expect(await runsOf(stale!.id)).toBe(2);
    for (const id of ids) await c('editor', 'DELETE', `/delivery-schedules/${id}`);
  }, 60_000);
});
