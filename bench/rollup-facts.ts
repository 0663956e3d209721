// The rollups benchmark's fact table and model: `rows` orders over two years (2024 and 2025, UTC),
// generated inside the engine in one INSERT … SELECT (DuckDB range(), PostgreSQL generate_series), each
// column a multiplicative hash of the row number so both engines hold the same rows; the CML model with
// rollups by month, by month and one dimension, by month and two; and a dashboard's queries.
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import type { SemanticQueryInput } from '../src/core/semantic/query.js';

export const REGIONS = ['north', 'south', 'east', 'west', 'central', 'coast', 'hills', 'islands'];
export const CHANNELS = ['web', 'app', 'store', 'phone'];
export const STATUSES = ['complete', 'pending', 'cancelled'];
export const PRODUCTS = 500;
/** Seconds in the 731 days of 2024 and 2025: created_at is 2024-01-01 plus a permutation of them. */
const SPAN_SECONDS = 731 * 86_400;

type Engine = 'duckdb' | 'postgres';

/** `k`-th of `values`, k a hash of n (a prime modulus decorrelates the columns). */
function pick(engine: Engine, values: readonly string[], multiplier: number, modulus: number): string {
  const list = values.map((v) => `'${v}'`).join(', ');
  const index = `1 + (n * ${multiplier} % ${modulus}) % ${values.length}`;
  return engine === 'duckdb' ? `[${list}][${index}]` : `(ARRAY[${list}])[(${index})::int]`;
}

function selectList(engine: Engine): string {
  const seconds = `n * 2654435761 % ${SPAN_SECONDS}`;
  const createdAt = engine === 'duckdb' ? `TIMESTAMP '2024-01-01 00:00:00' + to_seconds(${seconds})` : `TIMESTAMP '2024-01-01 00:00:00' + make_interval(secs => ${seconds})`;
  const product = `(n * 2246822519 % 1000033) % ${PRODUCTS}`;
  const productText = engine === 'duckdb' ? `'p' || lpad(CAST(${product} AS VARCHAR), 3, '0')` : `'p' || lpad((${product})::text, 3, '0')`;
  return [
    'n AS id',
    `${createdAt} AS created_at`,
    `${pick(engine, REGIONS, 40503, 1000003)} AS region`,
    `${pick(engine, CHANNELS, 97787, 999983)} AS channel`,
    `${pick(engine, STATUSES, 61543, 999979)} AS status`,
    `${productText} AS product`,
    // Cents as an exact decimal: an integer times 0.01, never a float.
    `CAST(CAST(n * 3266489917 % 1000000 AS DECIMAL(14,0)) * 0.01 AS DECIMAL(12,2)) AS amount`,
    `1 + (n * 668265263 % 1000037) % 20 AS quantity`,
  ].join(',\n  ');
}

const COLUMNS = 'id BIGINT, created_at TIMESTAMP, region VARCHAR(16), channel VARCHAR(16), status VARCHAR(16), product VARCHAR(8), amount DECIMAL(12,2), quantity INTEGER';

/** Writes `main.orders` of a new DuckDB file; the file is closed when this returns (the warehouse opens it read-only). */
export async function loadDuckDbOrders(file: string, rows: number): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE TABLE orders (${COLUMNS})`);
    await connection.run(`INSERT INTO orders SELECT\n  ${selectList('duckdb')}\nFROM range(${rows}) AS t(n)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Writes `public.orders` of the database at `url`: UNLOGGED (a benchmark's table need not survive a
 * crash, and skipping the WAL halves the load), no index (every dashboard query reads all rows or a
 * year of them, where a sequential scan is the plan anyway), analysed.
 */
