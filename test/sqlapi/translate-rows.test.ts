// A translated SELECT returns the rows PostgreSQL itself returns for the same question asked of the
// demo's tables: the translation's claims about SQL semantics (negative comparisons drop NULLs, LIKE
// shapes, NOT pushed down, time grains, joined fields, HAVING) are checked on a real database, with
// some values set to NULL, which the generated demo data has none of.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { loadPostgres } from '../../src/core/demo/index.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { classifyStatements, type GovernedStatement } from '../../src/core/sqlapi/classify.js';
import { loadSqlParser } from '../../src/core/sqlapi/pg-ast.js';
import { sqlTablesOf, type SqlTable } from '../../src/core/sqlapi/tables.js';
import { translateSelect } from '../../src/core/sqlapi/translate.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { TestClock } from '../helpers/clock.js';

// Every "now" of these tests is the test clock's (a fixed instant, whatever the machine's date).
const NOW = new TestClock().now();
const withPostgres = await hasService('postgres');

describe.skipIf(!withPostgres)('translated SELECTs return PostgreSQL\'s own rows', () => {
  let model: SemanticModel;
  let tables: SqlTable[];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    await loadSqlParser();
    model = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
    tables = sqlTablesOf(model);
    db = await createTestDatabase();
    await loadPostgres(db.url, { orders: 600, now: NOW });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('ALTER TABLE shop.orders ALTER COLUMN channel DROP NOT NULL, ALTER COLUMN status DROP NOT NULL');
    await client.query('ALTER TABLE shop.customers ALTER COLUMN segment DROP NOT NULL');
    await client.query('UPDATE shop.orders SET channel = NULL WHERE id % 5 = 0');
    await client.query('UPDATE shop.orders SET status = NULL WHERE id % 7 = 0');
    await client.query('UPDATE shop.customers SET segment = NULL WHERE id % 4 = 0');
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  /** A value as both sides print it: numbers to 6 decimals (numeric arrives as text), instants in ISO. */
  function normal(value: unknown): string {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))) return Number(value).toFixed(6);
    return JSON.stringify(value);
  }

  async function translatedRows(sql: string, params: string[]): Promise<string[][]> {
    const [statement] = classifyStatements(sql);
    const { query, columns } = translateSelect(statement as GovernedStatement, params, tables);
    const compiled = compileQuery(model, query, { dialect: DIALECTS.postgres, attributes: { region: '*' }, now: NOW, defaultLimit: 50_000 });
    const { rows } = await client.query<Record<string, unknown>>(compiled.sql, [...compiled.params]);
    return rows.map((row) => columns.map((column) => normal(row[column.field])));
  }

  async function referenceRows(sql: string, params: string[]): Promise<string[][]> {
    const { rows } = await client.query<unknown[]>({ text: sql, values: params, rowMode: 'array' });
    return rows.map((row) => row.map(normal));
  }

  const sorted = (rows: string[][]) => rows.map((row) => JSON.stringify(row)).sort();

  it.each<[string, string, string[]?]>([
    ["SELECT channel, MEASURE(order_count) FROM orders WHERE channel <> 'web' GROUP BY 1", "SELECT channel, count(*) FROM shop.orders WHERE channel <> 'web' GROUP BY 1"],
    ["SELECT status, SUM(gross_revenue) FROM orders WHERE status NOT IN ('completed', 'pending') GROUP BY 1", "SELECT status, sum(amount) FROM shop.orders WHERE status NOT IN ('completed', 'pending') GROUP BY 1"],
    ["SELECT channel, COUNT(DISTINCT buyers) FROM orders WHERE NOT (status = 'completed' AND channel = 'web') GROUP BY 1", "SELECT channel, count(DISTINCT customer_id) FROM shop.orders WHERE NOT (status = 'completed' AND channel = 'web') GROUP BY 1"],
    ["SELECT status, MEASURE(order_count) FROM orders WHERE channel NOT ILIKE '%web%' GROUP BY 1", "SELECT status, count(*) FROM shop.orders WHERE channel NOT ILIKE '%web%' GROUP BY 1"],
    ["SELECT status, MEASURE(order_count) FROM orders WHERE channel IS NULL OR status ILIKE 'c%' GROUP BY 1", "SELECT status, count(*) FROM shop.orders WHERE channel IS NULL OR status ILIKE 'c%' GROUP BY 1"],
    ["SELECT status, MEASURE(order_count) FROM orders WHERE LOWER(status) LIKE '%ed' AND channel ILIKE 'MOB%' GROUP BY 1", "SELECT status, count(*) FROM shop.orders WHERE lower(status) LIKE '%ed' AND channel ILIKE 'MOB%' GROUP BY 1"],
    ["SELECT channel, MEASURE(order_count) FROM orders WHERE created_at NOT BETWEEN '2025-01-01' AND '2025-12-31' GROUP BY 1", "SELECT channel, count(*) FROM shop.orders WHERE created_at NOT BETWEEN '2025-01-01' AND '2025-12-31' GROUP BY 1"],
    [
      "SELECT DATE_TRUNC('month', created_at) AS month, MEASURE(buyers) FROM orders WHERE created_at >= '2025-07-01' AND created_at < DATE '2026-01-01' GROUP BY 1",
      "SELECT date_trunc('month', created_at), count(DISTINCT customer_id) FROM shop.orders WHERE created_at >= '2025-07-01' AND created_at < DATE '2026-01-01' GROUP BY 1",
    ],
    [
      "SELECT created_at::date, MEASURE(order_count) FROM orders WHERE created_at::date BETWEEN '2026-03-01' AND '2026-03-10' GROUP BY 1",
      "SELECT created_at::date, count(*) FROM shop.orders WHERE created_at::date BETWEEN '2026-03-01' AND '2026-03-10' GROUP BY 1",
    ],
    // A timestamp's text read as a date, and DATE '…' a midnight, whatever time follows the day.
    [
      "SELECT created_at::date, MEASURE(order_count) FROM orders WHERE created_at::date IN ('2026-03-02 10:00:00', '2026-03-03 23:59:59', '2026-03-04 12:00', '2026-03-05T08:00:00+05', '2026-03-06 06:00', '2026-03-07 18:00', '2026-03-08 09:00') GROUP BY 1",
      "SELECT created_at::date, count(*) FROM shop.orders WHERE created_at::date IN ('2026-03-02 10:00:00', '2026-03-03 23:59:59', '2026-03-04 12:00', '2026-03-05T08:00:00+05', '2026-03-06 06:00', '2026-03-07 18:00', '2026-03-08 09:00') GROUP BY 1",
    ],
    [
      "SELECT DATE_TRUNC('day', created_at), MEASURE(order_count) FROM orders WHERE created_at >= DATE '2026-03-01 18:00:00' AND created_at < $1::date GROUP BY 1",
      "SELECT date_trunc('day', created_at), count(*) FROM shop.orders WHERE created_at >= DATE '2026-03-01 18:00:00' AND created_at < $1::date GROUP BY 1",
      ['2026-03-21 18:00:00'],
    ],
    [
      "SELECT \"customers.segment\", MEASURE(order_count) FROM orders WHERE \"customers.region\" = 'Europe' AND \"customers.segment\" <> 'consumer' GROUP BY 1",
      "SELECT c.segment, count(*) FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id WHERE c.region = 'Europe' AND c.segment <> 'consumer' GROUP BY 1",
    ],
    [
      'SELECT status, SUM(gross_revenue), MEASURE(order_count) FROM orders GROUP BY 1 HAVING SUM(gross_revenue) > 1000 AND MEASURE(order_count) <> 40',
      'SELECT status, sum(amount), count(*) FROM shop.orders GROUP BY 1 HAVING sum(amount) > 1000 AND count(*) <> 40',
    ],
    [
      'SELECT channel, MEASURE(order_count) FROM orders WHERE created_at >= $1 AND status = $2 GROUP BY 1',
      'SELECT channel, count(*) FROM shop.orders WHERE created_at >= $1 AND status = $2 GROUP BY 1',
      ['2026-01-15 12:00:00', 'completed'],
    ],
  ])('%s', async (sql, reference, params = []) => {
    const expected = await referenceRows(reference, params);
    expect(expected.length).toBeGreaterThan(0);
    expect(sorted(await translatedRows(sql, params))).toEqual(sorted(expected));
  });

  it('orders and limits as PostgreSQL does (ascending: nulls last in both)', async () => {
    const sql = 'SELECT status, MEASURE(order_count) AS n FROM orders GROUP BY status ORDER BY status LIMIT 3';
    const expected = await referenceRows('SELECT status, count(*) FROM shop.orders GROUP BY status ORDER BY status LIMIT 3', []);
    expect(await translatedRows(sql, [])).toEqual(expected);
  });
});
