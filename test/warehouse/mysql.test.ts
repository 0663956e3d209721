// The MySQL/MariaDB driver against a real server: typed, normalised reads; time and row limits; every
// kind of write refused with the data untouched; no session state carried between runs.
import { existsSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openWarehouse, type ConnectionConfig, type Warehouse } from '../../src/core/warehouse/index.js';
import { createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { checkRowCaps, checkTimeout, EXPECTED_ROWS, expectRefused, ITEMS_DDL, itemsInsertSql, OPTIONS } from './fixture.js';

const ITEM_COLUMNS = [
  { name: 'id', type: 'INT' },
  { name: 'big', type: 'BIGINT' },
  { name: 'price', type: 'DECIMAL' },
  { name: 'name', type: 'VARCHAR' },
  { name: 'active', type: 'BOOLEAN' },
  { name: 'day', type: 'DATE' },
  { name: 'seen_at', type: 'DATETIME' },
];

describe.skipIf(!(await hasService('mysql')))('MySQL/MariaDB warehouse', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let warehouse: Warehouse;
  let single: Warehouse;
  let config: ConnectionConfig;

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(database.url);
    await admin.query(ITEMS_DDL.mysql);
    await admin.query(itemsInsertSql());
    await admin.query('create table victim (id int auto_increment primary key, note text)');
    await admin.query(`insert into victim (note) values ('one'), ('two')`);
    // A TIMESTAMP column is an instant: written at +05:30, it must read back as UTC.
    await admin.query('create table stamps (t timestamp(3) null)');
    await admin.query(`set time_zone = '+05:30'`);
    await admin.query(`insert into stamps values ('2024-02-29 13:45:30.123')`);
    const url = new URL(database.url);
    config = {
      engine: 'mysql',
      host: url.hostname,
      port: Number(url.port || 3306),
      database: database.database,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password) || undefined,
    };
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
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      `select md5(coalesce(group_concat(concat(id, ':', note) order by id), '')) as sum, count(*) as n from victim`,
    );
    return `${rows[0]!.sum}/${rows[0]!.n}`;
  }

  async function tableExists(name: string): Promise<boolean> {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      'select count(*) as n from information_schema.tables where table_schema = ? and table_name = ?',
      [database.database, name],
    );
    return Number(rows[0]!.n) > 0;
  }

  it('reads typed columns and normalised values', async () => {
    const result = await warehouse.run('select * from items order by id', [], OPTIONS);
    expect(result.columns).toEqual(ITEM_COLUMNS);
    expect(result.rows).toEqual(EXPECTED_ROWS);
    expect(result.rowCount).toBe(10);
    expect(result.truncated).toBe(false);
  });

  it('binds ? parameters and reads TIMESTAMP columns as UTC instants', async () => {
    const result = await warehouse.run(
      `select name, cast('2024-02-29 08:15:30.123' as datetime(3)) as naive, timestamp(seen_at) as stamp from items where id = ?`,
      [3],
      OPTIONS,
    );
    expect(result.rows).toEqual([{ name: 'item 3', naive: '2024-02-29T08:15:30.123', stamp: '2024-02-22T13:45:30.323' }]);
    const zoned = await warehouse.run('select t from stamps', [], OPTIONS);
    expect(zoned.columns).toEqual([{ name: 't', type: 'TIMESTAMP' }]);
    expect(zoned.rows).toEqual([{ t: '2024-02-29T08:15:30.123Z' }]);
  });

  it('reports the engine message for a failing query as a 400', async () => {
    const error = await expectRefused(warehouse.run('select nope from items', [], OPTIONS));
    expect(error.message).toMatch(/Unknown column 'nope'/);
  });

  it('caps rows while reading', async () => {
    await checkRowCaps(warehouse);
  });

  it('stops a long query near the time limit and stays usable', async () => {
    const elapsed = await checkTimeout(single, 'select sleep(10) as slept');
    console.info(`MySQL timeout of 1000 ms took ${Math.round(elapsed)} ms`);
  });

  it('refuses every kind of write and leaves the data unchanged', async () => {
    const before = await victimChecksum();
    const attempts = [
      `insert into victim (note) values ('three')`,
      `update victim set note = 'x'`,
      `delete from victim`,
      'create table evil (a int)',
      'drop table victim',
      'truncate victim',
      'alter table victim add column x int',
      'create table evil as select * from victim',
      'select 1; drop table victim',
      'select 1; delete from victim',
      `select * from victim into outfile '/tmp/warehouse-mysql-outfile.txt'`,
      `select note from victim limit 1 into dumpfile '/tmp/warehouse-mysql-dumpfile.txt'`,
      'select id into @stolen from victim limit 1',
      `load data local infile '/etc/hosts' into table victim`,
      'set session transaction read write',
      'lock tables victim write',
      'create temporary table scratch (a int)',
      `replace into victim values (1, 'x')`,
    ];
    for (const sql of attempts) {
      await expectRefused(warehouse.run(sql, [], OPTIONS), [400], sql);
    }
    const readOnly = await expectRefused(warehouse.run(`insert into victim (note) select note from victim`, [], OPTIONS));
    expect(readOnly.code).toMatch(/warehouse_read_only|warehouse_statement_refused/);
    expect(await victimChecksum()).toBe(before);
    expect(await tableExists('evil')).toBe(false);
    expect(existsSync('/tmp/warehouse-mysql-outfile.txt')).toBe(false);
    expect(existsSync('/tmp/warehouse-mysql-dumpfile.txt')).toBe(false);
  });

  it('does not carry session state to the next run on a reused connection', async () => {
    const thread = async () => (await single.run('select connection_id() as id', [], OPTIONS)).rows[0]!.id;
    const id = await thread();

    await single.run('select @leak := 42 as v', [], OPTIONS);
    expect((await single.run('select @leak as v', [], OPTIONS)).rows[0]!.v).toBeNull();

    await single.run(`select get_lock('warehouse-test-lock', 0) as got`, [], OPTIONS);
    expect((await single.run(`select is_used_lock('warehouse-test-lock') as owner`, [], OPTIONS)).rows[0]!.owner).toBeNull();

    // Settings: a statement cannot SET (no rows), but a function call could change a session value.
    const before = (await single.run('select @@session.sql_mode as mode', [], OPTIONS)).rows[0]!.mode;
    await expectRefused(single.run(`set session sql_mode = ''`, [], OPTIONS));
    expect((await single.run('select @@session.sql_mode as mode', [], OPTIONS)).rows[0]!.mode).toBe(before);

    await expectRefused(single.run('create temporary table scratch (a int)', [], OPTIONS));
    await expectRefused(single.run('select * from scratch', [], OPTIONS));

    expect(await thread()).toBe(id);
  });

  it('keeps a reused connection read-only, in UTC and under each run\'s own time limit', async () => {
    // The session is set up again after each reset, with the last run's limit; a run with another
    // limit must get its own.
    const thread = async () => (await single.run('select connection_id() as id', [], OPTIONS)).rows[0]!.id;
    const id = await thread();
    for (let i = 0; i < 3; i++) {
      const error = await expectRefused(single.run(`insert into victim (note) values ('reused')`, [], OPTIONS));
      expect(error.code).toBe('warehouse_read_only');
      expect((await single.run('select @@session.time_zone as tz', [], OPTIONS)).rows[0]!.tz).toBe('+00:00');
    }
    const started = performance.now();
    await expectRefused(single.run('select sleep(10) as slept', [], { maxRows: 10, timeoutMs: 400 }), [408, 504]);
    expect(performance.now() - started).toBeLessThan(1500);
    // Back to the longer limit: a 0.6 s statement finishes.
    expect((await single.run('select sleep(0.6) as slept', [], OPTIONS)).rows[0]!.slept).toBe(0);
    expect(await thread()).toBe(id);
  });

  it('lists tables and columns in schema(), without system schemas', async () => {
    const tables = await warehouse.schema();
    const items = tables.find((t) => t.schema === database.database && t.name === 'items');
    expect(items?.columns.map((c) => c.name)).toEqual(ITEM_COLUMNS.map((c) => c.name));
    expect(items?.columns[0]).toEqual({ name: 'id', type: 'INT' });
    expect(tables.some((t) => ['mysql', 'information_schema', 'performance_schema', 'sys'].includes(t.schema))).toBe(false);
  });

  it("counts its pool from mysql2's own state: a run waiting while the one connection is lent, then idle", async () => {
    const pooled = openWarehouse(config, { maxConnections: 1 });
    try {
      expect(pooled.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
      const slow = pooled.run('select sleep(0.5) as slept', [], OPTIONS);
      const queued = pooled.run('select 2 as two', [], OPTIONS);
      await vi.waitFor(() => expect(pooled.poolStats?.()).toEqual({ total: 1, idle: 0, waiting: 1 }), { timeout: 400, interval: 20 });
      expect((await slow).rows).toEqual([{ slept: 0 }]);
      expect((await queued).rows).toEqual([{ two: 2 }]);
      // Back in the pool once the session is reset after the answer.
      await vi.waitFor(() => expect(pooled.poolStats?.()).toEqual({ total: 1, idle: 1, waiting: 0 }), { timeout: 2000, interval: 20 });
    } finally {
      await pooled.close();
    }
  });

  it('reports an unreachable server as a 502 without the password', async () => {
    const broken = openWarehouse({ engine: 'mysql', host: '127.0.0.1', port: 1, database: 'x', user: 'u', password: 's3cret-pw' });
    const error = await expectRefused(broken.run('select 1', [], OPTIONS), [502]);
    expect(error.message).not.toContain('s3cret-pw');
    await broken.close();
  });
});
