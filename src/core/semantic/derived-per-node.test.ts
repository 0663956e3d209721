// Derived outputs that read columns (such as the answer service's hidden "latest time of the rows",
// MAX(<reveal time>)) in queries whose one-to-many joins make the compiler aggregate each node
// separately: compiled from the demo model, run on embedded DuckDB and on PostgreSQL when it answers,
// and compared with hand-written SQL. A derived output mixing columns and measures is refused there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDemoWarehouses } from '../../../test/helpers/demo-warehouses.js';
import { hasService } from '../../../test/helpers/services.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../demo-setup.js';
import { compileModel } from '../cml/index.js';
import { AppError, BadRequestError } from '../errors.js';
import { DIALECTS } from '../sql/dialects.js';
import type { Warehouse } from '../warehouse/index.js';
import type { WarehouseEngine, WarehouseRow } from '../warehouse/types.js';
import type { SemanticModel, SqlTemplate } from './model.js';
import { compileRevealQuery, type RevealQuery } from './reveal.js';

const NOW = new Date('2025-06-18T10:00:00Z');
const DEMO = { orders: 1500, seed: 11, now: NOW };
const withPostgres = await hasService('postgres');
const ENGINES: Array<{ engine: WarehouseEngine; available: boolean }> = [
  { engine: 'duckdb', available: true },
  { engine: 'postgres', available: withPostgres },
];

let model: SemanticModel;
const warehouses = new Map<WarehouseEngine, Warehouse>();
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  model = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
  for (const [engine, warehouse] of await openDemoWarehouses(DEMO, { tag: 'derived', postgres: withPostgres, cleanups })) warehouses.set(engine, warehouse);
}, 120_000);

