// The three loaders against real engines: each replaces earlier demo data, declares the SCHEMA.md
// column types, keeps keys and amounts consistent, and holds exactly the generator's totals — so all
// three engines agree with each other for the same seed.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo, loadDuckDb, loadMysql, loadPostgres, summariseDemo, type DemoTotals, type LoadResult } from '../../src/core/demo/index.js';
import { createTestDatabase, hasService, MYSQL_URL } from '../helpers/services.js';
import { columnTypes, engineTotals, integrityViolations, type EngineAccess } from './engine-checksums.js';

const OPTIONS = { orders: 2_000, seed: 7, now: new Date('2025-06-15T10:30:00.000Z') };
/** Loaded first, so each engine must show the second load replaced it. */
const EARLIER = { orders: 300, seed: 1, now: new Date('2024-01-01T00:00:00.000Z') };
const expected = summariseDemo(generateDemo(OPTIONS));

const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');

// SCHEMA.md, column by column (tables in name order, as information_schema lists them).
const SCHEMA_COLUMNS: Array<[string, 'integer' | 'text' | 'money' | 'timestamp']> = [
  ['customers.id', 'integer'], ['customers.name', 'text'], ['customers.email', 'text'], ['customers.region', 'text'],
  ['customers.country', 'text'], ['customers.segment', 'text'], ['customers.signup_at', 'timestamp'],
  ['order_items.id', 'integer'], ['order_items.order_id', 'integer'], ['order_items.product_id', 'integer'],
  ['order_items.quantity', 'integer'], ['order_items.unit_price', 'money'],
  ['orders.id', 'integer'], ['orders.customer_id', 'integer'], ['orders.status', 'text'], ['orders.channel', 'text'],
  ['orders.ship_region', 'text'], ['orders.created_at', 'timestamp'], ['orders.amount', 'money'], ['orders.discount', 'money'],
  ['products.id', 'integer'], ['products.name', 'text'], ['products.category', 'text'], ['products.price', 'money'], ['products.cost', 'money'],
];
const schemaWith = (types: Record<string, string>) => SCHEMA_COLUMNS.map(([column, kind]) => `${column} ${types[kind]}`);

const NO_VIOLATIONS = {
  ordersWithoutCustomer: 0,
  itemsWithoutOrder: 0,
  itemsWithoutProduct: 0,
  ordersWithoutItems: 0,
  amountMismatches: 0,
  priceMismatches: 0,
  orderBeforeSignup: 0,
};

