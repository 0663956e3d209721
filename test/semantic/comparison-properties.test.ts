// Properties of comparisons and shares over random queries, on every engine present: a share over every
// group of its total sums to 1; a period compared with itself changes by 0; and previous_period of a
// time grain is, row for row, the value an ordinary query of that grain gives the bucket before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SemanticQueryInput } from '../../src/core/semantic/query.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { runComposed, runPlain } from './composed.js';
import { answersIn, AVAILABLE, demoEngines, type Engine } from './demo-engines.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const DEMO = { orders: 2000, seed: 23, now: NOW };
const RUNS = Number(process.env.COMPARISON_RUNS ?? 40);
const engines = demoEngines(DEMO, 'comparison-properties');

const DIMENSIONS = ['channel', 'status', 'region', 'customers.segment', 'created_at.quarter'];
const ADDITIVE = ['revenue', 'order_count', 'completed_revenue'];
const ZONES = ['UTC', 'Europe/Paris', 'Asia/Kolkata'];
const DAY_MS = 86_400_000;
/** The first day of the demo's data, and how many days it spans. */
const FIRST_DAY = Date.UTC(2023, 6, 1);
const DAYS = 700;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const number = (value: unknown) => (typeof value === 'string' ? Number(value) : (value as number | null));

/** A time zone the engine answers in (MariaDB without its zone tables answers only in UTC). */
const zoneFor = (engine: Engine) => fc.constantFrom(...ZONES.filter((zone) => answersIn(engine, zone)));

/** The bucket of `grain` before the one starting at `start` (a wall time, written as answers write buckets). */
function bucketBefore(start: string, grain: 'day' | 'week' | 'month' | 'quarter' | 'year'): string {
  const wall = new Date(`${start}Z`);
  const [y, m, d] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  const before =
    grain === 'day' ? Date.UTC(y, m, d - 1) : grain === 'week' ? Date.UTC(y, m, d - 7) : grain === 'month' ? Date.UTC(y, m - 1, 1) : grain === 'quarter' ? Date.UTC(y, m - 3, 1) : Date.UTC(y - 1, 0, 1);
  return new Date(before).toISOString().slice(0, 23);
}

/** The start of the bucket of `grain` holding a date, and the date `count` buckets later, as YYYY-MM-DD. */
function bucketsFrom(dayMs: number, grain: 'day' | 'week' | 'month' | 'quarter' | 'year', count: number): [string, string] {
  const at = new Date(dayMs);
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  if (grain === 'day') return [day(dayMs), day(Date.UTC(y, m, d + count))];
  if (grain === 'week') {
    const monday = Date.UTC(y, m, d - ((at.getUTCDay() + 6) % 7));
    return [day(monday), day(monday + 7 * count * DAY_MS)];
  }
  const months = grain === 'month' ? 1 : grain === 'quarter' ? 3 : 12;
  const first = months === 12 ? 0 : m - (m % months);
  return [day(Date.UTC(y, first, 1)), day(Date.UTC(y, first + months * count, 1))];
}

function byKey(rows: readonly WarehouseRow[], key: string): Map<unknown, WarehouseRow> {
  return new Map(rows.map((row) => [row[key], row]));
}

