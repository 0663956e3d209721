// Rollup matching over rollups linked from CML and queries as the structured API receives them: which
// rollup answers, and the first reason each other one could not. Every expectation holds at any
// TEST_NOW: periods are relative to it, and dates before 2000 are outside every `last N` range.
import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../../test/helpers/clock.js';
import { compileModel } from '../cml/index.js';
import type { CompileOptions } from './compile.js';
import type { SemanticModel, SqlTemplate } from './model.js';
import { semanticQuerySchema, type Filter, type SemanticQueryInput } from './query.js';
import { matchRollup, type RollupMatch } from './rollup-match.js';
import { rollupQueryOf } from './rollup-query.js';
import { ordersNode } from './rollup-test-model.js';
import { anyNullOf, latestOf, rowMarkerOf } from './row-facts.js';

const ROLLUP_MODEL = `node customers {
  connection: warehouse  table: shop.customers
  dimension id { type: number  primary_key: true }
  dimension segment { type: string }
}
${ordersNode(`join customers { relationship: many_to_one  on: \${orders.customer_id} = \${customers.id} }
  rollup daily_region { dimensions: [region, status]  measures: [revenue, order_count, avg_amount, smallest, per_buyer]  time: created_at  grain: day  refresh: on_deploy }
  rollup monthly_region { dimensions: [region]  measures: [aov, buyers]  time: created_at  grain: month  refresh: "1 hour" }
  rollup weekly { dimensions: [region]  measures: [revenue]  time: created_at  grain: week  refresh: on_deploy }
  rollup recent_daily { dimensions: [region]  measures: [revenue]  time: created_at  grain: day  build_range: "last 3 months"  refresh: on_deploy }
  rollup paris_daily { dimensions: [region]  measures: [revenue]  time: created_at  grain: day  timezone: "Europe/Paris"  refresh: on_deploy }
  rollup totals { measures: [revenue, order_count]  refresh: "0 3 * * *" }`)}`;

function rollupModel(source = ROLLUP_MODEL): SemanticModel {
  const { model, diagnostics } = compileModel([{ path: 'rollups.cml', content: source }]);
  // Rollups without `region` are warned about (CML707): they answer only users who see every region.
  expect(diagnostics.filter((d) => d.code !== 'CML707')).toEqual([]);
  return model!;
}

const model = rollupModel();
const ALL = { region: '*' };

function match(query: Partial<SemanticQueryInput>, attributes: Record<string, string> = ALL, derived?: CompileOptions['derived']): RollupMatch {
  const parsed = semanticQuerySchema.parse({ node: 'orders', ...query });
  return matchRollup(model.nodes.get('orders')!.rollups, rollupQueryOf(model, parsed, { attributes, now: TEST_NOW, ...(derived ? { derived } : {}) }));
}

/** The chosen rollup's name and each miss as `rollup: code`. */
function summary(result: RollupMatch): { chosen: string | undefined; misses: Record<string, string> } {
  return { chosen: result.rollup?.name, misses: Object.fromEntries(result.misses.map((m) => [m.rollup, m.code])) };
}

function reasons(result: RollupMatch): Record<string, string> {
  return Object.fromEntries(result.misses.map((m) => [m.rollup, m.reason]));
}

