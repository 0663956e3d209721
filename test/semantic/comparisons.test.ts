// Comparisons over time, shares of a total and ratios, on DuckDB, PostgreSQL and MariaDB holding the same
// seeded demo data, each checked against hand-written SQL (run on DuckDB, over the same rows) that says
// what the answer means without going through the compiler or the merge.
import { describe, expect, it } from 'vitest';
import type { SemanticQueryInput } from '../../src/core/semantic/query.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { runComposed } from './composed.js';
import { AVAILABLE, demoEngines, needsZone, type Engine } from './demo-engines.js';
import { expectSameRows } from './rows.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const DEMO = { orders: 3000, seed: 11, now: NOW };
const engines = demoEngines(DEMO, 'comparisons');

async function handWritten(sql: string): Promise<WarehouseRow[]> {
  return [...(await engines.get('duckdb')!.warehouse.run(sql, [], { maxRows: 100_000, timeoutMs: 30_000 })).rows];
}

const BUCKET = (expr: string) => `strftime(${expr}, '%Y-%m-%dT%H:%M:%S.000')`;
/** m, m.comparison, m.change and m.change_percent from a `cur` and a `prev` row of a full join. */
const COMPARED = (m: string) => `cur.${m} AS "${m}", prev.${m} AS "${m}.comparison", cur.${m} - prev.${m} AS "${m}.change",
  (cur.${m} - prev.${m}) / abs(nullif(prev.${m}, 0)) * 100 AS "${m}.change_percent"`;

// Months from April to July 2025 against the same months of 2024. The data ends at NOW (18 June 2025):
// June is partial, and July exists only in 2024, so it is a row with no current value.
const MONTHS_YEAR_BEFORE_SQL = `
  WITH cur AS (
    SELECT date_trunc('month', created_at) AS month, SUM(amount) AS revenue, COUNT(*) AS order_count
    FROM shop.orders WHERE created_at >= TIMESTAMP '2025-04-01' AND created_at < TIMESTAMP '2025-08-01' GROUP BY 1),
  prev AS (
    SELECT date_trunc('month', created_at) + INTERVAL 1 YEAR AS month, SUM(amount) AS revenue, COUNT(*) AS order_count
    FROM shop.orders WHERE created_at >= TIMESTAMP '2024-04-01' AND created_at < TIMESTAMP '2024-08-01' GROUP BY 1)
  SELECT ${BUCKET('coalesce(cur.month, prev.month)')} AS "created_at.month", ${COMPARED('revenue')}, ${COMPARED('order_count')},
         coalesce(cur.month, prev.month) + INTERVAL 1 MONTH > TIMESTAMP '2025-06-18 10:00:00' AS "created_at.partial"
  FROM cur FULL JOIN prev ON prev.month = cur.month
  ORDER BY 1`;

// The first quarter of 2025 in Paris against the quarter before, per channel, for one region's rows.
const quarterBeforeSql = (region: string) => `
  WITH t AS (
    SELECT channel, amount, timezone('Europe/Paris', timezone('UTC', created_at)) AS local_at FROM shop.orders WHERE ship_region = '${region}'),
  cur AS (SELECT channel, SUM(amount) AS revenue FROM t WHERE local_at >= TIMESTAMP '2025-01-01' AND local_at < TIMESTAMP '2025-04-01' GROUP BY 1),
  prev AS (SELECT channel, SUM(amount) AS revenue FROM t WHERE local_at >= TIMESTAMP '2024-10-01' AND local_at < TIMESTAMP '2025-01-01' GROUP BY 1)
  SELECT coalesce(cur.channel, prev.channel) AS "channel", ${COMPARED('revenue')}, false AS "created_at.partial"
  FROM cur FULL JOIN prev ON prev.channel = cur.channel
  ORDER BY 2 DESC NULLS LAST, 1`;

// Shares of a channel in the quarter's revenue and in each month's orders, a share of a count of distinct
// buyers (whose total is not the sum of the groups'), and revenue per order.
const SHARES_SQL = `
  WITH q AS (SELECT * FROM shop.orders WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < TIMESTAMP '2025-04-01'),
  g AS (
    SELECT channel, date_trunc('month', created_at) AS month, SUM(amount) AS revenue, COUNT(*) AS order_count,
           COUNT(DISTINCT customer_id) AS buyers
    FROM q GROUP BY 1, 2)
  SELECT channel AS "channel", ${BUCKET('month')} AS "created_at.month", revenue AS "revenue", order_count AS "order_count", buyers AS "buyers",
         revenue / SUM(revenue) OVER () AS "revenue.share",
         order_count / SUM(order_count) OVER (PARTITION BY month) AS "order_count.share",
         buyers / (SELECT COUNT(DISTINCT customer_id) FROM q) AS "buyers.share",
         revenue / nullif(order_count, 0) AS "revenue.per.order_count"
  FROM g ORDER BY month, channel`;