for (const engine of Object.keys(AVAILABLE) as Engine[]) {
  describe.skipIf(!AVAILABLE[engine])(`${engine}${AVAILABLE[engine] ? '' : ' (its server does not answer)'}`, () => {
    it(`a share over every group of its total sums to 1 (${RUNS} runs)`, async () => {
      const query = fc
        .record({
          dimensions: fc.uniqueArray(fc.constantFrom(...DIMENSIONS), { minLength: 1, maxLength: 3 }),
          measure: fc.constantFrom(...ADDITIVE),
          keep: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
          channel: fc.option(fc.constantFrom('web', 'mobile'), { nil: undefined }),
          region: fc.constantFrom('*', 'Europe', 'Asia Pacific'),
          timezone: zoneFor(engine),
        })
        .map(({ keep, ...q }) => ({ ...q, of: q.dimensions.filter((_, i) => keep[i]) }));
      await fc.assert(
        fc.asyncProperty(query, async ({ dimensions, measure, of, channel, region, timezone }) => {
          const input: SemanticQueryInput = {
            node: 'orders',
            dimensions,
            measures: [measure],
            timezone,
            filters: channel ? [{ field: 'channel', operator: 'equals', value: channel }] : [],
            shares: [{ measure, of }],
          };
          const rows = await runComposed(engines, engine, input, NOW, { region });
          const groups = new Map<string, number[]>();
          for (const row of rows) {
            const share = row[`${measure}.share`];
            if (share === null) continue;
            const key = JSON.stringify(of.map((d) => row[d]));
            groups.set(key, [...(groups.get(key) ?? []), number(share)!]);
          }
          expect(rows.length).toBeGreaterThan(0);
          for (const [key, shares] of groups) {
            const sum = shares.reduce((a, b) => a + b, 0);
            expect(Math.abs(sum - 1), `shares of ${key} in ${JSON.stringify(input)}`).toBeLessThan(1e-9 * Math.max(1, shares.length));
          }
        }),
        { numRuns: RUNS, seed: 20260301 },
      );
    }, 300_000);

    it(`a period compared with itself changes by 0 (${RUNS} runs)`, async () => {
      const query = fc.record({
        start: fc.integer({ min: 0, max: DAYS - 1 }),
        length: fc.integer({ min: 1, max: 120 }),
        grain: fc.constantFrom(undefined, 'day', 'week', 'month', 'quarter'),
        channel: fc.boolean(),
        region: fc.constantFrom('*', 'Latin America'),
        timezone: zoneFor(engine),
      });
      await fc.assert(
        fc.asyncProperty(query, async ({ start, length, grain, channel, region, timezone }) => {
          const range = [day(FIRST_DAY + start * DAY_MS), day(FIRST_DAY + (start + length) * DAY_MS)];
          const input: SemanticQueryInput = {
            node: 'orders',
            dimensions: [...(grain ? [`created_at.${grain}`] : []), ...(channel ? ['channel'] : [])],
            measures: ['revenue', 'completed_revenue'],
            timezone,
            compare: { dimension: 'created_at', range, to: { range } },
          };
          const rows = await runComposed(engines, engine, input, NOW, { region });
          for (const row of rows) {
            for (const m of ['revenue', 'completed_revenue']) {
              const label = `${m} in ${JSON.stringify(row)}`;
              expect(row[`${m}.comparison`], label).toEqual(row[m]);
              if (row[m] === null) {
                expect([row[`${m}.change`], row[`${m}.change_percent`]], label).toEqual([null, null]);
              } else {
                expect(row[`${m}.change`], label).toBe(0);
                expect(row[`${m}.change_percent`], label).toBe(number(row[m]) === 0 ? null : 0);
              }
            }
          }
        }),
        { numRuns: RUNS, seed: 20260302 },
      );
    }, 300_000);

    it(`previous_period of a grain is the bucket before in an ordinary query of that grain (${RUNS} runs)`, async () => {
      const query = fc.record({
        start: fc.integer({ min: 40, max: DAYS - 1 }),
        grain: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'quarter' as const, 'year' as const),
        count: fc.integer({ min: 1, max: 6 }),
        region: fc.constantFrom('*', 'Europe'),
        timezone: zoneFor(engine),
      });
      await fc.assert(
        fc.asyncProperty(query, async ({ start, grain, count, region, timezone }) => {
          const dimension = `created_at.${grain}`;
          const [from, to] = bucketsFrom(FIRST_DAY + start * DAY_MS, grain, count);
          const compared = await runComposed(
            engines,
            engine,
            { node: 'orders', dimensions: [dimension], measures: ['order_count', 'revenue'], timezone, compare: { dimension: 'created_at', range: [from, to] } },
            NOW,
            { region },
          );
          // The same grain from the bucket before the first, as an ordinary query.
          const filters = [
            { field: 'created_at', operator: 'gte', value: bucketBefore(`${from}T00:00:00.000`, grain) },
            { field: 'created_at', operator: 'lt', value: to },
          ];
          const plainRows = await runPlain(engines, engine, { node: 'orders', dimensions: [dimension], measures: ['order_count', 'revenue'], timezone, filters, limit: 50_000 }, NOW, { region });
          const plain = byKey(plainRows, dimension);
          const inRange = [...plain.keys()].filter((bucket) => (bucket as string) >= from);
          expect(compared.filter((row) => row.order_count !== null).map((row) => row[dimension])).toEqual(inRange);
          for (const row of compared) {
            const bucket = row[dimension] as string;
            const label = `${bucket} of ${grain} in [${from}, ${to}) ${timezone}`;
            expect(row.order_count, label).toEqual(plain.get(bucket)?.order_count ?? null);
            expect(row['order_count.comparison'], label).toEqual(plain.get(bucketBefore(bucket, grain))?.order_count ?? null);
            expect(row['revenue.comparison'], label).toEqual(plain.get(bucketBefore(bucket, grain))?.revenue ?? null);
          }
        }),
        { numRuns: RUNS, seed: 20260303 },
      );
    }, 300_000);
  });
}
