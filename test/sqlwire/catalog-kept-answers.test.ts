// A mirror keeps the answers that depend only on the statement, its parameters and the connection's
// settings, and gives them again byte for byte; a statement that reads the clock, the transaction, the
// backend or anything volatile runs every time. Counted with the mirror's own record of answers it
// gave without running (keptAnswers.hits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { sqlTablesOf } from '../../src/core/sqlapi/tables.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { CatalogMirrors, type CatalogMirror } from '../../src/sqlwire/catalog/catalog-mirror.js';
import * as Q from './catalog-client-queries.js';

let mirrors: CatalogMirrors;
let mirror: CatalogMirror;

beforeAll(async () => {
  const tables = sqlTablesOf(compileModel(await readModelDir(DEMO_MODEL_DIR)).model!);
  mirrors = new CatalogMirrors();
  mirror = await mirrors.get('demo', () => ({ tables, database: 'demo' }));
});
afterAll(() => mirrors.close());

const UTC = { timezone: 'UTC' };

/** How many of the runs were answered from what the mirror kept. */
async function keptOf(runs: () => Promise<unknown>): Promise<number> {
  const before = mirror.keptAnswers.hits;
  await runs();
  return mirror.keptAnswers.hits - before;
}

describe('answers kept', () => {
  it('psql\'s \\d orders: the second time, every statement is answered as the first time, without running', async () => {
    const oid = (await mirror.run(Q.PSQL_D_ORDERS_LOOKUP, [], { settings: UTC })).rows[0]![0]!.toString();
    const statements = [Q.PSQL_D_ORDERS_LOOKUP, ...Q.PSQL_D_TABLE.map((s) => s.replaceAll('{oid}', oid))];
    const first = await Promise.all(statements.map((sql) => mirror.run(sql, [], { settings: UTC })));
    let again: typeof first = [];
    expect(await keptOf(async () => (again = await Promise.all(statements.map((sql) => mirror.run(sql, [], { settings: UTC })))))).toBe(statements.length);
    expect(again).toEqual(first);
    expect(first[1]!.rows.length).toBeGreaterThan(0);
  });

  it('the other clients\' statements, and views that read only the catalog and the settings', async () => {
    const statements: Array<[string, string[]]> = [
      [Q.JDBC_GET_TABLES, []],
      [Q.JDBC_GET_COLUMNS, []],
      [Q.JDBC_GET_PRIMARY_KEYS, []],
      [Q.ODBC_COLUMNS, []],
      [Q.METABASE_STYLE_COLUMNS, ['{public,commerce}']],
      ["SELECT setting FROM pg_catalog.pg_settings WHERE name = 'search_path'", []],
      ['SELECT version(), current_database(), current_user', []],
    ];
    for (const [sql, params] of statements) await mirror.run(sql, params, { settings: UTC });
    expect(await keptOf(() => Promise.all(statements.map(([sql, params]) => mirror.run(sql, params, { settings: UTC }))))).toBe(statements.length);
  });

  it('separately for each parameter value, row limit and setting that changes the answer', async () => {
    const lookup = 'SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relname LIKE $1 AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1';
    const orders = await mirror.run(lookup, ['order%'], { settings: UTC });
    const products = await mirror.run(lookup, ['product%'], { settings: UTC });
    expect([orders.rows.map(String), products.rows.map(String)]).toEqual([['order_items', 'orders'], ['products']]);
    const limited = await mirror.run(lookup, ['order%'], { settings: UTC, maxRows: 1 });
    expect([limited.rows.length, limited.suspended]).toEqual([1, true]);
    // search_path decides what pg_table_is_visible sees: another answer under another setting.
    expect((await mirror.run(lookup, ['order%'], { settings: { ...UTC, search_path: 'pg_catalog' } })).rows).toEqual([]);
    expect(await keptOf(() => mirror.run(lookup, ['order%'], { settings: UTC }))).toBe(1);
  });

  it('descriptions, whatever the statement calls: describing runs nothing', async () => {
    const described = await mirror.describe('SELECT pg_catalog.now() AS at, $1::int4 AS n', [], UTC);
    expect(await keptOf(() => mirror.describe('SELECT pg_catalog.now() AS at, $1::int4 AS n', [], UTC))).toBe(1);
    expect(described.paramTypes).toEqual([23]);
  });

  it('not an error', async () => {
    const sql = 'SELECT 1/0 FROM pg_catalog.pg_class';
    await expect(mirror.run(sql)).rejects.toMatchObject({ sqlstate: '22012' });
    expect(await keptOf(() => mirror.run(sql).catch(() => undefined))).toBe(0);
  });
});

describe('answers run every time', () => {
  const varying: Array<[string, (string | null)[]]> = [
    ['SELECT pg_catalog.now()', []],
    ['SELECT statement_timestamp()', []],
    ['SELECT CURRENT_TIMESTAMP', []],
    ['SELECT CURRENT_DATE', []],
    ["SELECT 'now'::timestamptz", []],
    ["SELECT date 'today'", []],
    ['SELECT $1::timestamptz', ['now']],
    ["SELECT ('no' || 'w')::timestamptz", []],
    ['SELECT pg_catalog.clock_timestamp()', []],
    ['SELECT pg_catalog.pg_backend_pid()', []],
    ['SELECT pg_catalog.pg_postmaster_start_time()', []],
    ['SELECT pg_catalog.random()', []],
    ['SELECT pg_catalog.gen_random_uuid()', []],
    ['SELECT pg_catalog.txid_current()', []],
    ['SELECT age(datfrozenxid) FROM pg_catalog.pg_database', []],
    ['SELECT count(*) FROM pg_catalog.pg_stat_activity', []],
    ['SELECT xact_rollback FROM pg_catalog.pg_stat_database', []],
    ['SELECT count(*) FROM pg_catalog.pg_locks', []],
    ['SELECT count(*) FROM pg_catalog.pg_prepared_statements', []],
    ['SELECT utc_offset FROM pg_catalog.pg_timezone_names LIMIT 1', []],
    ['SELECT relname FROM pg_catalog.pg_class TABLESAMPLE BERNOULLI (50)', []],
    ["SELECT query_to_xml('SELECT 1', true, false, '')", []],
    ['SELECT (1::int8).pg_try_advisory_xact_lock', []],
  ];

  for (const [sql, params] of varying) {
    it(sql, async () => {
      await mirror.run(sql, params, { settings: UTC });
      expect(await keptOf(() => mirror.run(sql, params, { settings: UTC }))).toBe(0);
    });
  }
});

describe('what is kept is bounded', () => {
  it('keeps at most 4 MB of answers, and no answer over 1 MB', async () => {
    const big = 'SELECT pg_catalog.repeat($1, $2::int4)';
    for (let i = 0; i < 12; i++) await mirror.run(big, [String(i % 10), String(600_000)]);
    const { bytes, entries } = mirror.keptAnswers;
    expect(bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(entries).toBeGreaterThan(0);
    await mirror.run(big, ['x', String(1_200_000)]);
    expect(await keptOf(() => mirror.run(big, ['x', String(1_200_000)]))).toBe(0);
    expect(await keptOf(() => mirror.run(big, ['9', String(600_000)]))).toBe(1);
  });
});
