// A run cancelled by its caller (RunOptions.signal) stops on the warehouse itself, not only in the
// service: the server's own list of running statements no longer shows it, the run fails with
// warehouse_canceled (not the time limit's error), and the driver's pool answers the next run. The
// statements would run for minutes and their time limit is longer still: only the cancel can end them
// within the test's time. A signal already aborted runs nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type ConnectionConfig, type Warehouse } from '../../src/core/warehouse/index.js';
import { waitFor } from '../helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { expectRefused, OPTIONS } from './fixture.js';

/** Longer than any test may take: a statement still running at the end was not stopped by its limit. */
const LONG = { maxRows: 10, timeoutMs: 600_000 };

async function expectCanceled(run: Promise<unknown>): Promise<void> {
  const error = await expectRefused(run, [499]);
  expect(error.code).toBe('warehouse_canceled');
}

describe.skipIf(!(await hasService('postgres')))('cancelling a PostgreSQL run', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let config: ConnectionConfig;
  let single: Warehouse;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const url = new URL(database.url);
    config = { engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) };
    single = openWarehouse(config, { maxConnections: 1 });
  });
  afterAll(async () => {
    await single?.close();
    await admin?.end();
    await database?.drop();
  });

  /** How many sessions of this database run a statement containing `marker` now. */
  const running = async (marker: string) =>
    (await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and strpos(query, $1) > 0 and pid <> pg_backend_pid()`, [marker])).rows[0]!.n;

  async function cancelMidRun(sql: string, marker: string): Promise<void> {
    const controller = new AbortController();
    const run = single.run(sql, [], { ...LONG, signal: controller.signal });
    await waitFor('the statement to run', async () => (await running(marker)) === 1);
    controller.abort();
    await expectCanceled(run);
    await waitFor('the statement to end on the server', async () => (await running(marker)) === 0);
    // The pool answers the next run, and holds no connection beyond the one that ran it.
    expect((await single.run('select 1 as one', [], OPTIONS)).rows).toEqual([{ one: 1 }]);
    expect(single.poolStats?.()).toEqual({ total: 1, idle: 1, waiting: 0 });
  }

  it('stops a plain SELECT (one round trip) on the server', async () => {
    await cancelMidRun('select pg_sleep(600) as slept, 1 as one_trip_marker', 'one_trip_marker');
  });

  it('stops a statement read through a cursor on the server', async () => {
    // EXPLAIN ANALYZE runs the statement, and is not a plain SELECT: it is described, then read through a cursor.
    await cancelMidRun('explain analyze select pg_sleep(600) as cursor_marker', 'cursor_marker');
  });

  it('runs nothing for a signal already aborted: no connection is even opened', async () => {
    const fresh = openWarehouse(config);
    try {
      await expectCanceled(fresh.run('select 1 as one', [], { ...OPTIONS, signal: AbortSignal.abort() }));
      expect(fresh.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    } finally {
      await fresh.close();
    }
  });
});

describe.skipIf(!(await hasService('mysql')))('cancelling a MySQL/MariaDB run', () => {
  let database: Awaited<ReturnType<typeof createTestMysqlDatabase>>;
  let admin: mysql.Connection;
  let config: ConnectionConfig;
  let single: Warehouse;

  beforeAll(async () => {
    database = await createTestMysqlDatabase();
    admin = await mysql.createConnection(database.url);
    const url = new URL(database.url);
    config = {
      engine: 'mysql',
      host: url.hostname,
      port: Number(url.port || 3306),
      database: database.database,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password) || undefined,
    };
    single = openWarehouse(config, { maxConnections: 1 });
  });
  afterAll(async () => {
    await single?.close();
    await admin?.end();
    await database?.drop();
  });

  /** How many sessions of this database run a statement containing `marker` now. */
  const running = async (marker: string) => {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      `select count(*) as n from information_schema.processlist where db = ? and command <> 'Sleep' and info like ? and id <> connection_id()`,
      [database.database, `%${marker}%`],
    );
    return Number(rows[0]!.n);
  };

  it('stops the statement on the server with KILL QUERY, and the pool answers the next run', async () => {
    const controller = new AbortController();
    // BENCHMARK stops only when killed: unlike SLEEP(), it never notices that its client went away
    // (MariaDB's SLEEP() checks every few seconds), so only KILL QUERY can end it within the wait.
    const run = single.run(`select benchmark(100000000000, md5('x')) as kill_marker`, [], { ...LONG, signal: controller.signal });
    await waitFor('the statement to run', async () => (await running('kill_marker')) === 1);
    controller.abort();
    await expectCanceled(run);
    await waitFor('the statement to end on the server', async () => (await running('kill_marker')) === 0);
    expect((await single.run('select 1 as one', [], OPTIONS)).rows).toEqual([{ one: 1 }]);
    // The connection goes back to the pool once it is reset, after the answer.
    await waitFor('the connection back in the pool', async () => JSON.stringify(single.poolStats?.()) === JSON.stringify({ total: 1, idle: 1, waiting: 0 }));
  });

  it('runs nothing for a signal already aborted: no connection is even opened', async () => {
    const fresh = openWarehouse(config);
    try {
      await expectCanceled(fresh.run('select 1 as one', [], { ...OPTIONS, signal: AbortSignal.abort() }));
      expect(fresh.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    } finally {
      await fresh.close();
    }
  });
});

describe('cancelling a DuckDB run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warehouse-cancel-duckdb-'));
  let warehouse: Warehouse;

  beforeAll(async () => {
    // An empty file is enough: the statement reads generated ranges.
    (await DuckDBInstance.create(join(dir, 'empty.duckdb'))).closeSync();
    warehouse = openWarehouse({ engine: 'duckdb', path: join(dir, 'empty.duckdb') });
  });
  afterAll(async () => {
    await warehouse?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('interrupts a long aggregate: the run fails as cancelled and the next one answers', async () => {
    const controller = new AbortController();
    // 400 billion pairs: minutes of work on any machine.
    const run = warehouse.run('select sum(a.range * b.range + length(b.range::varchar)) as total from range(2000000) a, range(200000) b', [], { ...LONG, signal: controller.signal });
    // The run holds a connection once it has started (DuckDB has no list of running statements to read).
    await waitFor('the run to start', async () => warehouse.poolStats?.()?.total === 1);
    // A moment for it to get past prepare into the scan, so that the interrupt is what stops it: a
    // cancel that lands during prepare ends the run before the scan, without trying the interrupt.
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expectCanceled(run);
    expect((await warehouse.run('select 42 as answer', [], OPTIONS)).rows).toEqual([{ answer: 42 }]);
  });

  it('runs nothing for a signal already aborted: the file is not even opened', async () => {
    const missing = openWarehouse({ engine: 'duckdb', path: join(dir, 'no-such-file.duckdb') });
    try {
      // Opening the missing file fails: a run that attempted anything would fail so.
      await expectCanceled(missing.run('select 1 as one', [], { ...OPTIONS, signal: AbortSignal.abort() }));
      expect((await expectRefused(missing.run('select 1 as one', [], OPTIONS), [502])).code).toBe('warehouse_unreachable');
    } finally {
      await missing.close();
    }
  });
});

describe('cancelling a Snowflake run', () => {
  it('runs nothing for a signal already aborted: no session is opened', async () => {
    // Offline: without a password the SDK refuses the options at connect, so a run that opened a
    // session would fail so.
    const warehouse = openWarehouse({ engine: 'snowflake', account: 'acme-xy12345', username: 'reader' });
    const run = warehouse.run('select 1', [], { ...OPTIONS, signal: AbortSignal.abort() });
    expect(warehouse.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    await expectCanceled(run);
    expect((await expectRefused(warehouse.run('select 1', [], OPTIONS), [502])).code).toBe('warehouse_unreachable');
  });
});
