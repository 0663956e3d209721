// How the PostgreSQL driver runs a plain SELECT: in one round trip, capped in SQL rather than through a
// cursor, so that PostgreSQL may use parallel workers; with session settings fixed when the connection
// opens and holding on every reuse; and with a connection that is clean after a run that timed out.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { expectRefused, OPTIONS } from './fixture.js';

describe.skipIf(!(await hasService('postgres')))('PostgreSQL runs', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  let single: Warehouse;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    // A table worth splitting, and costs that make the planner split it even on a small machine.
    await admin.query('create table big as select g as id, g % 10 as k from generate_series(1, 200000) g');
    await admin.query('analyze big');
    await admin.query(`alter database "${name}" set parallel_setup_cost = 0`);
    await admin.query(`alter database "${name}" set parallel_tuple_cost = 0`);
    await admin.query(`alter database "${name}" set min_parallel_table_scan_size = 0`);
    // Which process computed a row: a parallel worker answers with its own pid. PL/pgSQL, so that the
    // planner cannot inline it and see pg_backend_pid(), which is parallel-restricted.
    await admin.query(`create function executor_pid(int) returns int language plpgsql parallel safe as $$ begin return pg_backend_pid(); end $$`);
    const url = new URL(database.url);
    const config = { engine: 'postgres' as const, host: url.hostname, port: Number(url.port || 5432), database: name, user: decodeURIComponent(url.username) };
    // One connection: every run reuses the same session.
    single = openWarehouse(config, { maxConnections: 1 });
  });

  afterAll(async () => {
    await single?.close();
    await admin?.end();
    await database?.drop();
  });

  it('lets PostgreSQL run a large grouped scan with parallel workers', async () => {
    // With a cursor (an Execute with a row count) every row is computed by the leader: one group.
    const { rows } = await single.run('select executor_pid(id) as pid, count(*) as n from big group by 1', [], OPTIONS);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.reduce((sum, row) => sum + Number(row.n), 0)).toBe(200_000);
  });

  it('caps rows in SQL: a 40-billion-row join stops, the order of the statement is kept', async () => {
    const started = performance.now();
    const endless = await single.run('select a.id from big a cross join big b', [], { maxRows: 3, timeoutMs: 5000 });
    expect(endless.rows).toHaveLength(3);
    expect(endless.truncated).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    const ordered = await single.run('select id from big order by id desc', [], { maxRows: 2, timeoutMs: 5000 });
    expect(ordered.rows).toEqual([{ id: 200_000 }, { id: 199_999 }]);
  });

  it('runs statements with a trailing semicolon or comment, and duplicate column names', async () => {
    expect((await single.run('select 1 as a; -- done', [], OPTIONS)).rows).toEqual([{ a: 1 }]);
    expect((await single.run('select 1 as a -- no line break after', [], OPTIONS)).rows).toEqual([{ a: 1 }]);
    // The parser counts in bytes: text before the end must not shift the cut.
    expect((await single.run(`/* čćž */ select 'héllo wörld ✓' as a;  -- ✓`, [], OPTIONS)).rows).toEqual([{ a: 'héllo wörld ✓' }]);
    expect((await single.run('select 1 as a, 2 as a', [], OPTIONS)).rows).toEqual([{ a: 1, a_2: 2 }]);
    expect((await single.run('select $1::int + 1 as b', [41], OPTIONS)).rows).toEqual([{ b: 42 }]);
  });

  it('does not let text that is not one SELECT break out of the cap', async () => {
    // Balanced only once wrapped: the parser rejects it, so it is sent as written and fails there.
    await expectRefused(single.run('select 1 as a) as x, (select 2', [], OPTIONS));
    await expectRefused(single.run('select 1 as a) as x; delete from big; select (1', [], OPTIONS));
    expect((await admin.query('select count(*)::int as n from big')).rows[0].n).toBe(200_000);
  });

  it('keeps the session settings on a reused connection, whatever a run changed', async () => {
    const settings = `select current_setting('default_transaction_read_only') as ro, current_setting('TimeZone') as tz,
      current_setting('DateStyle') as ds, current_setting('standard_conforming_strings') as scs, pg_backend_pid() as pid`;
    const first = (await single.run(settings, [], OPTIONS)).rows[0]!;
    expect(first).toMatchObject({ ro: 'on', tz: 'UTC', ds: 'ISO, YMD', scs: 'on' });
    await single.run(
      `select set_config('TimeZone', 'Asia/Tokyo', false), set_config('default_transaction_read_only', 'off', false),
       set_config('standard_conforming_strings', 'off', false), set_config('DateStyle', 'German', false)`,
      [],
      OPTIONS,
    );
    await single.run('explain select 1', [], OPTIONS);
    expect((await single.run(settings, [], OPTIONS)).rows[0]).toEqual(first);
    const now = (await single.run(`select now()::timestamptz as t, '2024-01-02'::date as d`, [], OPTIONS)).rows[0]!;
    expect(now.d).toBe('2024-01-02');
  });

  it('hands back a clean connection after a run that timed out', async () => {
    const pid = (await single.run('select pg_backend_pid() as pid', [], OPTIONS)).rows[0]!.pid;
    const slow = `select set_config('work_mem', '1234kB', false), pg_advisory_lock(77), pg_sleep(5)`;
    await expectRefused(single.run(slow, [], { maxRows: 10, timeoutMs: 300 }), [408, 504]);
    const after = await single.run(
      `select current_setting('work_mem') as wm, (select count(*) from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) as locks,
       pg_backend_pid() as pid`,
      [],
      OPTIONS,
    );
    expect(after.rows[0]!.wm).not.toBe('1234kB');
    expect(after.rows[0]!.locks).toBe(0);
    // The server's own limit stopped it: the connection was reset and kept, not replaced.
    expect(after.rows[0]!.pid).toBe(pid);
  });

  it('cancels a statement that turned its own time limit off, and the next run works', async () => {
    const started = performance.now();
    await expectRefused(single.run(`select set_config('statement_timeout', '0', true), pg_sleep(5)`, [], { maxRows: 10, timeoutMs: 300 }), [408, 504]);
    expect(performance.now() - started).toBeLessThan(3000);
    expect((await single.run('select 1 as one', [], OPTIONS)).rows).toEqual([{ one: 1 }]);
  });
});
