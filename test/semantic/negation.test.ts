// Negated filters on real engines, over data full of NULLs (tickets.ts): every negated operator and
// `{ not: … }` against hand-written SQL, then the property that defines negation here: for any filter f,
// f and `{ not: f }` split the rows (and the groups, for measure filters) in two, rows without a value
// included. Data keys stay outside every user filter: no negation reaches them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileQuery, type CompiledQuery } from '../../src/core/semantic/compile.js';
import type { Filter, SemanticQueryInput } from '../../src/core/semantic/query.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { AVAILABLE, ENGINES, type Engine } from './demo-engines.js';
import { canonical, expectSameRows } from './rows.js';
import { ticketFilter, ticketMeasureFilter } from './ticket-filters.js';
import { ticketEngines, TICKETS_NOW } from './tickets.js';

const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 200);
const ALL = { region: '*' };
const engines = ticketEngines('negation');

function compile(engine: Engine, input: SemanticQueryInput, attributes: Record<string, string> = ALL): CompiledQuery {
  return compileQuery(engines.get(engine)!.model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes, now: TICKETS_NOW });
}

async function run(engine: Engine, input: SemanticQueryInput, attributes: Record<string, string> = ALL): Promise<WarehouseRow[]> {
  const compiled = compile(engine, input, attributes);
  return [...(await engines.get(engine)!.warehouse.run(compiled.sql, compiled.params, { maxRows: 10_000, timeoutMs: 30_000 })).rows];
}

/** Tickets a filter keeps (as the user with `attributes` sees them). */
async function count(engine: Engine, filters: Filter[], attributes: Record<string, string> = ALL): Promise<number> {
  const [row] = await run(engine, { node: 'tickets', measures: ['ticket_count'], filters }, attributes);
  return Number(row!.ticket_count);
}

/** Hand-written DuckDB SQL over support.tickets. */
async function handWritten(sql: string): Promise<WarehouseRow[]> {
  return [...(await engines.get('duckdb')!.warehouse.run(sql, [], { maxRows: 10_000, timeoutMs: 30_000 })).rows];
}