export async function loadPostgresOrders(url: string, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE UNLOGGED TABLE orders (${COLUMNS})`);
    await client.query(`INSERT INTO orders SELECT\n  ${selectList('postgres')}\nFROM generate_series(0::bigint, ${rows - 1}::bigint) AS n`);
    await client.query('VACUUM ANALYZE orders');
  } finally {
    await client.end();
  }
}

interface BenchRollup {
  readonly name: string;
  readonly dimensions: readonly string[];
  readonly measures: readonly string[];
  /** Partitioned by year when set; built whole otherwise. */
  readonly byYear?: true;
}

/** The rollups, all by month of created_at: the CML model's and, the same, Cube's pre-aggregations. */
export const ROLLUPS: readonly BenchRollup[] = [
  { name: 'monthly', dimensions: [], measures: ['revenue', 'order_count', 'units'] },
  { name: 'monthly_by_region', dimensions: ['region'], measures: ['revenue', 'order_count'], byYear: true },
  { name: 'monthly_by_product', dimensions: ['product'], measures: ['revenue', 'order_count'] },
  { name: 'monthly_by_channel_status', dimensions: ['channel', 'status'], measures: ['revenue', 'order_count'] },
];

export const ROLLUP_NAMES = ROLLUPS.map((r) => r.name);

/** The model over `table`; monthly_by_region is partitioned by year, the others built whole. */
export function ordersModel(table: string): string {
  const rollups = ROLLUPS.map((r) => {
    const dimensions = r.dimensions.length > 0 ? `dimensions: [${r.dimensions.join(', ')}]  ` : '';
    return `  rollup ${r.name} { ${dimensions}measures: [${r.measures.join(', ')}]  time: created_at  grain: month  ${r.byYear ? 'partition: year  ' : ''}refresh: on_deploy }`;
  });
  return `node orders {
  connection: warehouse  table: ${table}
  dimension id { type: number  primary_key: true }
  dimension created_at { type: timestamp }
  dimension region { type: string }
  dimension channel { type: string }
  dimension status { type: string }
  dimension product { type: string }
  dimension amount { type: number }
  dimension quantity { type: number }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  measure units { type: sum  sql: \${quantity} }
${rollups.join('\n')}
}
`;
}

/**
 * Cube's model of the same table (Cube 0.35, JavaScript): a cube `orders` with the same fields, and one
 * pre-aggregation per rollup, kept in the source database (`external: false`: no Cube Store), UTC.
 */
export function cubeOrdersModel(table: string): string {
  const preAggregations = ROLLUPS.map((r) => {
    const members = (names: readonly string[]) => `[${names.map((n) => `CUBE.${n}`).join(', ')}]`;
    return `    ${r.name}: {
      type: 'rollup',
      external: false,
      measures: ${members(r.measures)},
      dimensions: ${members(r.dimensions)},
      time_dimension: CUBE.created_at,
      granularity: 'month',${r.byYear ? "\n      partition_granularity: 'year'," : ''}
      refresh_key: { every: '1 hour' },
    },`;
  });
  return `cube('orders', {
  sql_table: '${table}',
  dimensions: {
    id: { sql: 'id', type: 'number', primary_key: true },
    created_at: { sql: 'created_at', type: 'time' },
    region: { sql: 'region', type: 'string' },
    channel: { sql: 'channel', type: 'string' },
    status: { sql: 'status', type: 'string' },
    product: { sql: 'product', type: 'string' },
  },
  measures: {
    order_count: { type: 'count' },
    revenue: { sql: 'amount', type: 'sum' },
    units: { sql: 'quantity', type: 'sum' },
  },
  pre_aggregations: {
${preAggregations.join('\n')}
  },
});
`;
}

export interface DashboardQuery {
  readonly name: string;
  readonly query: SemanticQueryInput;
  /** The same query for Cube's /cubejs-api/v1/load, over a cube `orders` of the same table. */
  readonly cube: Record<string, unknown>;
}

/** A dashboard: revenue by month, by month and region, the top 10 products, one filtered total. */
export const DASHBOARD: readonly DashboardQuery[] = [
  {
    name: 'by_month',
    query: { node: 'orders', dimensions: ['created_at.month'], measures: ['revenue', 'order_count', 'units'], sorts: [{ field: 'created_at.month', direction: 'asc' }] },
    cube: { measures: ['orders.revenue', 'orders.order_count', 'orders.units'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }], order: { 'orders.created_at': 'asc' } },
  },
  {
    name: 'by_month_and_region',
    query: { node: 'orders', dimensions: ['created_at.month', 'region'], measures: ['revenue', 'order_count'], sorts: [{ field: 'created_at.month', direction: 'asc' }, { field: 'region', direction: 'asc' }] },
    cube: { measures: ['orders.revenue', 'orders.order_count'], dimensions: ['orders.region'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }], order: [['orders.created_at', 'asc'], ['orders.region', 'asc']] },
  },
  {
    name: 'top_10_products',
    query: { node: 'orders', dimensions: ['product'], measures: ['revenue'], sorts: [{ field: 'revenue', direction: 'desc' }], limit: 10 },
    cube: { measures: ['orders.revenue'], dimensions: ['orders.product'], order: { 'orders.revenue': 'desc' }, limit: 10 },
  },
  {
    name: 'filtered_total',
    query: {
      node: 'orders',
      measures: ['revenue', 'order_count'],
      filters: [
        { field: 'channel', operator: 'equals', value: 'web' },
        { field: 'status', operator: 'equals', value: 'complete' },
        { field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-12-31'] },
      ],
    },
    cube: {
      measures: ['orders.revenue', 'orders.order_count'],
      filters: [
        { member: 'orders.channel', operator: 'equals', values: ['web'] },
        { member: 'orders.status', operator: 'equals', values: ['complete'] },
      ],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-01-01', '2025-12-31'] }],
    },
  },
];