// The two channels whose revenue rose most from the first half of 2024 to the first half of 2025, per status.
const TOP_RISES_SQL = `
  WITH cur AS (SELECT channel, status, SUM(amount) AS revenue FROM shop.orders
               WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < TIMESTAMP '2025-06-01' GROUP BY 1, 2),
  prev AS (SELECT channel, status, SUM(amount) AS revenue FROM shop.orders
           WHERE created_at >= TIMESTAMP '2024-01-01' AND created_at < TIMESTAMP '2024-06-01' GROUP BY 1, 2)
  SELECT coalesce(cur.channel, prev.channel) AS "channel", coalesce(cur.status, prev.status) AS "status", ${COMPARED('revenue')},
         false AS "created_at.partial"
  FROM cur FULL JOIN prev ON prev.channel = cur.channel AND prev.status = cur.status
  ORDER BY 5 DESC NULLS LAST, 1, 2 LIMIT 4`;

// With a comparison, shares and ratios are of the current period: its total, its orders.
const COMPARED_SHARES_SQL = `
  WITH cur AS (SELECT channel, SUM(amount) AS revenue, COUNT(*) AS n FROM shop.orders
               WHERE created_at >= TIMESTAMP '2025-02-01' AND created_at < TIMESTAMP '2025-03-01' GROUP BY 1),
  prev AS (SELECT channel, SUM(amount) AS revenue FROM shop.orders
           WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < TIMESTAMP '2025-02-01' GROUP BY 1)
  SELECT cur.channel AS "channel", ${COMPARED('revenue')},
         cur.revenue / (SELECT SUM(revenue) FROM cur) AS "revenue.share", cur.revenue / cur.n AS "revenue.per.order_count",
         false AS "created_at.partial"
  FROM cur JOIN prev USING (channel) ORDER BY 2 DESC, 1`;

for (const engine of Object.keys(AVAILABLE) as Engine[]) {
  describe.skipIf(!AVAILABLE[engine])(`${engine}${AVAILABLE[engine] ? '' : ' (its server does not answer)'}`, () => {
    const run = (input: SemanticQueryInput, attributes?: Record<string, string>) => runComposed(engines, engine, input, NOW, attributes);

    it('each month against the same month a year before: partial months flagged, a month only the year before kept', async () => {
      const rows = await run({
        node: 'orders',
        dimensions: ['created_at.month'],
        measures: ['revenue', 'order_count'],
        compare: { dimension: 'created_at', range: ['2025-04-01', '2025-08-01'], to: 'previous_year' },
      });
      expect(rows.map((row) => [row['created_at.month'], row.revenue === null, row['created_at.partial']])).toEqual([
        ['2025-04-01T00:00:00.000', false, false],
        ['2025-05-01T00:00:00.000', false, false],
        ['2025-06-01T00:00:00.000', false, true],
        ['2025-07-01T00:00:00.000', true, true],
      ]);
      expectSameRows(rows, await handWritten(MONTHS_YEAR_BEFORE_SQL), 'months against a year before');
    });

    it('a quarter against the quarter before, in Paris, with each member seeing only their region', async (ctx) => {
      needsZone(ctx, engine, 'Europe/Paris');
      const query: SemanticQueryInput = {
        node: 'orders',
        dimensions: ['channel'],
        measures: ['revenue'],
        timezone: 'Europe/Paris',
        compare: { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'] },
      };
      const europe = await run(query, { region: 'Europe' });
      const america = await run(query, { region: 'North America' });
      expectSameRows(europe, await handWritten(quarterBeforeSql('Europe')), 'Europe');
      expectSameRows(america, await handWritten(quarterBeforeSql('North America')), 'North America');
      expect(europe.map((row) => row['revenue.comparison'])).not.toEqual(america.map((row) => row['revenue.comparison']));
      // Without the attribute: no rows in either period, so none at all.
      expect(await run(query, {})).toEqual([]);
    });

    it('shares of all rows and of each month, a share of distinct buyers, and revenue per order', async () => {
      const rows = await run({
        node: 'orders',
        dimensions: ['channel', 'created_at.month'],
        measures: ['revenue', 'order_count', 'buyers'],
        filters: [{ field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-03-31'] }],
        shares: [{ measure: 'revenue' }, { measure: 'order_count', of: ['created_at.month'] }, { measure: 'buyers', of: [] }],
        per: [{ measure: 'revenue', by: 'order_count' }],
      });
      expect(rows).toHaveLength(9);
      expectSameRows(rows, await handWritten(SHARES_SQL), 'shares and per');
    });

    it('a comparison with shares and ratios of the current period', async () => {
      const rows = await run({
        node: 'orders',
        dimensions: ['channel'],
        measures: ['revenue'],
        compare: { dimension: 'created_at', range: ['2025-02-01', '2025-03-01'] },
        shares: [{ measure: 'revenue' }],
        per: [{ measure: 'revenue', by: 'order_count' }],
      });
      expectSameRows(rows, await handWritten(COMPARED_SHARES_SQL), 'compared shares');
    });

    it('sorts and cuts the merged rows by a computed column', async () => {
      const rows = await run({
        node: 'orders',
        dimensions: ['channel', 'status'],
        measures: ['revenue'],
        compare: { dimension: 'created_at', range: ['2025-01-01', '2025-06-01'], to: { range: ['2024-01-01', '2024-06-01'] } },
        sorts: [{ field: 'revenue.change', direction: 'desc' }],
        limit: 4,
      });
      expectSameRows(rows, await handWritten(TOP_RISES_SQL), 'top rises');
    });
  });
}
