// Signals over the real stack (PGlite store, DuckDB demo warehouse): saves checked against the live
// model, the state machine (a crossing fires once, holding fires nothing, clearing re-arms), percent
// conditions, errors that fire nothing, the owner's data keys, vault isolation (404), dry and sent
// evaluations, the history, the scheduler's claim, and every bad input a 4xx.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { SignalScheduler } from '../../src/signals/signal-scheduler.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signals-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const keys: Record<string, string> = {};
let total: number;
let region: string;
let regionTotal: number;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  const content = ['query', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: content })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  keys.editorReadOnly = (await createKey(t.services, ws, 'editor', 'structured', { scopes: ['query', 'content:read'] })).value;
  keys.viewer = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['query', 'content:read'] })).value;
  keys.other = (await createKey(t.services, other, 'luminary', 'structured', { scopes: content })).value;
  total = Number((await c('luminary', 'POST', '/query', { node: 'orders', measures: ['order_count'] })).json().data[0].order_count);
  const regions = (await c('luminary', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], sorts: [{ field: 'ship_region', direction: 'asc' }] })).json().data;
  region = regions[0].ship_region;
  regionTotal = Number(regions[0].order_count);
  // The editor sees one region's orders only (data key `region`).
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region });
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function c(who: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

const orderCount = { node: 'orders', measure: 'order_count' };
const hourly = { interval_seconds: 3600 };

async function created(who: string, body: Record<string, unknown>) {
  const response = await c(who, 'POST', '/signals', { name: 'Orders', watch: orderCount, condition: 'greater_than', threshold: 0, schedule: hourly, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().signal as { id: string; vault: string; state: string; next_run_at: string };
}

async function evaluate(who: string, id: string, send = true) {
  const response = await c(who, 'POST', `/signals/${id}/evaluate${send ? '?send=true' : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { value: number | null; would_fire: boolean; state: string; error: string | null; sent: boolean };
}

async function firedEvents(id: string) {
  const rows = await t.store.db.selectFrom('events').selectAll().where('type', '=', 'signal.triggered').where(sql<boolean>`payload->>'signal_id' = ${id}`).orderBy('created_at').execute();
  return rows.map((r) => r.payload as Record<string, unknown>);
}

describe('saving signals', () => {
  it('creates a signal with its schedule, reads, lists in pages, changes and deletes it', async () => {
    const before = t.clock.now().getTime();
    const signal = await created('editor', { name: 'Paged A' });
    // Never evaluated yet: pending, not ok, until its first evaluation.
    expect(signal).toMatchObject({ name: 'Paged A', watch: orderCount, condition: 'greater_than', threshold: 0, schedule: hourly, enabled: true, state: 'pending', last_value: null, last_evaluated_at: null, last_error: null, owner: ws.members.editor.id });
    expect(new Date(signal.next_run_at).getTime()).toBeGreaterThanOrEqual(before + 3_599_000);
    await created('editor', { name: 'Paged B' });
    const first = await c('editor', 'GET', '/signals?limit=1');
    expect(first.statusCode).toBe(200);
    const next = await c('editor', 'GET', `/signals?limit=1&cursor=${first.json().next_cursor}`);
    expect(next.json().signals[0].id).not.toBe(first.json().signals[0].id);
    const cron = await c('editor', 'PATCH', `/signals/${signal.id}`, { schedule: { cron: '0 9 * * 1', timezone: 'Europe/Paris' }, threshold: 5 });
    expect(cron.statusCode, cron.body).toBe(200);
    const next9 = new Date(cron.json().signal.next_run_at);
    expect(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', hour: 'numeric', hourCycle: 'h23', weekday: 'short' }).format(next9)).toBe('Mon, 09');
    expect((await c('editor', 'DELETE', `/signals/${signal.id}`)).statusCode).toBe(204);
    expect((await c('editor', 'GET', `/signals/${signal.id}`)).statusCode).toBe(404);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown measure', { watch: { node: 'orders', measure: 'profit' } }, /profit/],
    ['an unknown node', { watch: { node: 'invoices', measure: 'order_count' } }, /invoices/],
    ['a filter on an unknown field', { watch: { ...orderCount, filters: [{ field: 'colour', operator: 'equals', value: 'red' }] } }, /colour/],
    ['an unknown scene', { watch: { scene_id: '00000000-0000-4000-8000-000000000000' } }, /00000000-0000-4000-8000-000000000000/],
    ['a period without a time field', { watch: { ...orderCount, period: 'last_7_days' } }, /time_field/],
    ['an unknown period token', { watch: { ...orderCount, time_field: 'created_at', period: 'last_fortnight' } }, /last_fortnight/],
    ['a bad cron expression', { schedule: { cron: '61 * * * *' } }, /61 \* \* \* \*/],
    ['an unknown time zone', { schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, /Mars\/Olympus/],
    ['an interval under a minute', { schedule: { interval_seconds: 30 } }, /interval_seconds/],
    ['an unknown condition', { condition: 'about' }, /condition/],
  ])('refuses %s with 400 naming it', async (_, body, message) => {
    const response = await c('editor', 'POST', '/signals', { name: 'Bad', watch: orderCount, condition: 'greater_than', threshold: 0, schedule: hourly, ...body });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatch(message);
  });

  it('refuses writes without content:write (403) or below editor (403)', async () => {
    const body = { name: 'x', watch: orderCount, condition: 'greater_than', threshold: 0, schedule: hourly };
    expect((await c('editorReadOnly', 'POST', '/signals', body)).statusCode).toBe(403);
    expect((await c('viewer', 'POST', '/signals', body)).statusCode).toBe(403);
    // A dry evaluation only reads (a viewer of a shared vault may make one); recording one is a write.
    const cookie = await signIn(t.app, ws.members.luminary.email);
    const session = (method: Method, url: string, payload: object) =>
      t.app.inject({ method, url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
    const shared = await session('POST', '/vaults', { name: 'Shared signals' });
    expect(shared.statusCode, shared.body).toBe(201);
    const vault = shared.json().vault.id;
    expect((await session('PUT', `/vaults/${vault}/members/${ws.members.viewer.id}`, { access: 'view' })).statusCode).toBe(200);
    const signal = await created('luminary', { name: 'Shared read', vault });
    // A dry run reads with the caller's own data keys: the viewer has no region, so no rows.
    expect(await evaluate('viewer', signal.id, false)).toMatchObject({ value: 0, would_fire: false, sent: false });
    const viewerSend = await c('viewer', 'POST', `/signals/${signal.id}/evaluate?send=true`);
    expect(viewerSend.statusCode).toBe(403);
    expect(viewerSend.json().code).toBe('role_required');
    // A vault holding a signal is not empty: deleting it needs force=true, which deletes the signal too.
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/vaults/${vault}`, headers: { cookie, 'content-type': 'application/json' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('vault_not_empty');
    const readOnly = await c('editorReadOnly', 'POST', `/signals/${signal.id}/evaluate?send=true`);
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().code).toBe('scope_required');
  });
});

describe('evaluating signals', () => {
  it('fires once per crossing: crossing, holding, clearing and crossing again fires twice', async () => {
    const signal = await created('luminary', { name: 'Crossing', threshold: total + 1 });
    // A dry run records nothing: the signal is still pending; the first sent evaluation decides its state.
    expect(await evaluate('luminary', signal.id, false)).toMatchObject({ value: total, state: 'ok', sent: false });
    expect((await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'pending', last_evaluated_at: null });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: false, state: 'ok', sent: true });
    expect((await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'ok', last_evaluated_at: expect.any(String) });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: total - 1 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: true, state: 'triggered' });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ would_fire: false, state: 'triggered' });
    expect(await firedEvents(signal.id)).toHaveLength(1);
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: total + 1 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ would_fire: false, state: 'ok' });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: total - 1 });
    // A dry run reports what would happen and changes nothing.
    expect(await evaluate('luminary', signal.id, false)).toMatchObject({ would_fire: true, state: 'triggered', sent: false });
    expect((await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal.state).toBe('ok');
    expect(await evaluate('luminary', signal.id)).toMatchObject({ would_fire: true, state: 'triggered' });
    const events = await firedEvents(signal.id);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ event: 'signal.triggered', signal_id: signal.id, signal_name: 'Crossing', value: total, threshold: total - 1, condition: 'greater_than', workspace_id: ws.id });
    expect(typeof events[1]!.event_id).toBe('string');
    expect(new Date(events[1]!.triggered_at as string).getTime()).not.toBeNaN();
    const read = (await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal;
    expect(read).toMatchObject({ state: 'triggered', last_value: total, last_error: null });
    // Five sent evaluations in the history, newest first, in pages.
    const page1 = (await c('luminary', 'GET', `/signals/${signal.id}/evaluations?limit=3`)).json();
    expect(page1.evaluations).toHaveLength(3);
    expect(page1.evaluations[0]).toMatchObject({ value: total, holds: true, state: 'triggered', fired: true, error: null });
    const page2 = (await c('luminary', 'GET', `/signals/${signal.id}/evaluations?limit=3&cursor=${page1.next_cursor}`)).json();
    expect(page2.evaluations).toHaveLength(2);
    expect(page2.next_cursor).toBeNull();
    expect(page2.evaluations.map((e: { fired: boolean }) => e.fired)).toEqual([true, false]);
    // Every run is recorded in the query history with the signal as its origin (written in batches).
    await t.services.rawSql.flush();
    const runs = await t.store.db.selectFrom('query_history').select('id').where('origin', '=', `signal:${signal.id}`).execute();
    expect(runs.length).toBeGreaterThanOrEqual(6);
  });

  it('percent conditions compare with the previous value read, and a new watch or condition starts again', async () => {
    // A scene watch follows the scene's edits: the same signal reads another value once the scene changes.
    const scene = (await c('luminary', 'POST', '/scenes', { name: 'Orders (percent)', node: 'orders', dimensions: [], measures: ['order_count'], visualization: { type: 'number' } })).json().scene;
    const inRegion = [{ field: 'ship_region', operator: 'equals', value: region }];
    const signal = await created('luminary', { name: 'Drop', watch: { scene_id: scene.id }, condition: 'decreases_by_percent', threshold: 10 });
    // No previous value: nothing to compare with.
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: false, state: 'ok' });
    expect((await c('luminary', 'PATCH', `/scenes/${scene.id}`, { filters: inRegion })).statusCode).toBe(200);
    expect(regionTotal).toBeLessThan(total * 0.9);
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: regionTotal, would_fire: true, state: 'triggered' });
    // Same value again: a 0 % change, the condition clears.
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: regionTotal, would_fire: false, state: 'ok' });
    // A new condition keeps the last value (the same measure was read) but not whether the old one held.
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { condition: 'increases_by_percent', threshold: 10 });
    expect((await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'ok', last_value: regionTotal });
    expect((await c('luminary', 'PATCH', `/scenes/${scene.id}`, { filters: [] })).statusCode).toBe(200);
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: true, state: 'triggered' });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { condition: 'changes_by_percent', threshold: 1 });
    expect((await c('luminary', 'PATCH', `/scenes/${scene.id}`, { filters: inRegion })).statusCode).toBe(200);
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: regionTotal, would_fire: true, state: 'triggered' });
    // Still holding (a change of more than 1 %): no second event while it holds.
    expect((await c('luminary', 'PATCH', `/scenes/${scene.id}`, { filters: [] })).statusCode).toBe(200);
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: false, state: 'triggered' });
    expect(await firedEvents(signal.id)).toHaveLength(3);
    // A new watch reads another value: the last one is forgotten, so nothing is compared across measures.
    const rewatched = (await c('luminary', 'PATCH', `/signals/${signal.id}`, { watch: { ...orderCount, filters: inRegion } })).json().signal;
    expect(rewatched).toMatchObject({ state: 'ok', last_value: null, last_error: null });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: regionTotal, would_fire: false, state: 'ok' });
  });

  it('an evaluation error sets error with the message and fires nothing', async () => {
    const scene = (await c('luminary', 'POST', '/scenes', { name: 'Total', node: 'orders', dimensions: [], measures: ['order_count'], visualization: { type: 'number' } })).json().scene;
    const signal = await created('luminary', { name: 'Scene watch', watch: { scene_id: scene.id }, condition: 'greater_than', threshold: 0 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, would_fire: true, state: 'triggered' });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: total + 1 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ state: 'ok' });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: 0 });
    expect((await c('luminary', 'DELETE', `/scenes/${scene.id}`)).statusCode).toBe(204);
    const failed = await evaluate('luminary', signal.id);
    expect(failed).toMatchObject({ value: null, would_fire: false, state: 'error' });
    expect(failed.error).toMatch(/scene/i);
    const read = (await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal;
    expect(read).toMatchObject({ state: 'error', last_value: total });
    expect(read.last_error).toMatch(/scene/i);
    expect(await firedEvents(signal.id)).toHaveLength(1);
    const last = (await c('luminary', 'GET', `/signals/${signal.id}/evaluations?limit=1`)).json().evaluations[0];
    expect(last).toMatchObject({ state: 'error', fired: false, value: null });
  });

  it("records with the owner's data keys, and shows those values only to readers whose keys give the same rows", async () => {
    const signal = await created('editor', { name: 'My region' });
    expect(regionTotal).toBeLessThan(total);
    expect(await evaluate('editor', signal.id)).toMatchObject({ value: regionTotal, sent: true });
    // A dry run reads with the caller's keys: the luminary sees every region.
    expect(await evaluate('luminary', signal.id, false)).toMatchObject({ value: total });
    // A recorded evaluation is the signal's own, read as its owner; the luminary's keys differ, so its values are hidden.
    const sent = await c('luminary', 'POST', `/signals/${signal.id}/evaluate?send=true`);
    expect(sent.json()).toMatchObject({ value: null, state: null, sent: true });
    expect(sent.json().values_hidden).toMatch(/data keys/);
    const read = (await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal;
    expect(read).toMatchObject({ owner: ws.members.editor.id, state: null, last_value: null });
    expect((await c('luminary', 'GET', `/signals/${signal.id}/evaluations`)).json().evaluations[0]).toMatchObject({ value: null, fired: null });
    expect((await c('editor', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'triggered', last_value: regionTotal, values_hidden: null });
    // Taking it over makes the luminary the owner: it starts again and reads with their keys.
    const taken = (await c('luminary', 'PATCH', `/signals/${signal.id}`, { take_ownership: true })).json().signal;
    expect(taken).toMatchObject({ owner: ws.members.luminary.id, state: 'ok', last_value: null, values_hidden: null });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: total, sent: true });
    expect((await c('editor', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ last_value: null, values_hidden: expect.stringMatching(/data keys/) });
  });
});