/** What every engine must show after loading OPTIONS (over an EARLIER load). */
function checksLoadedDataset(access: () => EngineAccess, results: () => LoadResult[], typeExpr: string, types: Record<string, string>) {
  it('replaces earlier demo data and reports the generator’s counts', () => {
    const [earlier, latest] = results();
    expect(earlier!.counts.orders).toBe(EARLIER.orders);
    expect(latest!.counts).toEqual({
      customers: expected.customers.rows,
      products: expected.products.rows,
      orders: expected.orders.rows,
      order_items: expected.order_items.rows,
    });
    expect(latest!.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('holds exactly the generator’s totals', async () => {
    const totals: DemoTotals = await engineTotals(access());
    expect(totals).toEqual(expected);
  });

  it('keeps keys, prices and amounts consistent', async () => {
    expect(await integrityViolations(access())).toEqual(NO_VIOLATIONS);
  });

  it('declares the schema’s column types', async () => {
    expect(await columnTypes(access(), typeExpr)).toEqual(schemaWith(types));
  });
}

describe('DuckDB', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let access: EngineAccess;
  const results: LoadResult[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'demo-duckdb-'));
    const file = path.join(dir, 'demo.duckdb');
    results.push(await loadDuckDb(file, EARLIER), await loadDuckDb(file, OPTIONS));
    // Read-only, as the service opens it: only possible because the loader closed its instance.
    instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const all = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
    access = {
      all,
      one: async (sql) => (await all(sql))[0]!,
      table: (name) => `shop.${name}`,
      text: (expr) => `CAST(${expr} AS VARCHAR)`,
      timestamp: (expr) => `strftime(${expr}, '%Y-%m-%d %H:%M:%S.%g')`,
      schema: 'shop',
    };
  });
  afterAll(async () => {
    instance?.closeSync();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  checksLoadedDataset(() => access, () => results, 'data_type', { integer: 'INTEGER', text: 'VARCHAR', money: 'DECIMAL(12,2)', timestamp: 'TIMESTAMP' });

  it('declares id as the primary key of every table', async () => {
    const rows = await access.all(
      `SELECT table_name AS t, constraint_type AS k FROM information_schema.table_constraints
        WHERE table_schema = 'shop' AND constraint_type = 'PRIMARY KEY' ORDER BY table_name`,
    );
    expect(rows.map((r) => r.t)).toEqual(['customers', 'order_items', 'orders', 'products']);
  });
});

describe.skipIf(!withPostgres)('PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let client: pg.Client;
  let access: EngineAccess;
  const results: LoadResult[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    results.push(await loadPostgres(database.url, EARLIER), await loadPostgres({ connectionString: database.url }, OPTIONS));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const all = async (sql: string) => (await client.query(sql)).rows as Array<Record<string, unknown>>;
    access = {
      all,
      one: async (sql) => (await all(sql))[0]!,
      table: (name) => `shop.${name}`,
      text: (expr) => `(${expr})::text`,
      timestamp: (expr) => `to_char(${expr}, 'YYYY-MM-DD HH24:MI:SS.MS')`,
      schema: 'shop',
    };
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  checksLoadedDataset(
    () => access,
    () => results,
    `CASE WHEN data_type = 'numeric' THEN 'numeric(' || numeric_precision || ',' || numeric_scale || ')' ELSE data_type END`,
    { integer: 'INTEGER', text: 'CHARACTER VARYING', money: 'NUMERIC(12,2)', timestamp: 'TIMESTAMP WITHOUT TIME ZONE' },
  );

  it('adds primary keys and the join/time indexes', async () => {
    const rows = await access.all(`SELECT indexname AS i FROM pg_indexes WHERE schemaname = 'shop' ORDER BY indexname`);
    expect(rows.map((r) => r.i)).toEqual([
      'customers_pkey',
      'order_items_order_id_idx',
      'order_items_pkey',
      'order_items_product_id_idx',
      'orders_created_at_idx',
      'orders_customer_id_idx',
      'orders_pkey',
      'products_pkey',
    ]);
  });
});

describe.skipIf(!withMysql)('MariaDB', () => {
  const database = `demo_test_${randomBytes(6).toString('hex')}`;
  let connection: mysql.Connection;
  let access: EngineAccess;
  const results: LoadResult[] = [];

  beforeAll(async () => {
    results.push(await loadMysql(MYSQL_URL, { ...EARLIER, database }), await loadMysql(MYSQL_URL, { ...OPTIONS, database }));
    connection = await mysql.createConnection({ uri: MYSQL_URL });
    const all = async (sql: string) => (await connection.query(sql))[0] as Array<Record<string, unknown>>;
    access = {
      all,
      one: async (sql) => (await all(sql))[0]!,
      table: (name) => `\`${database}\`.\`${name}\``,
      text: (expr) => `CAST(${expr} AS CHAR)`,
      timestamp: (expr) => `DATE_FORMAT(${expr}, '%Y-%m-%d %H:%i:%s.%f')`,
      schema: database,
    };
  });
  afterAll(async () => {
    await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection?.end();
  });

  checksLoadedDataset(() => access, () => results, 'column_type', {
    integer: 'INT(11)',
    text: 'VARCHAR(255)',
    money: 'DECIMAL(12,2)',
    timestamp: 'DATETIME(3)',
  });

  it('stores names in full Unicode', async () => {
    const row = await access.one(`SELECT count(*) AS n FROM \`${database}\`.customers WHERE name LIKE '%ü%' OR name LIKE '%á%' OR name LIKE '%é%'`);
    expect(Number(row.n)).toBeGreaterThan(0);
  });
});
