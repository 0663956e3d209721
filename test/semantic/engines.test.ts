// The compiler on real engines: the same seeded demo data in PostgreSQL, MariaDB and DuckDB, the same
// semantic queries compiled for each dialect, the same rows back, and the rows a hand-written query
// gives. Then hundreds of random queries, compared row for row across the engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMysql } from '../../src/core/demo/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { GRANULARITIES } from '../../src/core/semantic/model.js';
import { semanticQuerySchema, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import { DATE_PARTS } from '../../src/core/sql/ast.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { Warehouse, WarehouseEngine, WarehouseRow } from '../../src/core/warehouse/types.js';
import { openDemoWarehouses } from '../helpers/demo-warehouses.js';
import { hasService, MYSQL_URL } from '../helpers/services.js';
import { demoModel } from './fixture.js';
import { GOLDEN_QUERIES } from './queries.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const DEMO = { orders: 3000, seed: 7, now: NOW };
const model = demoModel();
const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');

const warehouses = new Map<WarehouseEngine, Warehouse>();
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  for (const [engine, warehouse] of await openDemoWarehouses(DEMO, { tag: 'engines', postgres: withPostgres, cleanups })) warehouses.set(engine, warehouse);
  if (withMysql) {
    // The model names tables shop.*, so the demo goes into database `shop` (only this file uses it).
    await loadMysql(MYSQL_URL, { ...DEMO, database: 'shop' });
    const url = new URL(MYSQL_URL);
    warehouses.set('mysql', openWarehouse({ engine: 'mysql', host: url.hostname, port: Number(url.port || 3306), database: 'shop', user: url.username }));
  }
}, 120_000);

