// Signals that watch a change over time and ratio measures, over the real stack (PGlite store, DuckDB
// demo warehouse): a metric watch with `compare` watches the change (or change in percent) of its
// measure against the period before or a year before, checked against hand-written SQL at the
// threshold's edge; each owner's data keys hold for both periods; evaluations, the signal and the
// signal.triggered event keep both numbers; a CML ratio measure is watched like any measure; a scene
// watch reads any column of a scene that compares; and bad watches are 400s naming what is wrong.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir, setUpDemo } from '../../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signal-compare-'));
// The demo's data ends at this instant (a Wednesday); evaluations read "now" from the app's clock, started here.
const NOW = new Date('2025-06-18T10:00:00Z');
// The periods `last_week` and `last_month` name at NOW in the workspace zone (UTC), and those before them.
const LAST_WEEK = ['2025-06-09', '2025-06-16'] as const;
const WEEK_BEFORE = ['2025-06-02', '2025-06-09'] as const;
const LAST_MONTH = ['2025-05-01', '2025-06-01'] as const;
const MONTH_BEFORE = ['2025-04-01', '2025-05-01'] as const;
const MAY_A_YEAR_BEFORE = ['2024-05-01', '2024-06-01'] as const;

let t: TestApp;
let ws: SeededWorkspace;
const keys: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir }, clock: new TestClock(NOW) });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 2000 });
  const content = ['query', 'models:read', 'content:read', 'content:write'];
  keys.luminary = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: [...content, 'models:write'] })).value;
  keys.editor = (await createKey(t.services, ws, 'editor', 'structured', { scopes: content })).value;
  // The editor sees the orders shipped to Europe only (data key `region`); the luminary sees every region.
  await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region: 'Europe' });
  // A ratio measure, as CML declares one: completed orders over all orders, divided after aggregation.
  const files = await readModelDir(DEMO_MODEL_DIR);
  const withRatio = files.map((f) =>
    f.path === 'orders.cml'
      ? { ...f, content: f.content.replace(/^(\s*)measure order_count .*$/m, (line, indent: string) => `${line}\n${indent}measure completed_share { type: ratio  numerator: completed_orders  denominator: order_count }`) }
      : f,
  );
  const deployed = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: withRatio });
  expect(deployed.statusCode, deployed.body).toBe(200);
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function c(who: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

interface Compared {
  current: number | null;
  comparison: number | null;
  range: string[];
  comparison_range: string[];
}

async function created(who: string, body: Record<string, unknown>) {
  const response = await c(who, 'POST', '/signals', { name: 'Change', condition: 'greater_than', threshold: 0, schedule: { interval_seconds: 3600 }, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().signal as { id: string };
}

async function evaluate(who: string, id: string, send = true) {
  const response = await c(who, 'POST', `/signals/${id}/evaluate${send ? '?send=true' : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { value: number | null; compared: Compared | null; would_fire: boolean; state: string; error: string | null };
}

async function firedEvents(id: string) {
  const rows = await t.store.db.selectFrom('events').selectAll().where('type', '=', 'signal.triggered').where(sql<boolean>`payload->>'signal_id' = ${id}`).orderBy('created_at').execute();
  return rows.map((r) => r.payload as Record<string, unknown>);
}

/** One number per period, by hand: `expression` over the orders of [from, to), for one region or all. */
async function perPeriod(expression: string, periods: ReadonlyArray<readonly [string, string]>, region?: string): Promise<number[]> {
  const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
  const columns = periods.map(([from, to], i) => `(SELECT ${expression} FROM shop.orders WHERE created_at >= TIMESTAMP '${from}' AND created_at < TIMESTAMP '${to}'${region ? ` AND ship_region = '${region}'` : ''}) AS p${i}`);
  const row = (await warehouse.run(`SELECT ${columns.join(', ')}`, [], { maxRows: 1, timeoutMs: 10_000 })).rows[0]!;
  return periods.map((_, i) => Number(row[`p${i}`]));
}

const wall = (range: readonly [string, string]) => range.map((day) => `${day}T00:00:00.000`);
const weeklyChange = { node: 'orders', measure: 'order_count', time_field: 'created_at', period: 'last_week', compare: 'previous_period' };

describe('a metric watch with compare', () => {
  it('watches the order count change against the week before, and triggers exactly past its threshold', async () => {
    const [current, comparison] = await perPeriod('COUNT(*)', [LAST_WEEK, WEEK_BEFORE]);
    const change = current! - comparison!;
    expect(current).toBeGreaterThan(0);
    const signal = await created('luminary', { name: 'Orders vs last week', watch: weeklyChange, threshold: change });
    const compared = { current, comparison, range: wall(LAST_WEEK), comparison_range: wall(WEEK_BEFORE) };
    // greater_than the change itself: does not hold.
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: change, compared, would_fire: false, state: 'ok', error: null });
    expect(await firedEvents(signal.id)).toHaveLength(0);
    // One below it: holds, fires once, with both numbers in the event.
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: change - 1 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: change, compared, would_fire: true, state: 'triggered' });
    const events = await firedEvents(signal.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ signal_id: signal.id, value: change, threshold: change - 1, condition: 'greater_than', compared });
    // The signal and its history keep both numbers.
    expect((await c('luminary', 'GET', `/signals/${signal.id}`)).json().signal).toMatchObject({ state: 'triggered', last_value: change, last_compared: compared, watch: weeklyChange });
    const history = (await c('luminary', 'GET', `/signals/${signal.id}/evaluations`)).json().evaluations;
    expect(history.map((e: { value: number; compared: Compared; fired: boolean }) => [e.value, e.compared, e.fired])).toEqual([
      [change, compared, true],
      [change, compared, false],
    ]);
    // less_than one above the change holds too; less_than the change does not.
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { condition: 'less_than', threshold: change });
    expect(await evaluate('luminary', signal.id, false)).toMatchObject({ value: change, would_fire: false, state: 'ok' });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: change + 1 });
    expect(await evaluate('luminary', signal.id, false)).toMatchObject({ value: change, would_fire: true, state: 'triggered' });
    // Every period ran through the governed path, recorded with the signal as its origin.
    await t.services.rawSql.flush();
    const runs = await t.store.db.selectFrom('query_history').select('sql').where('origin', '=', `signal:${signal.id}`).execute();
    expect(runs.length).toBe(8);
  });

  it('watches the change in percent against the same period a year before', async () => {
    const [current, comparison] = await perPeriod('COUNT(*)', [LAST_MONTH, MAY_A_YEAR_BEFORE]);
    expect(comparison).toBeGreaterThan(0);
    const percent = ((current! - comparison!) / comparison!) * 100;
    const watch = { node: 'orders', measure: 'order_count', time_field: 'created_at', period: 'last_month', compare: 'previous_year', value: 'change_percent' };
    const signal = await created('luminary', { name: 'Orders vs a year before', watch, condition: 'greater_than', threshold: percent - 0.01 });
    const read = await evaluate('luminary', signal.id);
    expect(read.value).toBeCloseTo(percent, 9);
    expect(read).toMatchObject({ compared: { current, comparison, range: wall(LAST_MONTH), comparison_range: wall(MAY_A_YEAR_BEFORE) }, would_fire: true });
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { threshold: percent + 0.01 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ would_fire: false, state: 'ok' });
  });

  it("reads both periods with each owner's data keys: two owners of the same watch get their own numbers", async () => {
    const all = await perPeriod('COUNT(*)', [LAST_WEEK, WEEK_BEFORE]);
    const europe = await perPeriod('COUNT(*)', [LAST_WEEK, WEEK_BEFORE], 'Europe');
    // Other regions had orders that week: the two owners' numbers differ.
    expect(europe[0]).toBeLessThan(all[0]!);
    const mine = await created('editor', { name: 'Europe vs last week', watch: weeklyChange });
    const theirs = await created('luminary', { name: 'All vs last week', watch: weeklyChange });
    const europeRead = await evaluate('editor', mine.id);
    const allRead = await evaluate('luminary', theirs.id);
    expect(europeRead).toMatchObject({ value: europe[0]! - europe[1]!, compared: { current: europe[0], comparison: europe[1] } });
    expect(allRead).toMatchObject({ value: all[0]! - all[1]!, compared: { current: all[0], comparison: all[1] } });
    // A recorded evaluation is the owner's, whoever asks for it; a dry one reads with the caller's keys.
    expect((await c('luminary', 'POST', `/signals/${mine.id}/evaluate?send=true`)).json()).toMatchObject({ value: null, compared: null, values_hidden: expect.stringMatching(/data keys/) });
    expect((await c('editor', 'GET', `/signals/${mine.id}`)).json().signal).toMatchObject({ last_value: europe[0]! - europe[1]!, last_compared: { current: europe[0], comparison: europe[1] } });
    // The luminary's keys show other rows than the editor's: the editor's comparison is hidden from them.
    expect((await c('luminary', 'GET', `/signals/${mine.id}`)).json().signal).toMatchObject({ last_value: null, last_compared: null });
    expect((await c('luminary', 'GET', `/signals/${mine.id}/evaluations`)).json().evaluations[0]).toMatchObject({ value: null, compared: null });
    expect(await evaluate('luminary', mine.id, false)).toMatchObject({ value: all[0]! - all[1]!, compared: { current: all[0], comparison: all[1] } });
  });

  it('records what was compared when the change has no value: a change in percent from 0 is an error naming why', async () => {
    // A region no order ships to: 0 in both periods.
    const watch = { ...weeklyChange, value: 'change_percent', filters: [{ field: 'ship_region', operator: 'equals', value: 'Antarctica' }] };
    const signal = await created('luminary', { name: 'Nowhere', watch });
    const read = await evaluate('luminary', signal.id);
    expect(read).toMatchObject({ value: null, state: 'error', compared: { current: 0, comparison: 0 } });
    expect(read.error).toMatch(/order_count\.change_percent.*comparison period \[2025-06-02T00:00:00\.000, 2025-06-09T00:00:00\.000\) is 0/);
    expect((await c('luminary', 'GET', `/signals/${signal.id}/evaluations`)).json().evaluations[0]).toMatchObject({ state: 'error', value: null, compared: { current: 0, comparison: 0 } });
    expect(await firedEvents(signal.id)).toHaveLength(0);
    // Its change in count is 0, a value.
    await c('luminary', 'PATCH', `/signals/${signal.id}`, { watch: { ...watch, value: 'change' }, condition: 'equals', threshold: 0 });
    expect(await evaluate('luminary', signal.id)).toMatchObject({ value: 0, state: 'triggered', error: null });
  });
});

describe('a ratio measure', () => {
  it('is watched like any measure: completed orders over all orders of last month', async () => {
    const [completed, orders] = [await perPeriod(`COUNT(*) FILTER (WHERE status = 'completed')`, [LAST_MONTH]), await perPeriod('COUNT(*)', [LAST_MONTH])];
    const share = completed[0]! / orders[0]!;
    expect(share).toBeGreaterThan(0);
    const signal = await created('luminary', { name: 'Completion', watch: { node: 'orders', measure: 'completed_share', time_field: 'created_at', period: 'last_month' }, condition: 'less_than', threshold: 1 });
    const read = await evaluate('luminary', signal.id);
    expect(read.value).toBeCloseTo(share, 12);
    expect(read).toMatchObject({ compared: null, would_fire: true, state: 'triggered' });
  });

  it('and its change: the ratio of each period, not an average of ratios', async () => {
    const completed = await perPeriod(`COUNT(*) FILTER (WHERE status = 'completed')`, [LAST_MONTH, MONTH_BEFORE], 'Europe');
    const orders = await perPeriod('COUNT(*)', [LAST_MONTH, MONTH_BEFORE], 'Europe');
    const [current, comparison] = [completed[0]! / orders[0]!, completed[1]! / orders[1]!];
    const watch = { node: 'orders', measure: 'completed_share', time_field: 'created_at', period: 'last_month', compare: 'previous_period' };
    const signal = await created('editor', { name: 'Completion change', watch, condition: 'changes_by_percent', threshold: 1 });
    const read = await evaluate('editor', signal.id);
    expect(read.value).toBeCloseTo(current - comparison, 12);
    expect(read.compared!.current).toBeCloseTo(current, 12);
    expect(read.compared!.comparison).toBeCloseTo(comparison, 12);
    expect(read.compared!.comparison_range).toEqual(wall(MONTH_BEFORE));
    // A percent condition compares with the previous evaluation's value: the first one has none.
    expect(read).toMatchObject({ would_fire: false, state: 'ok' });
  });
});

describe('a scene watch over a scene that compares', () => {
  it("watches the scene's first measure (the current value) by default, or the column `key` names", async () => {
    const scene = (
      await c('luminary', 'POST', '/scenes', {
        name: 'May against a year before',
        node: 'orders',
        measures: ['order_count', 'gross_revenue'],
        compare: { dimension: 'created_at', range: [...LAST_MONTH], to: 'previous_year' },
        visualization: { type: 'number' },
      })
    ).json().scene;
    const [current, comparison] = await perPeriod('COUNT(*)', [LAST_MONTH, MAY_A_YEAR_BEFORE]);
    const [revenue, revenueBefore] = await perPeriod('SUM(amount)', [LAST_MONTH, MAY_A_YEAR_BEFORE]);
    const compared = { current, comparison, range: wall(LAST_MONTH), comparison_range: wall(MAY_A_YEAR_BEFORE) };
    const plain = await created('luminary', { name: 'Scene current', watch: { scene_id: scene.id } });
    expect(await evaluate('luminary', plain.id)).toMatchObject({ value: current, compared });
    const percent = await created('luminary', { name: 'Scene percent', watch: { scene_id: scene.id, key: 'order_count.change_percent' } });
    const read = await evaluate('luminary', percent.id);
    expect(read.value).toBeCloseTo(((current! - comparison!) / comparison!) * 100, 9);
    expect(read.compared).toEqual(compared);
    // A key of the second measure records that measure's two periods.
    const revenueChange = await created('luminary', { name: 'Scene revenue', watch: { scene_id: scene.id, key: 'gross_revenue.change' } });
    const revenueRead = await evaluate('luminary', revenueChange.id);
    expect(revenueRead.value).toBeCloseTo(revenue! - revenueBefore!, 6);
    expect(revenueRead.compared!.current).toBeCloseTo(revenue!, 6);
    // A key the scene's answer lacks, or a column that is no number, is refused when saved.
    for (const key of ['order_count.share', 'created_at.partial']) {
      const refused = await c('luminary', 'POST', '/signals', { name: 'Bad key', watch: { scene_id: scene.id, key }, condition: 'greater_than', threshold: 0, schedule: { interval_seconds: 3600 } });
      expect([refused.statusCode, refused.json().code]).toEqual([400, 'invalid_signal']);
      expect(refused.json().error).toContain(`"${key}"`);
      expect(refused.json().error).toContain('order_count.change_percent');
    }
    // Once the scene stops comparing, the watched change is gone: an evaluation error naming it.
    expect((await c('luminary', 'PATCH', `/scenes/${scene.id}`, { compare: null })).statusCode).toBe(200);
    const gone = await evaluate('luminary', percent.id);
    expect(gone).toMatchObject({ value: null, state: 'error', compared: null });
    expect(gone.error).toMatch(/order_count\.change_percent/);
    const [everyOrder] = await perPeriod('COUNT(*)', [['1970-01-01', '2100-01-01']]);
    expect(await evaluate('luminary', plain.id)).toMatchObject({ value: everyOrder, compared: null });
  });
});

describe('bad watches are a 400 naming what is wrong', () => {
  const base = { node: 'orders', measure: 'order_count' };
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['compare without a period or time field', { ...base, compare: 'previous_period' }, /watch\.compare needs watch\.period and watch\.time_field/],
    ['compare without a period', { ...base, time_field: 'created_at', compare: 'previous_year' }, /watch\.compare needs watch\.period:/],
    ['compare without a time field', { ...base, period: 'last_week', compare: 'previous_period' }, /watch\.compare needs watch\.time_field:/],
    ['a value without compare', { ...base, time_field: 'created_at', period: 'last_week', value: 'change' }, /watch\.value .*needs watch\.compare/],
    ['compare over a dimension that is no time', { ...base, time_field: 'status', period: 'last_week', compare: 'previous_period' }, /status/],
    ['an unknown comparison', { ...base, time_field: 'created_at', period: 'last_week', compare: 'previous_decade' }, /body\.watch: compare: Invalid option: expected one of "previous_period"\|"previous_year"/],
    ['an unknown value', { ...base, time_field: 'created_at', period: 'last_week', compare: 'previous_period', value: 'ratio' }, /body\.watch: value: Invalid option/],
    ['an unknown key in a scene watch', { scene_id: '00000000-0000-4000-8000-000000000000', column: 'x' }, /body\.watch: Unrecognized key: "column"/],
  ])('refuses %s', async (_case, watch, message) => {
    const response = await c('luminary', 'POST', '/signals', { name: 'Bad', watch, condition: 'greater_than', threshold: 0, schedule: { interval_seconds: 3600 } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatch(message);
  });
});
