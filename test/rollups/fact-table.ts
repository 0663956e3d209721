// A generated fact table for rollup tests: orders over two years with a seeded generator (the same rows
// on every run), nulls in some dimensions, integers and two-place decimals, loaded into an embedded
// DuckDB file and into a PostgreSQL schema of the test's own; and the CML model over it with rollups of
// each kind (by day partitioned by month, by month with a distinct count, in another zone, by a date,
// over a build range, by a
// timestamp stored as it is, without time).
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { createRng, intBetween, pickOne, type Rng } from '../../src/core/demo/prng.js';

export const REGIONS = ['east', 'north', 'south', 'west'] as const;
export const STATUSES = ['cancelled', 'complete', 'pending'] as const;
export const CHANNELS = ['app', 'store', 'web'] as const;
/** The first and last day rows fall on (UTC wall time). */
export const FIRST_DAY = Date.UTC(2024, 0, 1);
export const DAYS = 731;

export interface FactRow {
  readonly id: number;
  readonly region: string | null;
  readonly status: string | null;
  readonly channel: string;
  /** Two places, as text, so both engines read the exact decimal. */
  readonly amount: string | null;
  readonly quantity: number;
  readonly customerId: number;
  /** `YYYY-MM-DD HH:mm:ss`, UTC. */
  readonly createdAt: string;
}

const maybe = <T>(rng: Rng, nullShare: number, value: T): T | null => (rng() < nullShare ? null : value);

export function factRows(count: number, seed = 7): FactRow[] {
  const rng = createRng(seed, 0);
  return Array.from({ length: count }, (_, i) => {
    const cents = intBetween(rng, 100, 9_999_999);
    const at = new Date(FIRST_DAY + Math.floor(rng() * DAYS * 86_400) * 1000);
    return {
      id: i + 1,
      region: maybe(rng, 0.08, pickOne(rng, REGIONS)),
      status: maybe(rng, 0.05, pickOne(rng, STATUSES)),
      channel: pickOne(rng, CHANNELS),
      amount: maybe(rng, 0.05, (cents / 100).toFixed(2)),
      quantity: intBetween(rng, 1, 20),
      customerId: intBetween(rng, 1, 400),
      createdAt: at.toISOString().slice(0, 19).replace('T', ' '),
    };
  });
}

const COLUMNS = 'id INTEGER PRIMARY KEY, region VARCHAR(16), status VARCHAR(16), channel VARCHAR(16), amount DECIMAL(12,2), quantity INTEGER, customer_id INTEGER, created_at TIMESTAMP';
const values = (row: FactRow) => [row.id, row.region, row.status, row.channel, row.amount, row.quantity, row.customerId, row.createdAt];

export async function loadDuckDbFacts(file: string, rows: readonly FactRow[]): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE TABLE orders (${COLUMNS})`);
    const appender = await connection.createAppender('orders');
    for (const row of rows) {
      for (const value of values(row)) {
        if (value === null) appender.appendNull();
        else appender.appendVarchar(String(value));
      }
      appender.endRow();
    }
    appender.closeSync();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export async function loadPostgresFacts(url: string, schema: string, rows: readonly FactRow[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`CREATE TABLE ${schema}.orders (${COLUMNS})`);
    for (let start = 0; start < rows.length; start += 500) {
      const chunk = rows.slice(start, start + 500);
      const placeholders = chunk.map((_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(', ')})`).join(', ');
      await client.query(`INSERT INTO ${schema}.orders VALUES ${placeholders}`, chunk.flatMap(values));
    }
  } finally {
    await client.end();
  }
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The model over the table `table` (schema-qualified). */
export function factModel(table: string): string {
  return `node orders {
  connection: warehouse  table: ${table}
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension channel { type: string }
  dimension amount { type: number }
  dimension quantity { type: number }
  dimension customer_id { type: number }
  dimension created_at { type: timestamp }
  dimension ordered_on { type: date  sql: CAST(\${TABLE}.created_at AS DATE) }
  dimension created_hour { type: timestamp  sql: DATE_TRUNC('hour', \${TABLE}.created_at) }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  measure units { type: sum  sql: \${quantity} }
  measure avg_amount { type: avg  sql: \${amount} }
  measure smallest { type: min  sql: \${amount} }
  measure largest { type: max  sql: \${quantity} }
  measure completed_revenue { type: sum  filter: \${status} = 'complete'
    sql: \${amount} }
  measure buyers { type: count_distinct  sql: \${customer_id} }
  measure per_buyer { type: ratio  numerator: revenue  denominator: buyers }
  measure aov { type: number  sql: \${revenue} / nullif(\${order_count}, 0) }
  data_key region { dimension: region  attribute: region }
  rollup daily { dimensions: [region, status, channel]  measures: [revenue, units, order_count, avg_amount, smallest, largest, completed_revenue, aov]  time: created_at  grain: day  partition: month  refresh: on_deploy }
  rollup monthly_region { dimensions: [region]  measures: [revenue, order_count, avg_amount, buyers, per_buyer]  time: created_at  grain: month  refresh: on_deploy }
  rollup recent_daily { dimensions: [region]  measures: [revenue, order_count, smallest]  time: created_at  grain: day  build_range: "from 2025-01-01"  refresh: on_deploy }
  rollup paris_daily { dimensions: [region]  measures: [revenue, order_count, avg_amount]  time: created_at  grain: day  timezone: "Europe/Paris"  refresh: on_deploy }
  rollup by_order_day { dimensions: [channel, region]  measures: [revenue, order_count, units]  time: ordered_on  grain: day  refresh: on_deploy }
  rollup by_hour { dimensions: [created_hour]  measures: [order_count, units]  refresh: on_deploy }
  rollup totals_by_region { dimensions: [region]  measures: [revenue, order_count, units, smallest]  refresh: on_deploy }
}
`;
}