describe('matchRollup', () => {
  it('answers by month from the smallest rollup whose grain builds months, and says why not each other', () => {
    const result = match({ measures: ['revenue'], dimensions: ['created_at.month'] });
    // monthly_region stores revenue because its aov uses it; daily_region has more dimensions.
    expect(summary(result)).toEqual({
      chosen: 'monthly_region',
      misses: { weekly: 'grain_not_derivable', recent_daily: 'outside_build_range', paris_daily: 'timezone_differs', totals: 'lacks_time' },
    });
    expect(reasons(result)).toMatchObject({
      weekly: 'weeks do not make whole months, so grain week cannot answer by month',
      recent_daily: expect.stringMatching(/^the rollup holds created_at from \d{4}-\d{2}-01 on, the query reads all time$/),
      paris_daily: 'the rollup buckets created_at in Europe/Paris, the query reads it in UTC',
      totals: 'the query reads time dimension created_at; the rollup holds no time dimension',
    });
  });

  it('prefers fewer dimensions, then the coarser grain; a rollup without time is the coarsest', () => {
    expect(summary(match({ measures: ['revenue'] })).chosen).toBe('totals');
    // Limited to one region, the rollups without region cannot keep the user to their rows.
    const limited = match({ measures: ['revenue'] }, { region: 'EU' });
    expect(limited.rollup?.name).toBe('monthly_region');
    expect(reasons(limited)['totals']).toBe('data key field region is not in the rollup, so it could not keep each user to their rows');
    // A caller without the attribute sees no rows; the key still limits them.
    expect(match({ measures: ['revenue'] }, {}).rollup?.name).toBe('monthly_region');
  });

  it('answers by day only from day rollups in the query zone, and reports coarser grains', () => {
    const utc = match({ measures: ['revenue'], dimensions: ['region', 'created_at.day'] });
    expect(summary(utc)).toEqual({
      chosen: 'daily_region',
      misses: { monthly_region: 'grain_too_coarse', weekly: 'grain_too_coarse', recent_daily: 'outside_build_range', paris_daily: 'timezone_differs', totals: 'lacks_dimension' },
    });
    expect(reasons(utc)['monthly_region']).toBe('grain month is coarser than day');
    expect(match({ measures: ['revenue'], dimensions: ['created_at.week'] }).rollup?.name).toBe('weekly');
    expect(match({ measures: ['revenue'], dimensions: ['created_at.day'], timezone: 'Europe/Paris' }).rollup?.name).toBe('paris_daily');
  });

  it('names the missing measure, dimension, filter field and joined field', () => {
    expect(reasons(match({ measures: ['smallest'] }))['totals']).toBe('lacks measure smallest');
    expect(reasons(match({ measures: ['revenue'], dimensions: ['status'] }))['monthly_region']).toBe('lacks dimension status');
    const channel = match({ measures: ['revenue'], filters: [{ field: 'channel', operator: 'equals', value: 'web' }] });
    expect(channel.rollup).toBeUndefined();
    expect(new Set(channel.misses.map((m) => m.code))).toEqual(new Set(['lacks_filter_field']));
    expect(reasons(channel)['totals']).toBe('lacks dimension channel, which a filter reads');
    const joined = match({ measures: ['revenue'], dimensions: ['customers.segment'] });
    expect(joined.rollup).toBeUndefined();
    expect(reasons(joined)['totals']).toBe('lacks dimension customers.segment');
    const having = match({ measures: ['revenue'], dimensions: ['region'], filters: [{ field: 'smallest', operator: 'gt', value: 5 }] });
    expect(summary(having).chosen).toBe('daily_region');
    expect(reasons(having)['weekly']).toBe('lacks measure smallest, which a filter reads');
  });

  it('reads averages, ratios and formulas from the rollups that store their parts', () => {
    expect(match({ measures: ['avg_amount'], dimensions: ['status'] }).rollup?.name).toBe('daily_region');
    expect(match({ measures: ['aov', 'order_count'], dimensions: ['created_at.year'] }).rollup?.name).toBe('monthly_region');
  });

  it('answers a distinct count only at the rollup exact grain and dimensions', () => {
    expect(match({ measures: ['buyers'], dimensions: ['region', 'created_at.month'] }).rollup?.name).toBe('monthly_region');
    const quarter = match({ measures: ['buyers'], dimensions: ['region', 'created_at.quarter'] });
    expect(quarter.rollup).toBeUndefined();
    expect(quarter.misses.find((m) => m.rollup === 'monthly_region')).toEqual({
      rollup: 'monthly_region',
      code: 'needs_exact_grain',
      reason: "buyers is a count distinct (or computed from one): it needs the rollup's exact grain and dimensions, since its groups do not add up",
    });
    expect(summary(match({ measures: ['buyers'], dimensions: ['created_at.month'] })).misses['monthly_region']).toBe('needs_exact_grain');
    // A ratio over a distinct count inherits the rule.
    expect(match({ measures: ['per_buyer'], dimensions: ['region', 'status', 'created_at.day'] }).rollup?.name).toBe('daily_region');
    expect(summary(match({ measures: ['per_buyer'], dimensions: ['region', 'created_at.day'] })).misses['daily_region']).toBe('needs_exact_grain');
  });

  it('uses a time filter only when its bounds fall on bucket boundaries', () => {
    const march = { field: 'created_at', operator: 'inDateRange', value: ['2024-03-01', '2024-03-31'] };
    expect(match({ measures: ['revenue'], dimensions: ['created_at.month'], filters: [march] }).rollup?.name).toBe('monthly_region');
    const noon = match({ measures: ['revenue'], filters: [{ field: 'created_at', operator: 'gte', value: '2024-03-01T12:00:00' }] });
    expect(summary(noon).misses['daily_region']).toBe('filter_off_grain');
    expect(reasons(noon)['daily_region']).toBe('a filter on created_at cuts at 2024-03-01 12:00:00, inside a day of the rollup');
    const midMonth = match({ measures: ['revenue'], filters: [{ field: 'created_at', operator: 'before', value: '2024-03-15' }] });
    expect(summary(midMonth)).toMatchObject({ chosen: 'daily_region', misses: { monthly_region: 'filter_off_grain' } });
    const instant = match({ measures: ['revenue'], filters: [{ field: 'created_at', operator: 'after', value: '2024-03-01T00:00:00' }] });
    expect(instant.rollup).toBeUndefined();
    // Compared with an instant, a timestamp's rows at that instant fall on one side only.
    expect(match({ measures: ['revenue'], filters: [{ field: 'created_at', operator: 'gt', value: '2024-03-01' }] }).rollup).toBeUndefined();
    expect(match({ measures: ['revenue'], filters: [{ field: 'created_at', operator: 'between', value: ['2024-03-01', '2024-03-31'] }] }).rollup).toBeUndefined();
    const bucketed = match({ measures: ['revenue'], filters: [{ field: 'created_at.month', operator: 'equals', value: '2024-03-01' }] });
    expect(bucketed.rollup?.name).toBe('monthly_region');
  });

  it('reads comparisons of a date dimension as whole days', () => {
    const byDay = rollupModel(ordersNode('rollup monthly_on { measures: [revenue]  time: ordered_on  grain: month  timezone: "Europe/Paris"  refresh: on_deploy }'));
    const on = (filter: Filter) =>
      matchRollup(byDay.nodes.get('orders')!.rollups, rollupQueryOf(byDay, semanticQuerySchema.parse({ node: 'orders', measures: ['revenue'], filters: [filter] }), { attributes: ALL, now: TEST_NOW }));
    expect(on({ field: 'ordered_on', operator: 'between', value: ['2024-03-01', '2024-04-30'] }).rollup?.name).toBe('monthly_on');
    expect(on({ field: 'ordered_on', operator: 'gt', value: '2024-02-29' }).rollup?.name).toBe('monthly_on');
    expect(on({ field: 'ordered_on', operator: 'in', value: ['2024-03-01'] }).misses).toEqual([
      { rollup: 'monthly_on', code: 'filter_off_grain', reason: 'a filter on ordered_on cuts at 2024-03-02 00:00:00, inside a month of the rollup' },
    ]);
    // A date has no zone: the query's (UTC) need not be the rollup's.
    expect(on({ field: 'ordered_on', operator: 'inDateRange', value: ['2024-03-01', '2024-03-31'] }).rollup?.name).toBe('monthly_on');
  });

  it('answers from a rollup built over recent rows only when the query reads no time before them', () => {
    const recent = { measures: ['revenue'], dimensions: ['region', 'created_at.day'] };
    expect(match({ ...recent, filters: [{ field: 'created_at', operator: 'inThePast', value: '1 month' }] }).rollup?.name).toBe('recent_daily');
    const old = match({ ...recent, filters: [{ field: 'created_at', operator: 'inDateRange', value: ['1999-01-01', '1999-12-31'] }] });
    expect(summary(old)).toMatchObject({ chosen: 'daily_region', misses: { recent_daily: 'outside_build_range' } });
    expect(reasons(old)['recent_daily']).toMatch(/the query reads from 1999-01-01$/);
    // A bound inside `or` bounds nothing.
    const either = { or: [{ field: 'created_at', operator: 'inThePast', value: '1 month' }, { field: 'region', operator: 'equals', value: 'EU' }] };
    expect(summary(match({ ...recent, filters: [either] })).misses['recent_daily']).toBe('outside_build_range');
  });

  it('derives date parts from fine enough grains, and never answers the instants themselves', () => {
    expect(match({ measures: ['revenue'], dimensions: ['created_at.day_of_week'] }).rollup?.name).toBe('daily_region');
    expect(reasons(match({ measures: ['revenue'], dimensions: ['created_at.day_of_week'] }))['monthly_region']).toBe('grain month is coarser than day_of_week (read from days)');
    expect(match({ measures: ['revenue'], dimensions: ['created_at.month_of_year'] }).rollup?.name).toBe('monthly_region');
    const raw = match({ measures: ['revenue'], dimensions: ['created_at'] });
    expect(raw.rollup).toBeUndefined();
    expect(reasons(raw)['daily_region']).toBe('grain day is coarser than the instants of created_at the query reads');
    expect(summary(match({ measures: ['revenue'], dimensions: ['ordered_on'] })).misses['daily_region']).toBe('lacks_time');
  });

  it('counts what extra columns read: the measures of a metric, the rows of a raw aggregate', () => {
    const text = (t: string) => ({ kind: 'text', text: t }) as const;
    const extra = (template: SqlTemplate) => [{ key: 'extra', template }];
    const metric = match({ measures: ['revenue'] }, ALL, extra([{ kind: 'measure', node: 'orders', name: 'smallest' }, text(' * 2')]));
    expect(summary(metric).chosen).toBe('daily_region');
    expect(reasons(metric)['totals']).toBe('lacks measure smallest');
    // A formula of its own over source rows: no stored group can redo it, whatever the rollup holds.
    const statuses = match({ measures: ['revenue'] }, ALL, extra([text('COUNT(DISTINCT '), { kind: 'dimension', node: 'orders', name: 'status' }, text(')')]));
    expect(summary(statuses).chosen).toBeUndefined();
    expect(reasons(statuses)['monthly_region']).toBe('lacks dimension status, which an extra column aggregates');
    expect(reasons(statuses)['daily_region']).toBe('extra column extra aggregates source rows itself, which stored groups cannot redo');
    const counted = match({ measures: ['revenue'] }, ALL, extra([{ kind: 'measure', node: 'orders', name: 'revenue' }, text(' / count(*)')]));
    expect(summary(counted).misses['daily_region']).toBe('reads_source_rows');
    const latest = match({ measures: ['revenue'] }, ALL, extra([text('MAX('), { kind: 'dimension', node: 'orders', name: 'created_at' }, text(')')]));
    expect(latest.rollup).toBeUndefined();
    expect(reasons(latest)['daily_region']).toBe('extra column extra aggregates source rows itself, which stored groups cannot redo');
    expect(summary(match({ measures: ['revenue'] }, ALL, extra([text('COUNT('), { kind: 'table', node: 'orders' }, text('.id)')]))).chosen).toBeUndefined();
  });

  it('reads the facts of a question from stored groups: the latest time, whether rows exist, empty values', () => {
    const orders = model.nodes.get('orders')!;
    const part = (name: string) => ({ kind: 'dimension', node: 'orders', name }) as const;
    const facts = [latestOf('latest', part('created_at')), rowMarkerOf('rows', orders)!, anyNullOf('empty', [part('region')])];
    const answered = match({ measures: ['revenue'] }, ALL, facts);
    expect(summary(answered).chosen).toBe('monthly_region');
    // Only a rollup by created_at keeps its latest time; one without region cannot tell an empty region.
    expect(reasons(answered)['totals']).toBe('lacks dimension region, which an extra column aggregates');
    expect(reasons(match({ measures: ['revenue'] }, ALL, [latestOf('latest', part('created_at'))]))['totals']).toBe('the query reads the latest time of created_at; the rollup holds no time dimension');
    expect(summary(match({ measures: ['revenue'] }, ALL, [latestOf('latest', part('ordered_on'))])).misses['daily_region']).toBe('lacks_time');
    const empty = match({ measures: ['revenue'] }, ALL, [anyNullOf('empty', [part('status')])]);
    expect(summary(empty).chosen).toBe('daily_region');
    expect(reasons(empty)['totals']).toBe('lacks dimension status, which an extra column aggregates');
    expect(summary(match({ measures: ['order_count'] }, ALL, [rowMarkerOf('rows', orders)!])).chosen).toBe('totals');
    // The time bucket is empty exactly when the time is: a rollup by created_at tells it, in any zone.
    expect(summary(match({ measures: ['revenue'] }, ALL, [anyNullOf('empty', [part('created_at')])])).chosen).toBe('monthly_region');
  });

  it('has no rollup to offer a node without any', () => {
    const parsed = semanticQuerySchema.parse({ node: 'customers', dimensions: ['segment'] });
    expect(matchRollup(model.nodes.get('customers')!.rollups, rollupQueryOf(model, parsed, { attributes: ALL, now: TEST_NOW }))).toEqual({ rollup: undefined, misses: [] });
    const orders = rollupQueryOf(model, parsed, { attributes: ALL, now: TEST_NOW });
    expect(matchRollup(model.nodes.get('orders')!.rollups, orders).misses[0]).toMatchObject({ code: 'other_node' });
  });
});
