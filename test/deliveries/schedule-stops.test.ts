// A delivery schedule whose runs keep failing stops, on both metadata stores, by the test clock: five
// failed runs in a row disable it with the reason in the API (a run that queues its delivery starts the
// count again); a stopped schedule is never claimed; editing it, or resuming it, runs it again and
// clears the reason; pausing a stopped schedule by hand keeps it stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { DeliveryScheduler } from '../../src/deliveries/schedule-scheduler.js';
import { createKey, seedWorkspace, signIn, type SeededWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';

const HOUR = 3_600_000;
const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(METADATA_STORES)('delivery schedules that keep failing, on $name', (store) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-schedule-stops-'));
  let t: StoreTestApp;
  let ws: SeededWorkspace;
  let key: string;
  let sceneId: string;
  let endpointId: string;
  let scheduler: DeliveryScheduler;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
  const scheduleOf = async (id: string) => (await call('GET', `/delivery-schedules/${id}`)).json().schedule;
  /** Points the schedule at a scene that does not exist (its runs fail), or back at the real one, without resuming it. */
  const target = (id: string, scene: string) => t.services.scheduleRows.update(ws.id, id, { target_id: scene }, t.clock.now());
  /** The next hourly run: the clock moves an hour, the scheduler polls; how many runs it recorded. */
  async function nextHour(): Promise<number> {
    t.clock.advance(HOUR);
    return scheduler.tick();
  }

  beforeAll(async () => {
    t = await store.start({ env: { SVC_DATA_DIR: dataDir, SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 50 });
    key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'content:read', 'content:write'] })).value;
    const scene = await call('POST', '/scenes', { name: 'Orders', node: 'orders', measures: ['order_count'] });
    expect(scene.statusCode, scene.body).toBe(201);
    sceneId = scene.json().scene.id;
    // Nothing is delivered here (no worker runs): the endpoint only has to exist.
    endpointId = (await t.services.webhooks.create(ws.id, { url: 'http://127.0.0.1:9/hook', events: ['model.deployed'] })).endpoint.id;
    scheduler = new DeliveryScheduler(t.services.scheduleRows, t.services.deliverySchedules, t.clock, { pollMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function failingSchedule(name: string): Promise<string> {
    const created = await call('POST', '/delivery-schedules', { name, target: { kind: 'scene', id: sceneId }, endpoint_id: endpointId, cron: '0 * * * *', timezone: 'UTC' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().schedule.id as string;
    await target(id, MISSING);
    return id;
  }

  it('stops after five failed runs in a row, says why, and is not run again; a run that queues resets the count', async () => {
    const id = await failingSchedule('Hourly');
    for (let run = 1; run <= 4; run++) expect(await nextHour()).toBe(1);
    expect(await scheduleOf(id)).toMatchObject({ enabled: true, failed_runs: 4, stopped_reason: null, last_error: expect.stringMatching(/^Not sent/) });

    // One run that reads its scene and queues the delivery: the count starts again.
    await target(id, sceneId);
    expect(await nextHour()).toBe(1);
    expect(await scheduleOf(id)).toMatchObject({ enabled: true, failed_runs: 0, last_error: null });

    await target(id, MISSING);
    for (let run = 1; run <= 4; run++) expect(await nextHour()).toBe(1);
    expect((await scheduleOf(id)).enabled).toBe(true);
    expect(await nextHour()).toBe(1);
    const stopped = await scheduleOf(id);
    expect(stopped).toMatchObject({ enabled: false, next_run_at: null, failed_runs: 5 });
    expect(stopped.stopped_reason).toMatch(/^Stopped after 5 failed runs in a row \(the last: Not sent: .+\); edit or resume the schedule to run it again$/);
    const runs = (await call('GET', `/delivery-schedules/${id}/runs`)).json().runs as Array<{ status: string }>;
    // Newest first: the five that stopped it, the one that queued, the four before.
    expect(runs.map((r) => r.status)).toEqual(['error', 'error', 'error', 'error', 'error', 'queued', 'error', 'error', 'error', 'error']);

    // Stopped: hours go by and nothing runs.
    for (let hour = 0; hour < 3; hour++) expect(await nextHour()).toBe(0);
    // The console's list shows the reason too.
    const cookie = await signIn(t.app, ws.members.luminary.email);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/delivery-schedules', headers: { cookie } })).json().schedules as Array<{ id: string; stopped_reason: string | null }>;
    expect(listed.find((s) => s.id === id)?.stopped_reason).toBe(stopped.stopped_reason);
  });

  it('resumes when edited or resumed: enabled, the reason cleared, the count at zero, the next run from now', async () => {
    const id = await failingSchedule('Edited');
    for (let run = 1; run <= 5; run++) expect(await nextHour()).toBe(1);
    expect((await scheduleOf(id)).stopped_reason).not.toBeNull();

    // Pausing by hand keeps it stopped, and says why still.
    const paused = await call('POST', `/delivery-schedules/${id}/pause`);
    expect(paused.json().schedule).toMatchObject({ enabled: false, stopped_reason: expect.stringMatching(/^Stopped after 5/) });

    const edited = await call('PATCH', `/delivery-schedules/${id}`, { name: 'Edited again' });
    expect(edited.statusCode, edited.body).toBe(200);
    const resumed = edited.json().schedule;
    expect(resumed).toMatchObject({ name: 'Edited again', enabled: true, failed_runs: 0, stopped_reason: null });
    expect(new Date(resumed.next_run_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
    // Still failing: it stops again after five more.
    for (let run = 1; run <= 5; run++) expect(await nextHour()).toBe(1);
    expect(await scheduleOf(id)).toMatchObject({ enabled: false, failed_runs: 5 });

    const again = (await call('POST', `/delivery-schedules/${id}/resume`)).json().schedule;
    expect(again).toMatchObject({ enabled: true, failed_runs: 0, stopped_reason: null });
    expect(await nextHour()).toBe(1);
    expect(await scheduleOf(id)).toMatchObject({ enabled: true, failed_runs: 1 });
  });
});
