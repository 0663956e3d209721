// Properties of rollup matching over random rollups (written in CML and linked) and random queries: a
// chosen rollup holds every field the query reads, at a grain that builds the query's, and is the
// smallest of those that can answer; without filters, exactly the rollups an independent reading of
// the rules accepts can answer. The oracle below restates the rules from docs/cml.md, not the code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../../test/helpers/clock.js';
import { compileModel } from '../cml/index.js';
import type { Filter } from './query.js';
import { semanticQuerySchema } from './query.js';
import { matchRollup, ROLLUP_MISS_CODES } from './rollup-match.js';
import type { Rollup } from './rollup-model.js';
import { rollupQueryOf } from './rollup-query.js';
import { ordersNode } from './rollup-test-model.js';


const DIMENSIONS = ['region', 'status', 'channel'] as const;
const MEASURES = ['order_count', 'revenue', 'avg_amount', 'smallest', 'buyers', 'per_buyer', 'aov'] as const;
const GRAINS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
const ZONES = ['UTC', 'Europe/Paris'] as const;
/** What each measure needs stored: itself and, for a formula, what it reads. */
const NEEDS: Record<string, readonly string[]> = { per_buyer: ['revenue', 'buyers'], aov: ['revenue', 'order_count'] };
const DISTINCT = new Set(['buyers', 'per_buyer']);
/** Query grain ← rollup grains that build it, written out rather than computed. */
const BUILT_FROM: Record<string, readonly string[]> = {
  hour: ['hour'],
  day: ['hour', 'day'],
  week: ['hour', 'day', 'week'],
  month: ['hour', 'day', 'month'],
  quarter: ['hour', 'day', 'month', 'quarter'],
  year: ['hour', 'day', 'month', 'quarter', 'year'],
};

interface RollupSpec {
  dimensions: string[];
  measures: string[];
  grain: string | null;
  zone: string;
  range: boolean;
}

const subset = <T,>(items: readonly T[], minLength = 0) => fc.subarray([...items], { minLength });

const rollupSpec: fc.Arbitrary<RollupSpec> = fc.record({
  dimensions: subset(DIMENSIONS),
  measures: subset(MEASURES, 1),
  grain: fc.option(fc.constantFrom(...GRAINS)),
  zone: fc.constantFrom(...ZONES),
  range: fc.boolean(),
});

function cml(specs: readonly RollupSpec[]): string {
  const blocks = specs.map((s, i) => {
    const time = s.grain ? `  time: created_at  grain: ${s.grain}${s.range ? '  build_range: "last 3 months"' : ''}` : '';
    return `  rollup r${i} { dimensions: [${s.dimensions.join(', ')}]  measures: [${s.measures.join(', ')}]  timezone: "${s.zone}"  refresh: on_deploy${time} }`;
  });
  return ordersNode(blocks.join('\n'));
}

const FILTERS: Record<string, Filter> = {
  channel: { field: 'channel', operator: 'equals', value: 'web' },
  status: { field: 'status', operator: 'in', value: ['paid', 'shipped'] },
  smallest: { field: 'smallest', operator: 'gt', value: 10 },
  lastMonths: { field: 'created_at', operator: 'inThePast', value: '2 months' },
};

const querySpec = fc.record({
  measures: subset(MEASURES, 1),
  dimensions: subset(DIMENSIONS),
  grain: fc.option(fc.constantFrom(...GRAINS)),
  filters: subset(Object.keys(FILTERS)),
  zone: fc.constantFrom(...ZONES),
  limited: fc.boolean(),
});
type QuerySpec = typeof querySpec extends fc.Arbitrary<infer T> ? T : never;