describe('vault isolation', () => {
  it('a signal in a vault you may not see does not exist for you (404)', async () => {
    const signal = await created('editor', { name: 'Private' });
    for (const [who, method, url] of [
      ['viewer', 'GET', `/signals/${signal.id}`],
      ['viewer', 'GET', `/signals/${signal.id}/evaluations`],
      ['other', 'GET', `/signals/${signal.id}`],
      ['other', 'PATCH', `/signals/${signal.id}`],
      ['other', 'DELETE', `/signals/${signal.id}`],
      ['other', 'POST', `/signals/${signal.id}/evaluate`],
    ] as const) {
      const response = await c(who, method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(response.statusCode, `${who} ${method} ${url}`).toBe(404);
    }
    const listed = (await c('viewer', 'GET', '/signals?limit=200')).json().signals.map((s: { id: string }) => s.id);
    expect(listed).not.toContain(signal.id);
  });

  it('the console serves the same signals to a session', async () => {
    const signal = await created('editor', { name: 'Console' });
    const cookie = await signIn(t.app, ws.members.editor.email);
    const response = await t.app.inject({ method: 'GET', url: `/api/signals/${signal.id}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().signal.name).toBe('Console');
  });
});

describe('the scheduler', () => {
  it('evaluates a due signal once, then waits for its next run', async () => {
    const signal = await created('luminary', { name: 'Scheduled', schedule: { interval_seconds: 60 }, threshold: total - 1 });
    const scheduler = new SignalScheduler(t.services.signalRows, t.services.signals, t.clock, { pollMs: 60_000, batch: 100 });
    t.clock.advance(61_000);
    // Other signals of this file are due as well; this one is evaluated exactly once.
    await scheduler.tick();
    expect(await scheduler.tick()).toBe(0);
    const read = (await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal;
    expect(read).toMatchObject({ state: 'triggered', last_value: total });
    expect(new Date(read.next_run_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(await firedEvents(signal.id)).toHaveLength(1);
  });
});
