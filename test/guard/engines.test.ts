// The read-only guard against real engines. Per engine: a victim schema with rows; every attack of
// the corpus is refused by the guard and, as evidence for the layers behind it, also run straight
// through the driver (bypassing the guard) where that is safe; every ordinary read runs through guard
// and driver. Around the whole corpus, nothing may change: victim checksums, the set of tables and
// schemas, the files in a scratch directory the attacks aim at, session settings and locks.
//
// Only what this file owns is compared, so that other test files running at the same time (their
// databases, their advisory locks) cannot make it fail: the test's own database, the locks taken in
// it, the scratch directory, the warehouse's own session. MariaDB databases are server-wide: those
// the test helpers create for other files (svc_test_<hex>) are left out, and no attack may name one,
// so a database an attack creates is still seen. Each engine also checks that the comparison notices
// the change an attack would leave (a table, a lock, a database), so that it cannot pass vacuously.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReadOnly, ReadOnlyViolation } from '../../src/core/sql/guard/index.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import type { RunOptions, WarehouseEngine } from '../../src/core/warehouse/types.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { ATTACKS, attacksFor, readsFor, withScratch } from './corpus.js';
import { listFiles, scratchDir, victimStatements } from './victims.js';

const DIRECT: RunOptions = { maxRows: 50, timeoutMs: 1000 };
const READ: RunOptions = { maxRows: 1000, timeoutMs: 10_000 };

/** Runs the statement through the guard first, as the surfaces do. */
async function guardedRun(engine: WarehouseEngine, warehouse: Warehouse, sql: string, options: RunOptions) {
  await assertReadOnly(engine, sql);
  return warehouse.run(sql, [], options);
}

async function expectGuardRefuses(engine: WarehouseEngine, warehouse: Warehouse, sql: string): Promise<void> {
  const error = await guardedRun(engine, warehouse, sql, DIRECT).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `guard should refuse: ${JSON.stringify(sql)}`).toBeInstanceOf(ReadOnlyViolation);
}

/** Runs straight through the driver; returns what happened, for the record. */
async function direct(warehouse: Warehouse, sql: string): Promise<string> {
  try {
    const result = await warehouse.run(sql, [], DIRECT);
    const first = JSON.stringify(Object.values(result.rows[0] ?? {})[0] ?? null).slice(0, 40);
    return `ran (${result.rowCount} rows, first value ${first})`;
  } catch (error) {
    return `refused: ${(error as Error).message.slice(0, 80)}`;
  }
}

/** Databases the test helpers create for other test files (createTestDatabase / createTestMysqlDatabase). */
const OTHER_TEST_DATABASE = /^svc_test_[0-9a-f]{12}$/;

function report(engine: string, outcomes: [string, string][]): void {
  if (process.env.GUARD_REPORT !== '1') return;
  const lines = outcomes.filter(([, o]) => o.startsWith('ran')).map(([sql, o]) => `  ${o}: ${sql.replaceAll('\n', ' ').slice(0, 110)}`);
  console.info(`${engine}: attacks the driver ran without the guard (${lines.length} of ${outcomes.length}):\n${lines.join('\n')}`);
}

// ---- PostgreSQL ------------------------------------------------------------------------------