afterAll(async () => {
  for (const warehouse of warehouses.values()) await warehouse.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** MAX(<node.name>), as the answer service asks for the latest time of a reveal's rows. */
const latest = (node: string, name: string): SqlTemplate => [
  { kind: 'text', text: 'MAX(' },
  { kind: 'dimension', node, name },
  { kind: 'text', text: ')' },
];
const FRESHNESS = '__freshness';
const PERIOD = [
  { field: 'created_at', operator: 'onOrAfter', value: '2025-01-01' },
  { field: 'created_at', operator: 'before', value: '2025-04-01' },
];

function compile(engine: WarehouseEngine, query: Partial<RevealQuery> & { reveal: string }, derived: Array<{ key: string; template: SqlTemplate }>, attributes: Record<string, string> = { region: '*' }) {
  return compileRevealQuery(model, { metrics: [], dimensions: [], filters: [], sorts: [], ...query }, { dialect: DIALECTS[engine], attributes, now: NOW, derived });
}

async function run(engine: WarehouseEngine, sql: string, params: readonly unknown[] = []): Promise<WarehouseRow[]> {
  return [...(await warehouses.get(engine)!.run(sql, params, { maxRows: 100_000, timeoutMs: 30_000 })).rows];
}

/** Rows as [dimension values..., value] tuples in a canonical order. */
function tuples(rows: WarehouseRow[], keys: string[]): unknown[][] {
  return rows.map((row) => keys.map((k) => row[k] ?? null)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  it.skipIf(!available)('MAX of the reveal time per dimension, across the one-to-many join to order items', async () => {
    const compiled = compile(engine, { reveal: 'sales', metrics: ['revenue', 'orders'], dimensions: ['products.category'], filters: PERIOD }, [{ key: FRESHNESS, template: latest('orders', 'created_at') }]);
    expect(compiled.sql).toMatch(/"spine"/); // the per-node plan
    const rows = await run(engine, compiled.sql, compiled.params);
    const expected = await run(
      engine,
      `SELECT p.category AS "products.category", MAX(o.created_at) AS "${FRESHNESS}"
       FROM shop.orders o LEFT JOIN shop.order_items i ON i.order_id = o.id LEFT JOIN shop.products p ON p.id = i.product_id
       WHERE o.created_at >= TIMESTAMP '2025-01-01' AND o.created_at < TIMESTAMP '2025-04-01'
       GROUP BY 1`,
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(tuples(rows, ['products.category', FRESHNESS])).toEqual(tuples(expected, ['products.category', FRESHNESS]));
    // The metrics are those of the per-node plan without the extra output.
    const without = compile(engine, { reveal: 'sales', metrics: ['revenue', 'orders'], dimensions: ['products.category'], filters: PERIOD }, []);
    expect(tuples(rows, ['products.category', 'revenue', 'orders'])).toEqual(tuples(await run(engine, without.sql, without.params), ['products.category', 'revenue', 'orders']));
  });

  it.skipIf(!available)('MAX of the reveal time without dimensions, under a filter through the join and a data key', async () => {
    const [{ category }] = (await run(engine, 'SELECT MIN(category) AS category FROM shop.products')) as [{ category: string }];
    const filters = [...PERIOD, { field: 'products.category', operator: 'equals', value: category }];
    const compiled = compile(engine, { reveal: 'sales', metrics: ['revenue'], filters }, [{ key: FRESHNESS, template: latest('orders', 'created_at') }], { region: 'Europe' });
    expect(compiled.sql).toMatch(/"g0"/);
    const rows = await run(engine, compiled.sql, compiled.params);
    const expected = await run(
      engine,
      `SELECT MAX(o.created_at) AS "${FRESHNESS}"
       FROM shop.orders o JOIN shop.order_items i ON i.order_id = o.id JOIN shop.products p ON p.id = i.product_id
       WHERE o.created_at >= TIMESTAMP '2025-01-01' AND o.created_at < TIMESTAMP '2025-04-01' AND p.category = $1 AND o.ship_region = 'Europe'`,
      [category],
    );
    expect(rows).toHaveLength(1);
    expect(expected[0]![FRESHNESS]).toEqual(expect.any(String));
    expect(rows[0]![FRESHNESS]).toEqual(expected[0]![FRESHNESS]);
  });

  it.skipIf(!available)('a dimension of a node that is null for some rows (customers without orders) joins null-safely', async () => {
    const compiled = compile(engine, { reveal: 'customers', metrics: ['customers'], dimensions: ['orders.channel'] }, [{ key: FRESHNESS, template: latest('customers', 'signup_at') }]);
    expect(compiled.sql).toMatch(/"spine"/);
    const rows = await run(engine, compiled.sql, compiled.params);
    const expected = await run(
      engine,
      `SELECT o.channel AS "orders.channel", MAX(c.signup_at) AS "${FRESHNESS}", COUNT(DISTINCT c.id) AS "customers"
       FROM shop.customers c LEFT JOIN shop.orders o ON o.customer_id = c.id GROUP BY 1`,
    );
    expect(expected.some((row) => row['orders.channel'] === null)).toBe(true);
    expect(tuples(rows, ['orders.channel', FRESHNESS, 'customers'])).toEqual(tuples(expected, ['orders.channel', FRESHNESS, 'customers']));
  });

  it.skipIf(!available)('a column of a node the query does not otherwise read brings that node in', async () => {
    const compiled = compile(engine, { reveal: 'customers', metrics: ['customers'], dimensions: ['segment'] }, [{ key: 'last_order_at', template: latest('orders', 'created_at') }]);
    const rows = await run(engine, compiled.sql, compiled.params);
    const expected = await run(
      engine,
      `SELECT c.segment AS "segment", MAX(o.created_at) AS "last_order_at", COUNT(*) AS "customers"
       FROM shop.customers c LEFT JOIN (SELECT customer_id, MAX(created_at) AS created_at FROM shop.orders GROUP BY 1) o ON o.customer_id = c.id
       GROUP BY 1`,
    );
    expect(tuples(rows, ['segment', 'last_order_at', 'customers'])).toEqual(tuples(expected, ['segment', 'last_order_at', 'customers']));
  });

  it.skipIf(!available)('an output mixing columns and measures: refused in the per-node plan, unchanged in one SELECT', async () => {
    // Orders per distinct day: COUNT(DISTINCT <column>) next to a measure.
    const mixed: SqlTemplate = [
      { kind: 'measure', node: 'orders', name: 'order_count' },
      { kind: 'text', text: ' * 1.0 / NULLIF(COUNT(DISTINCT ' },
      { kind: 'dimension', node: 'orders', name: 'customer_id' },
      { kind: 'text', text: '), 0)' },
    ];
    let error: unknown;
    try {
      compile(engine, { reveal: 'sales', metrics: ['revenue'], dimensions: ['products.category'] }, [{ key: 'orders_per_buyer', template: mixed }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).code).toBe('fan_out');
    expect((error as AppError).message).toMatch(/orders_per_buyer.*both columns and measures/);

    const single = compile(engine, { reveal: 'sales', metrics: ['orders'], dimensions: ['channel'] }, [{ key: 'orders_per_buyer', template: mixed }]);
    expect(single.sql).not.toMatch(/"spine"/);
    const rows = await run(engine, single.sql, single.params);
    const expected = await run(engine, `SELECT channel, COUNT(*) * 1.0 / NULLIF(COUNT(DISTINCT customer_id), 0) AS "orders_per_buyer" FROM shop.orders GROUP BY 1`);
    const close = (rs: WarehouseRow[]) => tuples(rs, ['channel', 'orders_per_buyer']).map(([c, v]) => [c, Math.round(Number(v) * 1e6)]);
    expect(close(rows)).toEqual(close(expected));
  });
});
