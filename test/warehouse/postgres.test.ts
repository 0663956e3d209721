// The PostgreSQL driver against a real server: typed, normalised reads; time and row limits; every
// kind of write refused with the data untouched; no session state carried between runs.
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { checkRowCaps, checkTimeout, EXPECTED_ROWS, expectRefused, ITEMS_DDL, itemsInsertSql, OPTIONS } from './fixture.js';

describe.skipIf(!(await hasService('postgres')))('PostgreSQL warehouse', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let warehouse: Warehouse;
  let single: Warehouse;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(ITEMS_DDL.postgres);
    await admin.query(itemsInsertSql());
    await admin.query('create table victim (id serial primary key, note text)');
    await admin.query(`insert into victim values (1, 'one'), (2, 'two')`);
    const url = new URL(database.url);
    const config = { engine: 'postgres' as const, host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) };
    warehouse = openWarehouse(config);
    // One connection: every run reuses the same session, so leaks would show.
    single = openWarehouse(config, { maxConnections: 1 });
  });

  afterAll(async () => {
    await warehouse?.close();
    await single?.close();
    await admin?.end();
    await database?.drop();
  });

  async function victimChecksum(): Promise<string> {
    const { rows } = await admin.query<{ sum: string }>(`select md5(coalesce(string_agg(id || ':' || note, ',' order by id), '')) as sum from victim`);
    return rows[0]!.sum;
  }

  it('reads typed columns and normalised values', async () => {
    const result = await warehouse.run('select * from items order by id', [], OPTIONS);
    expect(result.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'big', type: 'BIGINT' },
      { name: 'price', type: 'NUMERIC' },
      { name: 'name', type: 'CHARACTER VARYING' },
      { name: 'active', type: 'BOOLEAN' },
      { name: 'day', type: 'DATE' },
      { name: 'seen_at', type: 'TIMESTAMP WITHOUT TIME ZONE' },
    ]);
    expect(result.rows).toEqual(EXPECTED_ROWS);
    expect(result.rowCount).toBe(10);
    expect(result.truncated).toBe(false);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('binds $n parameters and turns instants into UTC', async () => {
    const result = await warehouse.run(
      `select name, timestamptz '2024-02-29 13:45:30.123+05:30' as instant from items where id = $1`,
      [3],
      OPTIONS,
    );
    expect(result.rows).toEqual([{ name: 'item 3', instant: '2024-02-29T08:15:30.123Z' }]);
    expect(result.columns[1]).toEqual({ name: 'instant', type: 'TIMESTAMP WITH TIME ZONE' });
  });

  it('reports the engine message for a failing query as a 400', async () => {
    const error = await expectRefused(warehouse.run('select nope from items', [], OPTIONS));
    expect(error.message).toMatch(/column "nope" does not exist/);
  });

  it('caps rows while reading', async () => {
    await checkRowCaps(warehouse);
  });

  it('stops a long query near the time limit and stays usable', async () => {
    const elapsed = await checkTimeout(single, 'select pg_sleep(10)');
    console.info(`PostgreSQL timeout of 1000 ms took ${Math.round(elapsed)} ms`);
  });

  it('refuses every kind of write and leaves the data unchanged', async () => {
    const before = await victimChecksum();
    const attempts = [
      `insert into victim values (3, 'three')`,
      `insert into victim values (3, 'three') returning id`,
      `update victim set note = 'x'`,
      `update victim set note = 'x' returning id`,
      `delete from victim`,
      `delete from victim returning id`,
      'create table evil (a int)',
      'drop table victim',
      'truncate victim',
      'alter table victim add column x int',
      'with gone as (delete from victim returning *) select count(*) from gone',
      'select * into evil from victim',
      'create table evil as select * from victim',
      'select 1; drop table victim',
      'select 1; delete from victim',
      `copy victim to '/tmp/warehouse-pg-copy.txt'`,
      `select set_config('transaction_read_only', 'off', true), (select count(*) from victim)`,
      'do $$ begin delete from victim; end $$',
      'lock table victim',
      'grant all on victim to public',
      'select nextval(pg_get_serial_sequence($$victim$$, $$id$$))',
    ];
    for (const sql of attempts) {
      await expectRefused(warehouse.run(sql, [], OPTIONS), [400], sql);
    }
    const readOnly = await expectRefused(warehouse.run(`delete from victim returning id`, [], OPTIONS));
    expect(readOnly.code).toBe('warehouse_read_only');
    expect(readOnly.message).toMatch(/read-only/);
    expect(await victimChecksum()).toBe(before);
    const { rows } = await admin.query(`select to_regclass('public.evil') as evil`);
    expect(rows[0].evil).toBeNull();
    // The server is local in development and CI: COPY TO would have written this file.
    expect(existsSync('/tmp/warehouse-pg-copy.txt')).toBe(false);
  });

  it('refuses stacked statements even without parameters (extended protocol)', async () => {
    const error = await expectRefused(warehouse.run('SELECT 1; DELETE FROM victim', [], OPTIONS));
    expect(error.message).toMatch(/one statement/);
    expect((await admin.query('select count(*)::int as n from victim')).rows[0].n).toBe(2);
  });

  it('does not carry session state to the next run on a reused connection', async () => {
    const backend = async () => (await single.run('select pg_backend_pid() as pid', [], OPTIONS)).rows[0]!.pid;
    const pid = await backend();

    await single.run(`select set_config('work_mem', '1234kB', false)`, [], OPTIONS);
    expect((await single.run('show work_mem', [], OPTIONS)).rows[0]!.work_mem).not.toBe('1234kB');

    await single.run(`select set_config('my.flag', 'on', false)`, [], OPTIONS);
    expect((await single.run(`select current_setting('my.flag', true) as v`, [], OPTIONS)).rows[0]!.v ?? '').toBe('');

    await single.run('select pg_advisory_lock(4242)', [], OPTIONS);
    const locks = await single.run(`select count(*) as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`, [], OPTIONS);
    expect(locks.rows[0]!.n).toBe(0);

    await expectRefused(single.run('create temporary table scratch (a int)', [], OPTIONS));
    expect((await single.run(`select to_regclass('pg_temp.scratch') as t`, [], OPTIONS)).rows[0]!.t).toBeNull();

    expect(await backend()).toBe(pid);
  });

  it('lists tables and columns in schema(), without system schemas', async () => {
    const tables = await warehouse.schema();
    const items = tables.find((t) => t.schema === 'public' && t.name === 'items');
    expect(items?.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'big', type: 'BIGINT' },
      { name: 'price', type: 'NUMERIC' },
      { name: 'name', type: 'CHARACTER VARYING' },
      { name: 'active', type: 'BOOLEAN' },
      { name: 'day', type: 'DATE' },
      { name: 'seen_at', type: 'TIMESTAMP WITHOUT TIME ZONE' },
    ]);
    expect(tables.some((t) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(false);
  });

  it('reports an unreachable server as a 502 without the password', async () => {
    const broken = openWarehouse({ engine: 'postgres', host: '127.0.0.1', port: 1, database: 'x', user: 'u', password: 's3cret-pw' });
    const error = await expectRefused(broken.run('select 1', [], OPTIONS), [502]);
    expect(error.message).not.toContain('s3cret-pw');
    await broken.close();
  });
});