describe.skipIf(!(await hasService('postgres')))('guard on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let warehouse: Warehouse;
  const scratch = scratchDir();

  async function snapshot(): Promise<Record<string, unknown>> {
    const one = async (sql: string) => Object.values((await admin.query(sql)).rows[0] ?? {}).join('|');
    return {
      customers: await one(`select md5(string_agg(t::text, ',' order by id)) from customers t`),
      orders: await one(`select md5(string_agg(t::text, ',' order by id)) from orders t`),
      sequence: await one('select last_value, is_called from order_seq'),
      relations: await one(
        `select string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text, ',' order by 1) from pg_class c ` +
          `join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
      ),
      schemas: await one('select string_agg(nspname, \',\' order by nspname) from pg_namespace'),
      largeObjects: await one('select count(*) from pg_largeobject_metadata'),
      // pg_locks and pg_replication_slots are server-wide: only what was taken in this test's database.
      advisoryLocks: await one(
        `select count(*) from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      ),
      replicationSlots: await one(`select count(*) from pg_replication_slots where database = current_database() or slot_name like 'guard%'`),
      // The warehouse has one connection: whatever an attack left in its session would show here. (A
      // custom setting such as app.pwned, once set, survives DISCARD ALL as an empty placeholder: its
      // value is what must not survive.)
      session: (
        await warehouse.run(
          `select string_agg(name || '=' || setting, ';' order by name) as s, coalesce(current_setting('app.pwned', true), '') as pwned ` +
            `from pg_settings where name not in ('statement_timeout')`,
          [],
          READ,
        )
      ).rows[0],
      files: listFiles(scratch),
    };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    for (const statement of victimStatements('postgres')) await admin.query(statement);
    await admin.query(`select nextval('order_seq')`);
    const url = new URL(database.url);
    warehouse = openWarehouse(
      { engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) },
      { maxConnections: 1 },
    );
  });

  afterAll(async () => {
    await warehouse?.close();
    await admin?.end();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses every attack, and nothing changes even when the driver runs them unguarded', async () => {
    const before = await snapshot();
    const outcomes: [string, string][] = [];
    for (const attack of attacksFor('postgres')) {
      const sql = withScratch(attack.sql, scratch);
      await expectGuardRefuses('postgres', warehouse, sql);
      if (attack.direct !== false) outcomes.push([sql, await direct(warehouse, sql)]);
    }
    report('postgres', outcomes);
    expect(await snapshot()).toEqual(before);
  });

  it('notices a table or an advisory lock an attack would leave', async () => {
    const before = await snapshot();
    await admin.query('create table left_behind (id int)');
    expect(await snapshot()).not.toEqual(before);
    await admin.query('drop table left_behind');
    await admin.query('select pg_advisory_lock(4242)');
    expect(await snapshot()).not.toEqual(before);
    await admin.query('select pg_advisory_unlock(4242)');
    expect(await snapshot()).toEqual(before);
  });

  it('runs every ordinary read through guard and driver', async () => {
    for (const read of readsFor('postgres')) {
      const result = await guardedRun('postgres', warehouse, read.sql, READ).catch((e: unknown) => {
        throw new Error(`${read.note}: ${JSON.stringify(read.sql)}: ${(e as Error).message}`);
      });
      expect(result.columns.length, read.note).toBeGreaterThan(0);
    }
  });
});

// ---- MySQL / MariaDB -------------------------------------------------------------------------