afterAll(async () => {
  for (const warehouse of warehouses.values()) await warehouse.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Rows as given, or in a canonical order (by their values, numbers coarsely rounded for the key). */
function canonical(rows: readonly WarehouseRow[], sorted = false): WarehouseRow[] {
  if (!sorted) return [...rows];
  const key = (row: WarehouseRow) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v));
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * Engines differ in the last digits of divisions and averages: MySQL keeps 4 decimals more than the
 * operands (div_precision_increment), DuckDB computes a double. Numbers agree within 1e-4 plus a
 * relative 1e-9; everything else exactly.
 */
function expectSameRows(actual: WarehouseRow[], expected: WarehouseRow[], label: string) {
  const close = (a: unknown, b: unknown) =>
    typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-4 + 1e-9 * Math.max(Math.abs(a), Math.abs(b)) : a === b;
  const same =
    actual.length === expected.length &&
    actual.every((row, i) => {
      const other = expected[i]!;
      const keys = Object.keys(row);
      return keys.length === Object.keys(other).length && keys.every((k) => close(row[k], other[k]));
    });
  if (!same) expect(actual, label).toEqual(expected); // shows the difference
}

async function run(engine: WarehouseEngine, input: SemanticQueryInput, attributes: Record<string, string> = { region: '*' }) {
  const compiled = compileQuery(model, semanticQuerySchema.parse(input), { dialect: DIALECTS[engine], attributes, now: NOW });
  const result = await warehouses.get(engine)!.run(compiled.sql, compiled.params, { maxRows: 100_000, timeoutMs: 30_000 });
  return result.rows;
}

/** Runs on every engine present and checks they agree; returns the rows. */
async function agreed(input: SemanticQueryInput, options: { attributes?: Record<string, string>; sorted?: boolean } = {}) {
  const results = new Map<WarehouseEngine, WarehouseRow[]>();
  for (const engine of warehouses.keys()) results.set(engine, canonical(await run(engine, input, options.attributes), options.sorted));
  const [first, ...rest] = [...results];
  for (const [engine, rows] of rest) expectSameRows(rows, first![1], `${engine} vs ${first![0]} for ${JSON.stringify(input)}`);
  return first![1];
}

async function reference(sql: string): Promise<WarehouseRow[]> {
  return [...(await warehouses.get('duckdb')!.run(sql, [], { maxRows: 100_000, timeoutMs: 30_000 })).rows];
}

// Hand-written DuckDB SQL for each golden query, as its user (region = Europe) should see it.
const PARIS = (column: string) => `timezone('Europe/Paris', timezone('UTC', ${column}))`;
const REFERENCE_SQL: Record<keyof typeof GOLDEN_QUERIES, string> = {
  revenue_total: `SELECT SUM(amount) AS "revenue", COUNT(*) AS "order_count" FROM shop.orders WHERE ship_region = 'Europe'`,
  revenue_by_status: `
    SELECT status AS "status", SUM(amount) AS "revenue", SUM(CASE WHEN status = 'completed' THEN amount END) AS "completed_revenue",
           SUM(amount) / COUNT(*) AS "revenue_per_order"
    FROM shop.orders WHERE ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  revenue_by_month_paris: `
    SELECT date_trunc('month', ${PARIS('created_at')}) AS "created_at.month", SUM(amount) AS "revenue"
    FROM shop.orders
    WHERE ship_region = 'Europe' AND ${PARIS('created_at')} >= TIMESTAMP '2025-01-01' AND ${PARIS('created_at')} < TIMESTAMP '2025-07-01'
    GROUP BY 1 ORDER BY 1`,
  customers_region_join: `
    SELECT c.segment AS "customers.segment", o.channel AS "channel", COUNT(DISTINCT o.customer_id) AS "buyers", AVG(o.amount) AS "avg_order_value"
    FROM shop.orders o LEFT JOIN shop.customers c ON c.id = o.customer_id
    WHERE o.status IN ('completed', 'refunded') AND lower(c.name) LIKE '%an%' AND o.ship_region = 'Europe'
    GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10`,
  having_and_or: `
    SELECT ship_region AS "region", COUNT(*) AS "order_count" FROM shop.orders
    WHERE channel IN ('web', 'mobile') AND ship_region = 'Europe'
    GROUP BY 1 HAVING SUM(amount) > 1000 ORDER BY 2 DESC, 1`,
  fan_out_units_by_status: `
    SELECT o.status AS "status", SUM(o.amount) AS "revenue",
           (SELECT SUM(i.quantity) FROM shop.order_items i JOIN shop.orders o2 ON o2.id = i.order_id
            WHERE o2.status = o.status AND o2.ship_region = 'Europe') AS "order_items.units"
    FROM shop.orders o WHERE o.ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  date_parts: `
    SELECT CAST(isodow(created_at) AS INTEGER) AS "created_at.day_of_week", CAST(quarter(created_at) AS INTEGER) AS "created_at.quarter_of_year",
           COUNT(*) AS "order_count"
    FROM shop.orders WHERE ship_region = 'Europe' GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
};

describe('golden queries: every engine agrees, and with the hand-written SQL', () => {
  it.each(Object.entries(GOLDEN_QUERIES))('%s', async (name, input) => {
    const rows = await agreed(input, { attributes: { region: 'Europe' } });
    expect(rows.length).toBeGreaterThan(0);
    expectSameRows(rows, await reference(REFERENCE_SQL[name]!), `${name} vs its reference`);
  });
});

describe('results match hand-written SQL', () => {
  it('revenue by status', async () => {
    const rows = await agreed({ node: 'orders', dimensions: ['status'], measures: ['revenue', 'order_count'], sorts: [{ field: 'status', direction: 'asc' }] });
    expect(rows).toEqual(
      await reference('SELECT status AS "status", SUM(amount) AS "revenue", COUNT(*) AS "order_count" FROM shop.orders GROUP BY 1 ORDER BY 1'),
    );
  });

  it('revenue by product category counts each order once per category, across the one-to-many join', async () => {
    const rows = await agreed({ node: 'orders', dimensions: ['products.category'], measures: ['revenue', 'order_items.units'], sorts: [{ field: 'products.category', direction: 'asc' }] });
    expect(rows).toEqual(
      await reference(`
        SELECT c.category AS "products.category", SUM(o.amount) AS "revenue", MAX(u.units) AS "order_items.units"
        FROM shop.orders o
        JOIN (SELECT DISTINCT i.order_id, p.category FROM shop.order_items i JOIN shop.products p ON p.id = i.product_id) c ON c.order_id = o.id
        JOIN (SELECT p.category, SUM(i.quantity) AS units FROM shop.order_items i JOIN shop.products p ON p.id = i.product_id GROUP BY 1) u ON u.category = c.category
        GROUP BY 1 ORDER BY 1`),
    );
    // And the total is not inflated by joining the items.
    const [total] = await agreed({ node: 'orders', measures: ['revenue', 'order_items.units'] });
    expect(total!.revenue).toEqual((await reference('SELECT SUM(amount) AS revenue FROM shop.orders'))[0]!.revenue);
  });

  it('days in a time zone', async () => {
    const rows = await agreed({
      node: 'orders',
      dimensions: ['created_at.day'],
      measures: ['order_count'],
      timezone: 'America/New_York',
      filters: [{ field: 'created_at', operator: 'inDateRange', value: ['2025-03-08', '2025-03-10'] }],
    });
    expect(rows).toEqual(
      await reference(`
        SELECT strftime(date_trunc('day', timezone('America/New_York', timezone('UTC', created_at))), '%Y-%m-%dT%H:%M:%S.000') AS "created_at.day", COUNT(*) AS "order_count"
        FROM shop.orders
        WHERE timezone('America/New_York', timezone('UTC', created_at)) >= TIMESTAMP '2025-03-08' AND timezone('America/New_York', timezone('UTC', created_at)) < TIMESTAMP '2025-03-11'
        GROUP BY 1 ORDER BY 1`),
    );
  });

  it("data keys: a user sees only their region's rows, and nothing without the attribute", async () => {
    const [europe] = await agreed({ node: 'orders', measures: ['revenue', 'order_count'] }, { attributes: { region: 'Europe' } });
    const [expected] = await reference(`SELECT SUM(amount) AS "revenue", COUNT(*) AS "order_count" FROM shop.orders WHERE ship_region = 'Europe'`);
    expect(europe).toEqual(expected);
    const [none] = await agreed({ node: 'orders', measures: ['order_count'] }, { attributes: {} });
    expect(none).toEqual({ order_count: 0 });
  });
});

describe('every granularity and date part', () => {
  it.each([...GRANULARITIES, ...DATE_PARTS])('%s', async (granularity) => {
    const rows = await agreed({ node: 'orders', dimensions: [`created_at.${granularity}`], measures: ['order_count'], timezone: 'Asia/Kolkata', limit: 50_000 });
    const total = rows.reduce((sum, row) => sum + Number(row.order_count), 0);
    expect(total).toBe(DEMO.orders);
  });
});

describe('every filter operator', () => {
  const cases: Array<[string, unknown]> = [
    ['status equals', { field: 'status', operator: 'equals', value: 'completed' }],
    ['status = list', { field: 'status', operator: '=', value: ['completed', 'pending'] }],
    ['status notEquals', { field: 'status', operator: 'notEquals', value: 'completed' }],
    ['status in', { field: 'status', operator: 'in', value: ['refunded'] }],
    ['status notIn', { field: 'status', operator: 'notIn', value: ['refunded', 'cancelled'] }],
    ['customers.name contains', { field: 'customers.name', operator: 'contains', value: 'AN' }],
    ['customers.name notContains', { field: 'customers.name', operator: 'notContains', value: 'a' }],
    ['channel startsWith', { field: 'channel', operator: 'startsWith', value: 'we' }],
    ['channel endsWith', { field: 'channel', operator: 'endsWith', value: 'place' }],
    ['id gt', { field: 'id', operator: 'gt', value: 2000 }],
    ['id >=', { field: 'id', operator: '>=', value: 2000 }],
    ['id lt', { field: 'id', operator: 'lt', value: 100 }],
    ['id <=', { field: 'id', operator: '<=', value: 100 }],
    ['id between', { field: 'id', operator: 'between', value: [10, 20] }],
    ['id notBetween', { field: 'id', operator: 'notBetween', value: [10, 2990] }],
    ['customers.region isNull', { field: 'customers.region', operator: 'isNull' }],
    ['customers.region notNull', { field: 'customers.region', operator: 'notNull' }],
    ['created_at before', { field: 'created_at', operator: 'before', value: '2024-01-01' }],
    ['created_at after', { field: 'created_at', operator: 'after', value: '2025-06-01' }],
    ['created_at onOrBefore', { field: 'created_at', operator: 'onOrBefore', value: '2023-12-31' }],
    ['created_at onOrAfter', { field: 'created_at', operator: 'onOrAfter', value: '2025-06-01T00:00:00Z' }],
    ['created_at inDateRange', { field: 'created_at', operator: 'inDateRange', value: ['2024-02-01', '2024-02-29'] }],
    ['created_at inThePast', { field: 'created_at', operator: 'inThePast', value: '3 months' }],
    ['created_at inTheCurrent', { field: 'created_at', operator: 'inTheCurrent', value: 'year' }],
    ['is_completed equals', { field: 'is_completed', operator: 'equals', value: true }],
    ['revenue gt (measure)', { field: 'revenue', operator: 'gt', value: 50_000 }],
  ];
  it.each(cases)('%s', async (_name, filter) => {
    await agreed({ node: 'orders', dimensions: ['channel'], measures: ['order_count', 'revenue'], filters: [filter as never] }, { sorted: true });
  });
});

describe('differential: random queries agree on every engine', () => {
  const dimensionIds = ['status', 'channel', 'region', 'customers.segment', 'customers.region', 'products.category', 'created_at.month', 'created_at.day_of_week'];
  const measureIds = ['order_count', 'revenue', 'completed_revenue', 'buyers', 'avg_order_value', 'revenue_per_order', 'customers.customer_count', 'order_items.units', 'order_items.line_count'];
  const filters = [
    { field: 'status', operator: 'in', value: ['completed', 'refunded'] },
    { field: 'channel', operator: 'notEquals', value: 'web' },
    { field: 'created_at', operator: 'after', value: '2024-06-30' },
    { field: 'customers.segment', operator: 'equals', value: 'consumer' },
    { field: 'order_count', operator: 'gt', value: 5 },
  ];
  const query = fc.record({
    dimensions: fc.subarray(dimensionIds, { maxLength: 3 }),
    measures: fc.subarray(measureIds, { minLength: 1, maxLength: 3 }),
    filters: fc.subarray(filters, { maxLength: 2 }),
    timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/Sao_Paulo'),
    region: fc.constantFrom('*', 'Europe', 'North America'),
  });

  it('hundreds of queries, row for row', async () => {
    await fc.assert(
      fc.asyncProperty(query, async ({ region, ...q }) => {
        await agreed({ node: 'orders', ...q, limit: 50_000 } as SemanticQueryInput, { attributes: { region }, sorted: true });
      }),
      { numRuns: Number(process.env.DIFFERENTIAL_RUNS ?? 200), seed: 20251118 },
    );
  }, 300_000);
});
