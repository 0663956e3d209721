// Ratio measures on real engines, over data full of NULLs and zero denominators (tickets.ts): against
// hand-written SQL, alone and beside a one-to-many join that repeats their rows; and the property that
// defines them: in every result row, the ratio is its numerator over its denominator (none when the
// denominator is 0 or none), whatever the dimensions, filters and join plan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { Filter, SemanticQueryInput } from '../../src/core/semantic/query.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { AVAILABLE, type Engine } from './demo-engines.js';
import { canonical, expectSameRows } from './rows.js';
import { ticketFilter } from './ticket-filters.js';
import { ticketEngines, TICKETS_NOW } from './tickets.js';

const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 200);
const engines = ticketEngines('ratios');

async function run(engine: Engine, input: SemanticQueryInput): Promise<WarehouseRow[]> {
  const { warehouse, model } = engines.get(engine)!;
  const compiled = compileQuery(model, semanticQuerySchema.parse({ limit: 10_000, ...input }), { dialect: DIALECTS[engine], attributes: { region: '*' }, now: TICKETS_NOW });
  return [...(await warehouse.run(compiled.sql, compiled.params, { maxRows: 10_000, timeoutMs: 30_000 })).rows];
}

async function handWritten(sql: string): Promise<WarehouseRow[]> {
  return [...(await engines.get('duckdb')!.warehouse.run(sql, [], { maxRows: 10_000, timeoutMs: 30_000 })).rows];
}

const URGENT = 'COUNT(*) FILTER (WHERE t.priority >= 4)';
/** Each ticket ratio written out: a quotient of the group's aggregates, none where the denominator is 0. */
const TICKET_RATIOS = `${URGENT} / COUNT(*) AS "urgent_share",
  CASE WHEN ${URGENT} = 0 THEN NULL ELSE SUM(t.minutes) / ${URGENT} END AS "minutes_per_urgent_ticket"`;

/** The ratios, each with the measures it divides. */
const RATIOS = {
  urgent_share: ['urgent_count', 'ticket_count'],
  minutes_per_urgent_ticket: ['total_minutes', 'urgent_count'],
  'replies.words_per_reply': ['replies.total_words', 'replies.reply_count'],
} as const;

const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

for (const engine of Object.keys(AVAILABLE) as Engine[]) {
  describe.skipIf(!AVAILABLE[engine])(`${engine}${AVAILABLE[engine] ? '' : ' (its server does not answer)'}`, () => {
    it('ratios by channel match hand-written SQL: fractions, not integer quotients, and no value where the denominator is 0', async () => {
      const rows = await run(engine, { node: 'tickets', dimensions: ['channel'], measures: ['ticket_count', 'urgent_count', 'total_minutes', 'urgent_share', 'minutes_per_urgent_ticket'] });
      const expected = await handWritten(`SELECT t.channel AS "channel", COUNT(*) AS "ticket_count", ${URGENT} AS "urgent_count", SUM(t.minutes) AS "total_minutes", ${TICKET_RATIOS}
        FROM support.tickets t GROUP BY 1`);
      expectSameRows(canonical(rows), canonical(expected), 'ratios by channel');
      // Two counts divide into a fraction on every engine (PostgreSQL divides integers as integers).
      expect(rows.some((r) => number(r.urgent_share)! > 0 && number(r.urgent_share)! < 1)).toBe(true);
      // The phone channel has no minutes: its ratio of minutes is none, as its sum is.
      expect(rows.find((r) => r.channel === 'phone')).toMatchObject({ total_minutes: null, minutes_per_urgent_ticket: null });
    });

    it('a ratio over no rows at all, or over a zero denominator, is no value and no error', async () => {
      const [none] = await run(engine, { node: 'tickets', measures: ['urgent_share', 'minutes_per_urgent_ticket'], filters: [{ field: 'priority', operator: 'gt', value: 99 }] });
      expect(none).toEqual({ urgent_share: null, minutes_per_urgent_ticket: null });
      const [zero] = await run(engine, { node: 'tickets', measures: ['urgent_count', 'minutes_per_urgent_ticket'], filters: [{ field: 'priority', operator: 'lt', value: 4 }] });
      expect(number(zero!.urgent_count)).toBe(0);
      expect(zero!.minutes_per_urgent_ticket).toBeNull();
    });

    it('ratios beside a one-to-many join are exact: each node over its own rows, replies counted only where there are some', async () => {
      const rows = await run(engine, {
        node: 'tickets',
        dimensions: ['channel'],
        measures: ['urgent_share', 'minutes_per_urgent_ticket', 'replies.reply_count', 'replies.words_per_reply'],
      });
      const replies = (aggregate: string) =>
        `(SELECT ${aggregate} FROM support.replies r JOIN support.tickets t2 ON t2.id = r.ticket_id WHERE t2.channel IS NOT DISTINCT FROM t.channel)`;
      const expected = await handWritten(`SELECT t.channel AS "channel", ${TICKET_RATIOS},
          ${replies('COUNT(*)')} AS "replies.reply_count", ${replies('SUM(r.words) / NULLIF(COUNT(*), 0)')} AS "replies.words_per_reply"
        FROM support.tickets t GROUP BY 1`);
      expectSameRows(canonical(rows), canonical(expected), 'ratios across the replies join');
    });

    it('a ratio filters groups after aggregation, as any measure', async () => {
      const rows = await run(engine, { node: 'tickets', dimensions: ['priority'], measures: ['ticket_count'], filters: [{ field: 'minutes_per_urgent_ticket', operator: 'gt', value: 100 }] });
      const expected = await handWritten(`SELECT t.priority AS "priority", COUNT(*) AS "ticket_count" FROM support.tickets t GROUP BY 1
        HAVING SUM(t.minutes) / NULLIF(${URGENT}, 0) > 100`);
      expect(rows.length).toBeGreaterThan(0);
      expectSameRows(canonical(rows), canonical(expected), 'ratio in HAVING');
    });

    it(`in every row, a ratio is its numerator over its denominator (${RUNS} runs)`, async () => {
      const query = fc.record({
        dimensions: fc.subarray(['channel', 'priority', 'escalated', 'region', 'opened_at.quarter'], { maxLength: 2 }),
        filters: fc.array(ticketFilter, { maxLength: 1 }),
        // With the replies' ratio, the tickets' measures are computed over their own rows apart.
        ratios: fc.subarray(Object.keys(RATIOS) as Array<keyof typeof RATIOS>, { minLength: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(query, async ({ dimensions, filters, ratios }) => {
          const measures = [...new Set(ratios.flatMap((ratio) => [ratio, ...RATIOS[ratio]]))];
          const rows = await run(engine, { node: 'tickets', dimensions, measures, filters: filters as Filter[] });
          for (const row of rows) {
            for (const ratio of ratios) {
              const numerator = number(row[RATIOS[ratio][0]]);
              const denominator = number(row[RATIOS[ratio][1]]);
              const expected = numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator;
              const got = number(row[ratio]);
              const label = `${ratio} in ${JSON.stringify(row)}`;
              if (expected === null) expect(got, label).toBeNull();
              else expect(Math.abs(got! - expected), label).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
            }
          }
        }),
        { numRuns: RUNS, seed: 20260305 },
      );
    }, 300_000);
  });
}