describe.skipIf(!(await hasService('mysql')))('guard on MySQL/MariaDB', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let warehouse: Warehouse;
  let isMariaDb = false;
  const scratch = scratchDir();

  async function snapshot(): Promise<Record<string, unknown>> {
    const rows = async (sql: string) => JSON.stringify((await admin.query(sql))[0]);
    return {
      checksums: await rows('CHECKSUM TABLE customers, orders EXTENDED'),
      tables: await rows(`SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1`),
      databases: JSON.stringify(
        ((await admin.query('SELECT schema_name AS s FROM information_schema.schemata ORDER BY 1'))[0] as { s: string }[])
          .map((r) => r.s)
          .filter((name) => !OTHER_TEST_DATABASE.test(name)),
      ),
      sequence: isMariaDb ? await rows('SELECT next_not_cached_value FROM order_seq') : '',
      lock: await rows(`SELECT IS_USED_LOCK('guard_lock') AS holder`),
      // The warehouse has one connection: variables or settings an attack left would show here.
      session: (await warehouse.run('SELECT @stolen AS stolen, @x AS x, @pwn AS pwn, @@session.sql_mode AS mode', [], READ)).rows[0],
      files: listFiles(scratch),
    };
  }

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(database.url);
    const [version] = (await admin.query('SELECT VERSION() AS v'))[0] as { v: string }[];
    isMariaDb = /mariadb/i.test(version?.v ?? '');
    for (const statement of victimStatements('mysql', { sequence: isMariaDb })) await admin.query(statement);
    const url = new URL(database.url);
    warehouse = openWarehouse(
      {
        engine: 'mysql',
        host: url.hostname,
        port: Number(url.port || 3306),
        database: database.database,
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password) || undefined,
      },
      { maxConnections: 1 },
    );
  });

  afterAll(async () => {
    await warehouse?.close();
    await admin?.end();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('never names a database the way the test helpers name theirs (so that one it creates is seen)', () => {
    expect(ATTACKS.filter((a) => /svc_test_/i.test(a.sql))).toEqual([]);
  });

  it('notices a database or a named lock an attack would leave', async () => {
    await warehouse.run('SELECT 1', [], READ);
    const before = await snapshot();
    const name = `guard_left_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      expect(await snapshot()).not.toEqual(before);
    } finally {
      await admin.query(`DROP DATABASE ${name}`);
    }
    await admin.query(`SELECT GET_LOCK('guard_lock', 0)`);
    expect(await snapshot()).not.toEqual(before);
    await admin.query(`SELECT RELEASE_LOCK('guard_lock')`);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses every attack, and nothing changes even when the driver runs them unguarded', async () => {
    // A fresh mysql2 connection starts with IGNORE_SPACE (a client flag) which the driver's reset
    // clears: one run first, so that the session compared is the steady one.
    await warehouse.run('SELECT 1', [], READ);
    const before = await snapshot();
    const outcomes: [string, string][] = [];
    for (const attack of attacksFor('mysql')) {
      const sql = withScratch(attack.sql, scratch);
      await expectGuardRefuses('mysql', warehouse, sql);
      if (attack.direct !== false) outcomes.push([sql, await direct(warehouse, sql)]);
    }
    report('mysql', outcomes);
    expect(await snapshot()).toEqual(before);
  });

  it('runs every ordinary read through guard and driver', async () => {
    for (const read of readsFor('mysql')) {
      const result = await guardedRun('mysql', warehouse, read.sql, READ).catch((e: unknown) => {
        throw new Error(`${read.note}: ${JSON.stringify(read.sql)}: ${(e as Error).message}`);
      });
      expect(result.columns.length, read.note).toBeGreaterThan(0);
    }
  });
});

// ---- DuckDB ----------------------------------------------------------------------------------

describe('guard on DuckDB', () => {
  const scratch = scratchDir();
  const path = join(scratch, 'victim.duckdb');
  let warehouse: Warehouse;

  /** Reads the file with a separate read-only instance (the warehouse must be closed). */
  async function snapshot(): Promise<Record<string, unknown>> {
    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const value = async (sql: string) => String((await connection.runAndReadAll(sql)).getRows()[0]?.[0]);
    const state = {
      customers: await value(`select md5(string_agg(t::varchar, ',' order by id)) from customers t`),
      orders: await value(`select md5(string_agg(t::varchar, ',' order by id)) from orders t`),
      tables: await value(`select string_agg(database_name || '.' || schema_name || '.' || table_name, ',' order by all) from duckdb_tables()`),
      databases: await value('select string_agg(database_name, \',\' order by all) from duckdb_databases()'),
      sequence: await value('select string_agg(sequence_name || \':\' || coalesce(last_value, 0), \',\') from duckdb_sequences()'),
      files: listFiles(scratch),
    };
    connection.closeSync();
    instance.closeSync();
    return state;
  }

  beforeAll(async () => {
    const loader = await DuckDBInstance.create(path);
    const connection = await loader.connect();
    for (const statement of victimStatements('duckdb')) await connection.run(statement);
    connection.closeSync();
    loader.closeSync();
  });

  afterAll(async () => {
    await warehouse?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses every attack, and nothing changes even when the driver runs them unguarded', async () => {
    const before = await snapshot();
    warehouse = openWarehouse({ engine: 'duckdb', path });
    const outcomes: [string, string][] = [];
    for (const attack of attacksFor('duckdb')) {
      const sql = withScratch(attack.sql, scratch);
      await expectGuardRefuses('duckdb', warehouse, sql);
      if (attack.direct !== false) outcomes.push([sql, await direct(warehouse, sql)]);
    }
    report('duckdb', outcomes);
    await warehouse.close();
    expect(await snapshot()).toEqual(before);
  });

  it('notices a table an attack would leave', async () => {
    const before = await snapshot();
    const writer = await DuckDBInstance.create(path);
    const connection = await writer.connect();
    await connection.run('create table left_behind (id integer)');
    connection.closeSync();
    writer.closeSync();
    expect(await snapshot()).not.toEqual(before);
    const cleaner = await DuckDBInstance.create(path);
    const again = await cleaner.connect();
    await again.run('drop table left_behind');
    again.closeSync();
    cleaner.closeSync();
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a built-in view exactly when it refuses what the view reads', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const views = (await connection.runAndReadAll('select schema_name, view_name, sql from duckdb_views() where internal')).getRows();
    connection.closeSync();
    instance.closeSync();
    const refused = async (sql: string) => assertReadOnly('duckdb', sql).then(() => false, () => true);
    const mismatches: string[] = [];
    for (const [schema, name, sql] of views) {
      const definition = String(sql).replace(/^CREATE (TEMP )?VIEW \S+ AS /i, '').replace(/;\s*$/, '');
      const [byDefinition, byName] = [await refused(definition), await refused(`SELECT * FROM ${String(schema)}.${String(name)}`)];
      if (byDefinition !== byName) mismatches.push(`${String(schema)}.${String(name)}: definition ${byDefinition ? 'refused' : 'allowed'}`);
    }
    expect(views.length).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  });

  it('runs every ordinary read through guard and driver', async () => {
    warehouse = openWarehouse({ engine: 'duckdb', path });
    for (const read of readsFor('duckdb')) {
      const result = await guardedRun('duckdb', warehouse, read.sql, READ).catch((e: unknown) => {
        throw new Error(`${read.note}: ${JSON.stringify(read.sql)}: ${(e as Error).message}`);
      });
      expect(result.columns.length, read.note).toBeGreaterThan(0);
    }
  });
});