/** The index of the parenthesis closing the one at `open` (no parameter here holds one). */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    if (text[i] === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced: ${text}`);
}

const BY_CHANNEL = (where: string) => `SELECT channel AS "channel", COUNT(*) AS "ticket_count", SUM(minutes) AS "total_minutes" FROM support.tickets WHERE ${where} GROUP BY 1`;

/** Each negation with its meaning written out in SQL, a row without a value kept wherever the filter excludes. */
const DIMENSION_CASES: Array<[name: string, filter: Filter, where: string]> = [
  ['notEquals keeps the tickets without a channel', { field: 'channel', operator: 'notEquals', value: 'web' }, `channel IS NULL OR channel <> 'web'`],
  ['not equals is notEquals', { not: { field: 'channel', operator: 'equals', value: 'web' } }, `channel IS NULL OR channel <> 'web'`],
  ['notIn', { field: 'channel', operator: 'notIn', value: ['web', 'email'] }, `channel IS NULL OR channel NOT IN ('web', 'email')`],
  ['not of equals null is notNull', { not: { field: 'channel', operator: 'equals', value: null } }, 'channel IS NOT NULL'],
  ['notContains, any case', { field: 'channel', operator: 'notContains', value: 'WEB' }, `channel IS NULL OR NOT contains(lower(channel), 'web')`],
  ['notStartsWith, "_" taken literally', { field: 'channel', operator: 'notStartsWith', value: 'web_' }, `channel IS NULL OR NOT starts_with(lower(channel), 'web_')`],
  ['notEndsWith, "%" and "!" taken literally', { field: 'channel', operator: 'notEndsWith', value: ['0%', 'b!'] }, `channel IS NULL OR NOT (ends_with(lower(channel), '0%') OR ends_with(lower(channel), 'b!'))`],
  ['not of a comparison keeps the tickets without a priority', { not: { field: 'priority', operator: 'gt', value: 3 } }, 'priority IS NULL OR priority <= 3'],
  ['notBetween', { field: 'priority', operator: 'notBetween', value: [2, 4] }, 'priority IS NULL OR priority < 2 OR priority > 4'],
  ['not isNull is notNull', { not: { field: 'priority', operator: 'isNull' } }, 'priority IS NOT NULL'],
  ['not notNull is isNull', { not: { field: 'minutes', operator: 'notNull' } }, 'minutes IS NULL'],
  ['not of a boolean', { not: { field: 'escalated', operator: 'equals', value: true } }, 'escalated IS NULL OR NOT escalated'],
  [
    'notInDateRange, the last day included in the range left out',
    { field: 'opened_at', operator: 'notInDateRange', value: ['2024-03-01', '2024-05-31'] },
    `opened_at IS NULL OR opened_at < TIMESTAMP '2024-03-01' OR opened_at >= TIMESTAMP '2024-06-01'`,
  ],
  ['notInThePast 3 months', { field: 'opened_at', operator: 'notInThePast', value: '3 months' }, `opened_at IS NULL OR opened_at < TIMESTAMP '2025-03-01' OR opened_at >= TIMESTAMP '2025-06-01'`],
  ['notInTheCurrent month', { field: 'opened_at', operator: 'notInTheCurrent', value: 'month' }, `opened_at IS NULL OR opened_at < TIMESTAMP '2025-06-01' OR opened_at >= TIMESTAMP '2025-07-01'`],
  ['not before a date', { not: { field: 'opened_at', operator: 'before', value: '2025-01-01' } }, `opened_at IS NULL OR opened_at >= TIMESTAMP '2025-01-01'`],
  [
    'not of an and keeps what either leaves out',
    { not: { and: [{ field: 'channel', operator: 'equals', value: 'web' }, { field: 'priority', operator: 'gte', value: 4 }] } },
    `NOT coalesce(channel = 'web' AND priority >= 4, false)`,
  ],
  [
    'not of an or keeps what both leave out',
    { not: { or: [{ field: 'channel', operator: 'startsWith', value: 'web' }, { field: 'minutes', operator: 'gt', value: 100 }] } },
    `NOT coalesce(starts_with(lower(channel), 'web') OR minutes > 100, false)`,
  ],
  ['not of not', { not: { not: { field: 'channel', operator: 'equals', value: 'email' } } }, `channel = 'email'`],
  [
    'not inside or',
    { or: [{ not: { field: 'priority', operator: 'lte', value: 2 } }, { field: 'channel', operator: 'isNull' }] },
    'priority IS NULL OR priority > 2 OR channel IS NULL',
  ],
];

/** Measure filters, grouped by channel: the phone group has no minutes (a NULL sum). */
const MEASURE_CASES: Array<[name: string, filter: Filter, having: string]> = [
  ['not of a measure comparison keeps the groups without a value', { not: { field: 'total_minutes', operator: 'gt', value: 2000 } }, 'SUM(minutes) IS NULL OR SUM(minutes) <= 2000'],
  ['notBetween on a count', { field: 'ticket_count', operator: 'notBetween', value: [30, 40] }, 'COUNT(*) < 30 OR COUNT(*) > 40'],
  ['not of notNull', { not: { field: 'total_minutes', operator: 'notNull' } }, 'SUM(minutes) IS NULL'],
];

for (const engine of Object.keys(AVAILABLE) as Engine[]) {
  describe.skipIf(!AVAILABLE[engine])(`${engine}${AVAILABLE[engine] ? '' : ' (its server does not answer)'}`, () => {
    describe('negations match hand-written SQL', () => {
      it.for(DIMENSION_CASES)('%s', async ([, filter, where]) => {
        const rows = await run(engine, { node: 'tickets', dimensions: ['channel'], measures: ['ticket_count', 'total_minutes'], filters: [filter] });
        expect(rows.length).toBeGreaterThan(0);
        expectSameRows(canonical(rows), canonical(await handWritten(BY_CHANNEL(where))), `${engine}: ${JSON.stringify(filter)}`);
      });

      it.for(MEASURE_CASES)('%s', async ([, filter, having]) => {
        const rows = await run(engine, { node: 'tickets', dimensions: ['channel'], measures: ['ticket_count', 'total_minutes'], filters: [filter] });
        expect(rows.length).toBeGreaterThan(0);
        expectSameRows(canonical(rows), canonical(await handWritten(`${BY_CHANNEL('true')} HAVING ${having}`)), `${engine}: ${JSON.stringify(filter)}`);
      });
    });

    it(`any filter and its negation split the tickets in two (${RUNS} runs)`, async () => {
      const all = await count(engine, []);
      await fc.assert(
        fc.asyncProperty(ticketFilter, async (f) => {
          const kept = await count(engine, [f]);
          const left = await count(engine, [{ not: f }]);
          expect(kept + left, JSON.stringify(f)).toBe(all);
          expect(await count(engine, [{ and: [f, { not: f }] }]), `nothing is both: ${JSON.stringify(f)}`).toBe(0);
          expect(await count(engine, [{ not: { not: f } }]), `not not: ${JSON.stringify(f)}`).toBe(kept);
        }),
        { numRuns: RUNS, seed: 20260301 },
      );
    }, 300_000);

    it(`any measure filter and its negation split the groups in two (${Math.ceil(RUNS / 2)} runs)`, async () => {
      const groups = async (filters: Filter[]) =>
        (await run(engine, { node: 'tickets', dimensions: ['channel'], measures: ['ticket_count'], filters })).map((row) => String(row.channel)).sort();
      const all = await groups([]);
      expect(all.length).toBeGreaterThan(3);
      await fc.assert(
        fc.asyncProperty(ticketMeasureFilter, async (f) => {
          const kept = await groups([f]);
          const left = await groups([{ not: f }]);
          expect([...kept, ...left].sort(), JSON.stringify(f)).toEqual(all);
        }),
        { numRuns: Math.ceil(RUNS / 2), seed: 20260302 },
      );
    }, 300_000);

    describe('data keys are outside every user filter', () => {
      const NORTH = { region: 'north' };

      it('a negation of the data key dimension shows no row of another region', async () => {
        expect(await count(engine, [{ not: { field: 'region', operator: 'equals', value: 'north' } }], NORTH)).toBe(0);
        expect(await count(engine, [{ field: 'region', operator: 'notEquals', value: 'north' }], NORTH)).toBe(0);
        expect(await count(engine, [{ or: [{ not: { field: 'region', operator: 'equals', value: 'north' } }, { field: 'region', operator: 'equals', value: 'south' }] }], NORTH)).toBe(0);
        const [row] = await handWritten(`SELECT COUNT(*) AS n FROM support.tickets WHERE region = 'north'`);
        expect(await count(engine, [{ not: { field: 'region', operator: 'equals', value: 'south' } }], NORTH)).toBe(Number(row!.n));
      });

      it('the compiled WHERE is the user filters, then the data key, ANDed at the top', () => {
        const compiled = compile(engine, { node: 'tickets', measures: ['ticket_count'], filters: [{ not: { or: [{ field: 'region', operator: 'equals', value: 'north' }, { field: 'priority', operator: 'gt', value: 2 }] } }] }, NORTH);
        const where = compiled.sql.split('\n').find((line) => line.startsWith('WHERE '))!.replace(/\) AS `ordered`$/, '');
        const region = engine === 'mysql' ? '`tickets`.region' : '"tickets".region';
        // (user filter) AND ((region) = <the last parameter>): the user's filter is one parenthesised
        // term, closed before the data key begins, so nothing of the user's wraps it.
        const userFilterEnd = closingParen(where, 'WHERE '.length);
        expect(where.slice(userFilterEnd + 1), where).toBe(` AND ((${region}) = ${engine === 'mysql' ? '?' : '$3'})`);
        expect(compiled.params.at(-1)).toBe('north');
      });

      it(`for any filter, a user of one region sees only that region, split in two by f and not f (${Math.ceil(RUNS / 4)} runs)`, async () => {
        const north = await count(engine, [], NORTH);
        expect(north).toBeGreaterThan(0);
        await fc.assert(
          fc.asyncProperty(ticketFilter, async (f) => {
            for (const filters of [[f], [{ not: f }]]) {
              const regions = await run(engine, { node: 'tickets', dimensions: ['region'], measures: ['ticket_count'], filters }, NORTH);
              expect(regions.map((r) => r.region).filter((r) => r !== 'north'), JSON.stringify(filters)).toEqual([]);
            }
            expect((await count(engine, [f], NORTH)) + (await count(engine, [{ not: f }], NORTH)), JSON.stringify(f)).toBe(north);
          }),
          { numRuns: Math.ceil(RUNS / 4), seed: 20260303 },
        );
      }, 300_000);
    });
  });
}

// Comparing engines needs two: DuckDB is always here, and CI (REQUIRE_SERVICES=1) requires the others.
describe.runIf(ENGINES.length >= 2)('engines agree on negated filters', () => {
  it(`row for row, ${ENGINES.join(' vs ')}`, async () => {
    await fc.assert(
      fc.asyncProperty(ticketFilter, async (f) => {
        const input = { node: 'tickets', dimensions: ['channel', 'priority'], measures: ['ticket_count', 'total_minutes'], filters: [{ not: f }] };
        const [first, ...others] = ENGINES;
        const expected = canonical(await run(first!, input));
        for (const engine of others) expectSameRows(canonical(await run(engine, input)), expected, `${engine} vs ${first}: ${JSON.stringify(f)}`);
      }),
      { numRuns: Math.ceil(RUNS / 2), seed: 20260304 },
    );
  }, 300_000);
});
