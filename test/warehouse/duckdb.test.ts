// The DuckDB driver on a temporary database file: typed, normalised reads; time and row limits; every
// kind of write, file access and extension loading refused; nothing carried between runs.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { checkRowCaps, checkTimeout, EXPECTED_ROWS, expectRefused, ITEMS_DDL, itemsInsertSql, OPTIONS } from './fixture.js';

const ITEM_COLUMNS = [
  { name: 'id', type: 'INTEGER' },
  { name: 'big', type: 'BIGINT' },
  { name: 'price', type: 'DECIMAL(10,2)' },
  { name: 'name', type: 'VARCHAR' },
  { name: 'active', type: 'BOOLEAN' },
  { name: 'day', type: 'DATE' },
  { name: 'seen_at', type: 'TIMESTAMP' },
];

describe('DuckDB warehouse', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warehouse-duckdb-'));
  const path = join(dir, 'analytics.duckdb');
  let warehouse: Warehouse;

  /** Reads the victim table with a separate read-only instance opened after the warehouse closed. */
  async function victimChecksum(): Promise<string> {
    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`select md5(coalesce(string_agg(id || ':' || note, ',' order by id), '')) from victim`);
    const [row] = reader.getRows();
    const tables = await connection.runAndReadAll(`select count(*) from duckdb_tables() where table_name = 'evil'`);
    connection.closeSync();
    instance.closeSync();
    return `${String(row![0])}/${String(tables.getRows()[0]![0])}`;
  }

  beforeAll(async () => {
    // The loader writes the file and closes it before the read-only warehouse opens it.
    const loader = await DuckDBInstance.create(path);
    const connection = await loader.connect();
    await connection.run(ITEMS_DDL.duckdb);
    await connection.run(itemsInsertSql());
    await connection.run('create table victim (id integer, note varchar)');
    await connection.run(`insert into victim values (1, 'one'), (2, 'two')`);
    connection.closeSync();
    loader.closeSync();
    warehouse = openWarehouse({ engine: 'duckdb', path });
  });

  afterAll(async () => {
    await warehouse?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads typed columns and normalised values', async () => {
    const result = await warehouse.run('select * from items order by id', [], OPTIONS);
    expect(result.columns).toEqual(ITEM_COLUMNS);
    expect(result.rows).toEqual(EXPECTED_ROWS);
    expect(result.rowCount).toBe(10);
    expect(result.truncated).toBe(false);
  });

  it('binds $n parameters and turns instants into UTC', async () => {
    const result = await warehouse.run(
      `select name, timestamptz '2024-02-29 13:45:30.123+05:30' as instant, [1, 2] as list from items where id = $1`,
      [3],
      OPTIONS,
    );
    expect(result.rows).toEqual([{ name: 'item 3', instant: '2024-02-29T08:15:30.123Z', list: '[1, 2]' }]);
    expect(result.columns[1]).toEqual({ name: 'instant', type: 'TIMESTAMP WITH TIME ZONE' });
  });

  it('reports the engine message for a failing query as a 400', async () => {
    const error = await expectRefused(warehouse.run('select nope from items', [], OPTIONS));
    expect(error.message).toMatch(/nope/);
  });

  it('fails a statement that fails after its first chunks instead of answering the rows read before', async () => {
    // DuckDB ends such a streamed result as one read to its end; the driver tells them apart.
    const failing = `SELECT range AS n, CASE WHEN range = 300000 THEN error('row 300000 fails') ELSE range END AS v FROM range(400000)`;
    const error = await expectRefused(warehouse.run(failing, [], { ...OPTIONS, maxRows: 1_000_000 }));
    expect(error.code).toBe('warehouse_query_failed');
    const rows: number[] = [];
    const streamed = warehouse.stream(failing, [], { ...OPTIONS, maxRows: 1_000_000 }, { columns: () => undefined, rows: (batch) => void rows.push(batch.length) });
    expect((await expectRefused(streamed)).code).toBe('warehouse_query_failed');
    expect(rows.length).toBeGreaterThan(0);
    expect((await warehouse.run('SELECT 42 AS answer', [], OPTIONS)).rows).toEqual([{ answer: 42 }]);
  });

  it('caps rows while reading', async () => {
    await checkRowCaps(warehouse);
  });

  it('interrupts a long query near the time limit and stays usable', async () => {
    const elapsed = await checkTimeout(
      warehouse,
      'select sum(a.range * b.range + length(b.range::varchar)) from range(200000) a, range(200000) b',
    );
    console.info(`DuckDB timeout of 1000 ms took ${Math.round(elapsed)} ms`);
  });

  it('refuses writes, file access, attaching and extensions, and leaves the data unchanged', async () => {
    const before = await victimChecksum();
    const outside = join(dir, 'outside.csv');
    const attempts = [
      `insert into victim values (3, 'three')`,
      `update victim set note = 'x'`,
      'delete from victim',
      'create table evil (a int)',
      'drop table victim',
      'alter table victim add column x int',
      'create table evil as select * from victim',
      'select * into evil from victim',
      'select 1; drop table victim',
      `copy victim to '${outside}'`,
      `copy (select * from victim) to '${outside}' (format csv)`,
      `attach '${join(dir, 'other.duckdb')}' as other`,
      `attach ':memory:' as other`,
      'install httpfs',
      'load httpfs',
      `select * from read_csv('/etc/passwd')`,
      `select * from read_text('/etc/hostname')`,
      `select * from glob('/etc/*')`,
      `set enable_external_access = true`,
      `set access_mode = 'READ_WRITE'`,
      'checkpoint',
      'create temporary table scratch as select 1',
      `export database '${join(dir, 'export')}'`,
    ];
    for (const sql of attempts) {
      await expectRefused(warehouse.run(sql, [], OPTIONS), [400], sql);
    }
    const fileError = await expectRefused(warehouse.run(`select * from read_csv('/etc/passwd')`, [], OPTIONS));
    expect(fileError.message).toMatch(/disabled by configuration/);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(dir, 'other.duckdb'))).toBe(false);

    await warehouse.close();
    expect(await victimChecksum()).toBe(before);
    expect(before.endsWith('/0')).toBe(true);
    warehouse = openWarehouse({ engine: 'duckdb', path });
  });

  it('keeps its settings locked', async () => {
    const result = await warehouse.run(
      `select name, value from duckdb_settings() where name in ('access_mode', 'enable_external_access', 'lock_configuration', 'autoload_known_extensions', 'autoinstall_known_extensions') order by name`,
      [],
      OPTIONS,
    );
    expect(result.rows).toEqual([
      { name: 'access_mode', value: 'read_only' },
      { name: 'autoinstall_known_extensions', value: 'false' },
      { name: 'autoload_known_extensions', value: 'false' },
      { name: 'enable_external_access', value: 'false' },
      { name: 'lock_configuration', value: 'true' },
    ]);
  });

  it('does not carry session state to the next run', async () => {
    // Runs one after another reuse the same connection: each way a statement could leave state
    // behind is tried, then looked for by the next run.
    await expectRefused(warehouse.run(`set variable leak = 42`, [], OPTIONS));
    await warehouse.run(`select * from query('set variable leak = 42')`, [], OPTIONS).catch(() => undefined);
    await warehouse.run(`select * from query('create temporary table scratch as select 1')`, [], OPTIONS).catch(() => undefined);
    expect((await warehouse.run(`select getvariable('leak') as v`, [], OPTIONS)).rows).toEqual([{ v: null }]);
    await expectRefused(warehouse.run('create temporary table scratch as select 1', [], OPTIONS));
    await expectRefused(warehouse.run('select * from scratch', [], OPTIONS));
    await expectRefused(warehouse.run(`set threads = 1`, [], OPTIONS));
    await expectRefused(warehouse.run(`prepare leak as select 1`, [], OPTIONS));
    await expectRefused(warehouse.run(`execute leak`, [], OPTIONS));
  });

  it('lists tables and columns in schema()', async () => {
    const tables = await warehouse.schema();
    expect(tables.find((t) => t.name === 'items')).toEqual({ schema: 'main', name: 'items', columns: ITEM_COLUMNS });
    expect(tables.map((t) => t.name).sort()).toEqual(['items', 'victim']);
  });

  it('reports a missing file as a 502', async () => {
    const missing = openWarehouse({ engine: 'duckdb', path: join(dir, 'missing.duckdb') });
    await expectRefused(missing.run('select 1', [], OPTIONS), [502]);
    await missing.close();
  });
});
