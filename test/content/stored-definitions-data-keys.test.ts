// Anything stored and evaluated later acts as a principal who may see what it reads. Two editors who
// share a vault but whose data keys show them different regions save scenes, mosaics and signals there;
// through every path that evaluates a stored definition (scene runs, mosaic tiles, signal reads, dry and
// recorded evaluations, the scheduler, a change of what a signal watches) neither can ever read a value
// the other's keys hide. The figures that must never cross are each region's revenue (fractional sums
// no other figure in an answer can equal) and its order count. Each evaluation goes through the one
// governed path as the member it reads for, with the result cache off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { hashPassword } from '../../src/identity/passwords.js';
import { SignalScheduler } from '../../src/signals/signal-scheduler.js';
import { PASSWORD, consoleRequest, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { startReceiver } from '../webhooks/receiver.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-stored-keys-'));
let t: TestApp;
let ws: SeededWorkspace;
let vault: string;
type Who = 'alice' | 'bob' | 'luminary';
const people: Record<Who, { id: string; key: string; region?: string }> = {} as never;
/** What each member's own /v1/query shows: the only figures they may ever read. */
const seen: Record<'alice' | 'bob', { count: number; revenue: number }> = {} as never;
/** Figures of rows a member's keys hide (the other region's, and the all-regions totals). */
const hiddenFrom: Record<'alice' | 'bob', number[]> = {} as never;
type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;
let lookup: (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => Promise<Answer>;

// Numbers an answer carries that are not figures read from the warehouse.
const NOT_FIGURES = new Set(['query_time_ms', 'duration_ms', 'threshold', 'interval_seconds', 'version', 'limit', 'x', 'y', 'w', 'h', 'row_count']);

/** Every figure in an answer (numbers, and numeric strings warehouses return for sums), keyed paths aside. */
function figures(value: unknown, key = ''): number[] {
  if (typeof value === 'number') return NOT_FIGURES.has(key) ? [] : [value];
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return NOT_FIGURES.has(key) ? [] : [Number(value)];
  if (Array.isArray(value)) return value.flatMap((item) => figures(item, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => figures(v, k));
  return [];
}

function expectNothingHidden(who: 'alice' | 'bob', body: unknown, what: string): void {
  const leaked = figures(body).filter((n) => hiddenFrom[who].some((h) => Math.abs(h - n) < 1e-6));
  expect(leaked, `${who} read a figure their data keys hide through ${what}: ${JSON.stringify(body)}`).toEqual([]);
}

/**
 * What `act` asked of the governed path: as whom each query read, what asked, and whether it could use
 * the result cache (a stored definition never may: its rows are its reader's).
 */
async function governedReads(act: () => Promise<unknown>): Promise<Array<{ user: string; origin: string; cache: string }>> {
  const query = vi.spyOn(t.services.governed, 'query'); // calls through: the real path runs
  try {
    await act();
    return query.mock.calls.map(([request]) => ({ user: request.principal.user.id, origin: request.origin, cache: request.cache }));
  } finally {
    query.mockRestore();
  }
}

async function ok(response: Answer, status = 200) {
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

async function addEditor(name: string, region: string): Promise<{ id: string; key: string; region: string }> {
  const user = await t.services.members.createUser({ email: `${name}-${ws.id.slice(0, 8)}@example.com`, name, passwordHash: await hashPassword(PASSWORD) });
  await t.services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'editor' });
  await t.services.tenancy.patchAttributes(ws.id, user.id, { region });
  const actor = { workspace: { id: ws.id, plan: ws.plan }, user: { id: user.id }, role: 'editor' as const };
  const created = await t.services.keys.create(actor, { name: `${name}'s key`, surface: 'structured', scopes: ['query', 'content:read', 'content:write'] });
  return { id: user.id, key: created.value, region };
}

beforeAll(async () => {
  // Deliveries go to a receiver on loopback, over plain HTTP.
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 600 });
  const lumKey = await t.services.keys.create({ workspace: { id: ws.id, plan: ws.plan }, user: { id: lum.id }, role: 'luminary' }, { name: 'lum', surface: 'structured', scopes: ['query', 'content:read', 'content:write'] });
  people.luminary = { id: lum.id, key: lumKey.value };
  lookup = (who, method, url, payload) =>
    t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${people[who].key}` }, ...(payload !== undefined ? { payload } : {}) });

  const byRegion = (await ok(await lookup('luminary', 'POST', '/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'ship_region', direction: 'asc' }] }))).data as {
    ship_region: string;
    order_count: number;
    gross_revenue: number;
  }[];
  const [a, b] = byRegion;
  expect(a && b && a.order_count !== b.order_count).toBe(true);
  people.alice = await addEditor('alice', a!.ship_region);
  people.bob = await addEditor('bob', b!.ship_region);
  const all = (await ok(await lookup('luminary', 'POST', '/query', { node: 'orders', measures: ['order_count', 'gross_revenue'] }))).data[0];
  for (const who of ['alice', 'bob'] as const) {
    const own = (await ok(await lookup(who, 'POST', '/query', { node: 'orders', measures: ['order_count', 'gross_revenue'] }))).data[0];
    seen[who] = { count: Number(own.order_count), revenue: Number(own.gross_revenue) };
  }
  expect(seen.alice).toEqual({ count: Number(a!.order_count), revenue: Number(a!.gross_revenue) });
  const others = byRegion.filter((r) => r.ship_region !== a!.ship_region);
  hiddenFrom.alice = [Number(all.gross_revenue), Number(all.order_count), ...others.flatMap((r) => [Number(r.gross_revenue), Number(r.order_count)])];
  hiddenFrom.bob = [Number(all.gross_revenue), Number(all.order_count), ...byRegion.filter((r) => r.ship_region !== b!.ship_region).flatMap((r) => [Number(r.gross_revenue), Number(r.order_count)])];
  // No figure either may see equals one the other may not: a match below is a leak, not a coincidence.
  for (const who of ['alice', 'bob'] as const) expect(hiddenFrom[who]).not.toContain(seen[who].revenue);

  const cookie = await signIn(t.app, lum.email);
  vault = (await ok(await consoleRequest(t.app, cookie, 'POST', '/api/vaults', { name: 'Team' }), 201)).vault.id;
  for (const who of ['alice', 'bob'] as const) await ok(await consoleRequest(t.app, cookie, 'PUT', `/api/vaults/${vault}/members/${people[who].id}`, { access: 'edit' }));
}, 120_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const revenueWatch = { node: 'orders', measure: 'gross_revenue' };
const pair = [
  ['alice', 'bob'],
  ['bob', 'alice'],
] as const;

/**
 * The operations that evaluate a stored definition. A new one (a scheduled delivery, an export of a
 * saved query) must be added to this test, with its own case below, before the suite passes.
 */
const EVALUATING_OPERATIONS = [
  'runScene',
  'runMosaic',
  'evaluateSignal',
  'getSignal',
  'listSignals',
  'listSignalEvaluations',
  // Scheduled deliveries: a schedule reads its target with its owner's keys and is its owner's alone.
  'listDeliverySchedules',
  'getDeliverySchedule',
  'createDeliverySchedule',
  'updateDeliverySchedule',
  'pauseDeliverySchedule',
  'resumeDeliverySchedule',
  'deleteDeliverySchedule',
  'sendDeliverySchedule',
  'listDeliveryScheduleRuns',
];

describe('stored definitions never read past the reader’s data keys', () => {
  it('every operation that evaluates or shows a stored definition is covered here', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const evaluating = Object.entries(spec.paths)
      .filter(([route]) => route.startsWith('/v1/') && /\/(scenes|mosaics|signals)\b|deliver|schedul|export|subscri/.test(route))
      .flatMap(([route, operations]) => Object.entries(operations).map(([method, op]) => ({ route, method, id: op.operationId ?? '' })))
      .filter(({ route, method }) => (method === 'post' && /\/(run|evaluate|send|deliver)\b/.test(route)) || (method === 'get' && /signals/.test(route)) || /deliver|schedul|export|subscri/.test(route));
    const uncovered = evaluating.filter(({ id }) => !EVALUATING_OPERATIONS.some((covered) => id.toLowerCase().endsWith(covered.toLowerCase())));
    expect(uncovered, 'operations that evaluate stored definitions without a data-key case in this file').toEqual([]);
    // And the filter above finds each covered operation: it cannot pass by finding none.
    for (const covered of EVALUATING_OPERATIONS) expect(evaluating.some(({ id }) => id.toLowerCase().endsWith(covered.toLowerCase())), covered).toBe(true);
  });

  it.each(pair)('a scene %s saved runs with %s’s keys when they run it, alone or as a mosaic tile', async (author, reader) => {
    const total = await ok(await lookup(author, 'POST', '/scenes', { name: `${author} total`, vault, node: 'orders', measures: ['gross_revenue', 'order_count'], visualization: { type: 'number' } }), 201);
    const split = await ok(await lookup(author, 'POST', '/scenes', { name: `${author} by region`, vault, node: 'orders', dimensions: ['ship_region'], measures: ['gross_revenue'] }), 201);
    const board = await ok(
      await lookup(author, 'POST', '/mosaics', {
        name: `${author} board`,
        vault,
        tiles: [
          { id: 'total', kind: 'scene', scene_id: total.scene.id, layout: { x: 0, y: 0, w: 6, h: 4 } },
          { id: 'split', kind: 'scene', scene_id: split.scene.id, layout: { x: 6, y: 0, w: 6, h: 4 } },
        ],
      }),
      201,
    );
    for (const who of [author, reader] as const) {
      let run: Awaited<ReturnType<typeof ok>>;
      const reads = await governedReads(async () => (run = await ok(await lookup(who, 'POST', `/scenes/${total.scene.id}/run`, {}))));
      expect(reads).toEqual([{ user: people[who].id, origin: `scene:${total.scene.id}`, cache: 'off' }]);
      expect(Number(run.data[0].gross_revenue)).toBeCloseTo(seen[who].revenue, 6);
      expectNothingHidden(who, run, 'a scene run');
      expectNothingHidden(who, await ok(await lookup(who, 'POST', `/scenes/${split.scene.id}/run`, {})), 'a scene run by dimension');
      let mosaic: Awaited<ReturnType<typeof ok>>;
      const tileReads = await governedReads(async () => (mosaic = await ok(await lookup(who, 'POST', `/mosaics/${board.mosaic.id}/run`, {}))));
      expect(tileReads).toEqual([1, 2].map(() => ({ user: people[who].id, origin: `mosaic:${board.mosaic.id}`, cache: 'off' })));
      expectNothingHidden(who, mosaic, 'a mosaic run');
    }
  });

  it.each(pair)('a delivery %s schedules reads with their keys only, and is theirs alone: %s sees none of it', async (owner, reader) => {
    const receiver = await startReceiver();
    try {
      const endpoint = (await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['model.deployed'] })).endpoint.id;
      const scene = await ok(await lookup(owner, 'POST', '/scenes', { name: `${owner} delivered`, vault, node: 'orders', measures: ['gross_revenue', 'order_count'], visualization: { type: 'number' } }), 201);
      const body = { name: `${owner} daily`, target: { kind: 'scene', id: scene.scene.id }, endpoint_id: endpoint, cron: '0 9 * * *', timezone: 'UTC' };
      const schedule = (await ok(await lookup(owner, 'POST', '/delivery-schedules', body), 201)).schedule;
      const at = `/delivery-schedules/${schedule.id}`;

      // Sent now: one read, as the owner, never from the cache; what arrives holds the owner's figures only.
      const before = receiver.received.length;
      const reads = await governedReads(async () => ok(await lookup(owner, 'POST', `${at}/send`), 202));
      expect(reads.map((read) => ({ user: read.user, cache: read.cache }))).toEqual([{ user: people[owner].id, cache: 'off' }]);
      await t.services.deliveryWorker().runOnce();
      expect(receiver.received.length).toBe(before + 1);
      const delivered = JSON.parse(receiver.received.at(-1)!.body) as unknown;
      expect(figures(delivered).some((n) => Math.abs(n - seen[owner as 'alice' | 'bob'].revenue) < 1e-6), 'the owner\'s revenue is delivered').toBe(true);
      expectNothingHidden(owner as 'alice' | 'bob', delivered, 'a scheduled delivery');
      for (const run of [await lookup(owner, 'GET', at), await lookup(owner, 'GET', `${at}/runs`), await lookup(owner, 'GET', '/delivery-schedules')]) {
        expectNothingHidden(owner as 'alice' | 'bob', await ok(run), 'a delivery schedule read');
      }

      // The other editor shares the vault and the scene, not the schedule: every operation answers 404,
      // and nothing is sent for them.
      const listed = (await ok(await lookup(reader, 'GET', '/delivery-schedules'))).schedules as Array<{ id: string }>;
      expect(listed.map((one) => one.id)).not.toContain(schedule.id);
      const sentBefore = receiver.received.length;
      for (const [method, url, payload] of [
        ['GET', at],
        ['GET', `${at}/runs`],
        ['PATCH', at, { name: 'taken over' }],
        ['POST', `${at}/pause`],
        ['POST', `${at}/resume`],
        ['POST', `${at}/send`],
        ['DELETE', at],
      ] as const) {
        expect((await lookup(reader, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
      }
      await t.services.deliveryWorker().runOnce();
      expect(receiver.received.length).toBe(sentBefore);

      // The owner's own changes go through.
      await ok(await lookup(owner, 'PATCH', at, { name: `${owner} weekly` }));
      await ok(await lookup(owner, 'POST', `${at}/pause`));
      await ok(await lookup(owner, 'POST', `${at}/resume`));
      expect((await lookup(owner, 'DELETE', at)).statusCode).toBe(204);
    } finally {
      await receiver.close();
    }
  });

  it.each(pair)('a signal %s owns shows its values to %s only as their own keys would read them', async (owner, reader) => {
    const signal = (await ok(await lookup(owner, 'POST', '/signals', { name: `${owner}'s revenue`, vault, watch: revenueWatch, condition: 'greater_than', threshold: 1, schedule: { interval_seconds: 3600 } }), 201)).signal;
    let sent: Awaited<ReturnType<typeof ok>>;
    const ownerReads = await governedReads(async () => (sent = await ok(await lookup(owner, 'POST', `/signals/${signal.id}/evaluate?send=true`))));
    expect(ownerReads).toEqual([{ user: people[owner].id, origin: `signal:${signal.id}`, cache: 'off' }]);
    expect(sent.value).toBeCloseTo(seen[owner].revenue, 6);
    // The reader sees the signal and may evaluate it dry: with their own keys.
    let dry: Awaited<ReturnType<typeof ok>>;
    const readerReads = await governedReads(async () => (dry = await ok(await lookup(reader, 'POST', `/signals/${signal.id}/evaluate`))));
    expect(readerReads).toEqual([{ user: people[reader].id, origin: `signal:${signal.id}`, cache: 'off' }]);
    expect(dry.value).toBeCloseTo(seen[reader].revenue, 6);
    for (const [what, url, method] of [
      ['a signal read', `/signals/${signal.id}`, 'GET'],
      ['the signal list', '/signals?limit=100', 'GET'],
      ['the evaluation history', `/signals/${signal.id}/evaluations`, 'GET'],
      ['a dry evaluation', `/signals/${signal.id}/evaluate`, 'POST'],
      ['a recorded evaluation', `/signals/${signal.id}/evaluate?send=true`, 'POST'],
    ] as const) {
      expectNothingHidden(reader, await ok(await lookup(reader, method, url, method === 'POST' ? {} : undefined)), what);
    }
    // The owner still reads their own figures.
    expect((await ok(await lookup(owner, 'GET', `/signals/${signal.id}`))).signal.last_value).toBeCloseTo(seen[owner].revenue, 6);
  });

  it.each(pair)('when %s’s signal is changed by %s to watch another region, it reads with the changer’s keys', async (owner, changer) => {
    const signal = (await ok(await lookup(owner, 'POST', '/signals', { name: 'Watched', vault, watch: revenueWatch, condition: 'greater_than', threshold: 1, schedule: { interval_seconds: 60 } }), 201)).signal;
    await ok(await lookup(owner, 'POST', `/signals/${signal.id}/evaluate?send=true`));
    // The changer filters on the owner's region: through the owner's keys this would read the owner's figure.
    const patched = await ok(await lookup(changer, 'PATCH', `/signals/${signal.id}`, { watch: { ...revenueWatch, filters: [{ field: 'ship_region', operator: 'equals', value: people[owner].region }] } }));
    expect(patched.signal.owner).toBe(people[changer].id);
    expect(patched.signal.last_value).toBeNull();
    expectNothingHidden(changer, patched, 'the changed signal');
    const sent = await ok(await lookup(changer, 'POST', `/signals/${signal.id}/evaluate?send=true`));
    expectNothingHidden(changer, sent, 'a recorded evaluation after the change');
    expect(sent.value ?? 0).toBe(0);
    // The scheduler acts as the new owner too.
    t.clock.advance(61_000);
    const scheduled = await governedReads(() => new SignalScheduler(t.services.signalRows, t.services.signals, t.clock, { pollMs: 60_000, batch: 100 }).tick());
    expect(scheduled).toContainEqual({ user: people[changer].id, origin: `signal:${signal.id}`, cache: 'off' });
    expect(scheduled.filter((read) => read.origin === `signal:${signal.id}` && read.user !== people[changer].id)).toEqual([]);
    const read = await ok(await lookup(changer, 'GET', `/signals/${signal.id}`));
    expectNothingHidden(changer, read, 'a scheduled evaluation after the change');
    expectNothingHidden(changer, await ok(await lookup(changer, 'GET', `/signals/${signal.id}/evaluations`)), 'the history after the change');
    // And the former owner, whose keys differ from the new owner's, no longer reads the new figures.
    expectNothingHidden(owner, await ok(await lookup(owner, 'GET', `/signals/${signal.id}/evaluations`)), 'the history after the change');
  });

  it.each(pair)('a signal on a scene %s saved reads the scene with the signal owner’s keys (%s)', async (author, owner) => {
    const scene = await ok(await lookup(author, 'POST', '/scenes', { name: `${author} revenue`, vault, node: 'orders', measures: ['gross_revenue'], visualization: { type: 'number' } }), 201);
    const signal = (await ok(await lookup(owner, 'POST', '/signals', { name: 'On a scene', vault, watch: { scene_id: scene.scene.id }, condition: 'greater_than', threshold: 1, schedule: { interval_seconds: 3600 } }), 201)).signal;
    const sent = await ok(await lookup(owner, 'POST', `/signals/${signal.id}/evaluate?send=true`));
    expect(sent.value).toBeCloseTo(seen[owner].revenue, 6);
    for (const who of [author, owner] as const) {
      expectNothingHidden(who, await ok(await lookup(who, 'GET', `/signals/${signal.id}`)), 'a scene-watching signal');
      expectNothingHidden(who, await ok(await lookup(who, 'POST', `/signals/${signal.id}/evaluate`)), 'a dry evaluation of a scene-watching signal');
    }
  });
});
