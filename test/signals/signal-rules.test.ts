// The rules of a signal beyond its state machine, over the real stack (PGlite store, DuckDB demo
// warehouse): schedules that would run more than once a minute are refused, a scene watch reads one
// defined row, and a signal whose owner may no longer run it stops and says why until someone takes it
// over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { hashPassword } from '../../src/identity/passwords.js';
import { SignalScheduler } from '../../src/signals/signal-scheduler.js';
import { PASSWORD, consoleRequest, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signal-rules-'));
let t: TestApp;
let ws: SeededWorkspace;
const keys: Record<string, string> = {};
let cookie: string;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function c(who: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

const orderCount = { node: 'orders', measure: 'order_count' };
const base = { name: 'Rule', watch: orderCount, condition: 'greater_than', threshold: 0, schedule: { interval_seconds: 60 } };

async function created(who: string, body: Record<string, unknown>) {
  const response = await c(who, 'POST', '/signals', { ...base, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().signal as { id: string };
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  const content = ['query', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: content })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region: '*' });
  cookie = await signIn(t.app, lum.email);
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('schedules', () => {
  it.each(['* * * * * *', '*/30 * * * * *', '0,30 * * * * *', '0,1 0 9 * * 1', '* 0 12 1 1 *'])('refuses the cron expression "%s": it runs less than 60 s apart', async (cron) => {
    const response = await c('editor', 'POST', '/signals', { ...base, schedule: { cron } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_schedule' });
    expect(response.json().error).toMatch(/60 s|once a minute/);
    const signal = await created('editor', {});
    expect((await c('editor', 'PATCH', `/signals/${signal.id}`, { schedule: { cron } })).statusCode).toBe(400);
  });

  it.each(['0 * * * * *', '15 */5 * * * *', '* * * * *', '0 9 * * 1-5', '@hourly'])('accepts "%s"', async (cron) => {
    const response = await c('editor', 'POST', '/signals', { ...base, schedule: { cron, timezone: 'Europe/Paris' } });
    expect(response.statusCode, response.body).toBe(201);
  });
});

describe('a scene watch', () => {
  it('needs a sort when the scene has dimensions: otherwise its first row could be any row', async () => {
    const unsorted = (await c('editor', 'POST', '/scenes', { name: 'By channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'] })).json().scene;
    const refused = await c('editor', 'POST', '/signals', { ...base, watch: { scene_id: unsorted.id } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/no sort/);
    // Sorted, it is accepted; should the sort later be taken away, the evaluation says why and fires nothing.
    const sorted = (await c('editor', 'POST', '/scenes', { name: 'By channel, sorted', node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'desc' }] })).json().scene;
    const signal = await created('editor', { watch: { scene_id: sorted.id } });
    expect((await c('editor', 'PATCH', `/scenes/${sorted.id}`, { sorts: [] })).statusCode).toBe(200);
    const evaluated = (await c('editor', 'POST', `/signals/${signal.id}/evaluate?send=true`)).json();
    expect(evaluated).toMatchObject({ value: null, state: 'error', would_fire: false });
    expect(evaluated.error).toMatch(/no sort/);
  });

  it('breaks ties of the scene’s sorts by its dimensions', async () => {
    // Every channel has no cancelled orders among completed ones: the sort ties on every row.
    const filters = [{ field: 'status', operator: 'equals', value: 'completed' }];
    const tied = (
      await c('editor', 'POST', '/scenes', { name: 'Tied', node: 'orders', dimensions: ['channel'], measures: ['order_count', 'cancelled_orders'], filters, sorts: [{ field: 'cancelled_orders', direction: 'desc' }] })
    ).json().scene;
    const rows = (await c('editor', 'POST', '/query', { node: 'orders', dimensions: ['channel'], measures: ['order_count', 'cancelled_orders'], filters, sorts: [{ field: 'channel', direction: 'asc' }] })).json().data;
    expect(new Set(rows.map((r: { cancelled_orders: number }) => Number(r.cancelled_orders)))).toEqual(new Set([0]));
    const signal = await created('editor', { watch: { scene_id: tied.id } });
    for (let i = 0; i < 3; i++) expect((await c('editor', 'POST', `/signals/${signal.id}/evaluate`)).json().value).toBe(Number(rows[0].order_count));
  });
});

describe('a signal whose owner may no longer run it', () => {
  async function member(name: string) {
    const user = await t.services.members.createUser({ email: `${name}-${ws.id.slice(0, 8)}@example.com`, name, passwordHash: await hashPassword(PASSWORD) });
    await t.services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'editor' });
    await t.services.tenancy.patchAttributes(ws.id, user.id, { region: '*' });
    const created = await t.services.keys.create({ workspace: { id: ws.id, plan: ws.plan }, user: { id: user.id }, role: 'editor' }, { name, surface: 'structured', scopes: ['query', 'content:read', 'content:write'] });
    keys[name] = created.value;
    return { id: user.id, who: name };
  }

  async function sharedVault(name: string, editors: string[]) {
    const vault = (await consoleRequest(t.app, cookie, 'POST', '/api/vaults', { name })).json().vault.id as string;
    for (const id of editors) expect((await consoleRequest(t.app, cookie, 'PUT', `/api/vaults/${vault}/members/${id}`, { access: 'edit' })).statusCode).toBe(200);
    return vault;
  }

  async function tick() {
    t.clock.advance(61_000);
    await new SignalScheduler(t.services.signalRows, t.services.signals, t.clock, { pollMs: 60_000, batch: 100 }).tick();
  }

  it.each([
    ['leaves the workspace', async (ownerId: string) => void (await t.services.tenancy.removeMember(ws.id, ownerId)), /no longer a member/],
    ['loses access to the vault', async (ownerId: string, vault: string) => void (await consoleRequest(t.app, cookie, 'DELETE', `/api/vaults/${vault}/members/${ownerId}`, undefined, { 'content-type': 'application/json' })), /vault/],
  ] as const)('stops when its owner %s, says why, and runs again once an editor takes it over', async (_, loseAccess, reason) => {
    const owner = await member(`owner${Math.random().toString(36).slice(2, 7)}`);
    const vault = await sharedVault('Alerts', [owner.id, ws.members.editor.id]);
    const signal = await created(owner.who, { vault });
    await tick();
    expect((await c('editor', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'triggered', enabled: true, stopped: null });
    await loseAccess(owner.id, vault);
    await tick();
    const stopped = (await c('editor', 'GET', `/signals/${signal.id}`)).json().signal;
    expect(stopped).toMatchObject({ enabled: false, next_run_at: null });
    expect(stopped.stopped).toMatch(reason);
    expect(stopped.stopped).toMatch(/take it over/);
    const history = (await c('editor', 'GET', `/signals/${signal.id}/evaluations?limit=1`)).json().evaluations;
    // The stop is in the history of whoever may see the owner's values; nothing was read or fired.
    expect(history[0].fired === null || history[0].fired === false).toBe(true);
    // Stopped means stopped: later ticks evaluate nothing.
    const before = (await c('luminary', 'GET', `/signals/${signal.id}/evaluations?limit=100`)).json().evaluations.length;
    await tick();
    expect((await c('luminary', 'GET', `/signals/${signal.id}/evaluations?limit=100`)).json().evaluations.length).toBe(before);
    // An editor of the vault takes it over and enables it: it reads with their keys again.
    const taken = (await c('editor', 'PATCH', `/signals/${signal.id}`, { take_ownership: true, enabled: true })).json().signal;
    expect(taken).toMatchObject({ owner: ws.members.editor.id, enabled: true, stopped: null, state: 'ok' });
    await tick();
    expect((await c('editor', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'triggered', enabled: true, stopped: null });
  });
});