/** The rules of docs/cml.md ("Which rollup answers a query"), for the fields these queries read. */
function canAnswer(spec: RollupSpec, query: QuerySpec): boolean {
  const stored = new Set(spec.measures.flatMap((m) => [m, ...(NEEDS[m] ?? [])]));
  const filterMeasures = query.filters.filter((f) => f === 'smallest');
  const filterDimensions = query.filters.filter((f) => f === 'channel' || f === 'status');
  const readsTime = query.grain !== null || query.filters.includes('lastMonths');
  if (![...query.measures, ...filterMeasures].every((m) => stored.has(m))) return false;
  if (![...query.dimensions, ...filterDimensions].every((d) => spec.dimensions.includes(d))) return false;
  if (query.limited && !spec.dimensions.includes('region')) return false;
  if (readsTime && (spec.grain === null || spec.zone !== query.zone)) return false;
  if (query.grain !== null && !BUILT_FROM[query.grain]!.includes(spec.grain!)) return false;
  // "in the past 2 months" cuts at two month starts: hour, day and month buckets start there, while
  // weeks, quarters and years do not always; it stays within "last 3 months".
  if (query.filters.includes('lastMonths') && !['hour', 'day', 'month'].includes(spec.grain!)) return false;
  if (spec.range && spec.grain !== null && !query.filters.includes('lastMonths')) return false;
  const distinct = [...query.measures, ...filterMeasures].some((m) => DISTINCT.has(m));
  if (distinct) {
    const sameDimensions = query.dimensions.length === spec.dimensions.length && spec.dimensions.every((d) => (query.dimensions as string[]).includes(d));
    if (!sameDimensions || query.grain !== spec.grain) return false;
  }
  return true;
}

function run(specs: readonly RollupSpec[], query: QuerySpec) {
  const { model, diagnostics } = compileModel([{ path: 'r.cml', content: cml(specs) }]);
  // Rollups without `region` are warned about (CML707): they answer only users who see every region.
  expect(diagnostics.filter((d) => d.code !== 'CML707')).toEqual([]);
  const rollups = model!.nodes.get('orders')!.rollups;
  const parsed = semanticQuerySchema.parse({
    node: 'orders',
    measures: query.measures,
    dimensions: [...query.dimensions, ...(query.grain ? [`created_at.${query.grain}`] : [])],
    filters: query.filters.map((f) => FILTERS[f]!),
    timezone: query.zone,
  });
  const attributes = { region: query.limited ? 'EU' : '*' };
  return { rollups, result: matchRollup(rollups, rollupQueryOf(model!, parsed, { attributes, now: TEST_NOW })) };
}

/** Smaller first: fewer dimensions, then coarser grain, no time coarsest. */
const rank = (r: Rollup) => r.dimensions.length * 10 - (r.time ? GRAINS.indexOf(r.time.grain) : GRAINS.length);

describe('matchRollup properties', () => {
  it('a chosen rollup holds every field of the query and is the smallest that can answer', () => {
    fc.assert(
      fc.property(fc.array(rollupSpec, { minLength: 1, maxLength: 5 }), querySpec, (specs, query) => {
        const { rollups, result } = run(specs, query);
        const missed = new Set(result.misses.map((m) => m.rollup));
        expect(result.misses.every((m) => (ROLLUP_MISS_CODES as readonly string[]).includes(m.code) && m.reason.length > 0)).toBe(true);
        const usable = rollups.filter((r) => !missed.has(r.name));
        expect(usable.length > 0).toBe(result.rollup !== undefined);
        if (!result.rollup) return;
        const index = rollups.indexOf(result.rollup);
        expect(canAnswer(specs[index]!, query)).toBe(true);
        for (const other of usable) expect(rank(other)).toBeGreaterThanOrEqual(rank(result.rollup));
      }),
      { numRuns: 300 },
    );
  });

  it('without time filters, exactly the rollups the rules accept can answer', () => {
    const noTimeFilter = querySpec.map((q) => ({ ...q, filters: q.filters.filter((f) => f !== 'lastMonths') }));
    fc.assert(
      fc.property(fc.array(rollupSpec, { minLength: 1, maxLength: 5 }), noTimeFilter, (specs, query) => {
        const { rollups, result } = run(specs, query);
        const missed = new Set(result.misses.map((m) => m.rollup));
        rollups.forEach((rollup, i) => expect(!missed.has(rollup.name), `${rollup.name} ${JSON.stringify(specs[i])}`).toBe(canAnswer(specs[i]!, query)));
      }),
      { numRuns: 300 },
    );
  });
});
