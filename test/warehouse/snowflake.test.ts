// Snowflake: the config mapping and value normalisation offline; the live suite only with
// SNOWFLAKE_ACCOUNT, SNOWFLAKE_USERNAME and SNOWFLAKE_PASSWORD set (reported skipped otherwise).
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import { snowflakeConnectionOptions, snowflakeSessionSql } from '../../src/core/warehouse/snowflake-options.js';
import { snowflakeConverter, snowflakeTypeName } from '../../src/core/warehouse/snowflake-values.js';
import { expectRefused, OPTIONS } from './fixture.js';

describe('Snowflake connection options', () => {
  it('maps the config onto the SDK options, with values as text in array rows', () => {
    const options = snowflakeConnectionOptions({
      engine: 'snowflake',
      account: 'acme-xy12345',
      username: 'reader',
      password: 'pw',
      warehouse: 'WH',
      database: 'DB',
      schema: 'PUBLIC',
      role: 'READER',
    });
    expect(options).toMatchObject({
      account: 'acme-xy12345',
      username: 'reader',
      password: 'pw',
      warehouse: 'WH',
      database: 'DB',
      schema: 'PUBLIC',
      role: 'READER',
      rowMode: 'array',
      fetchAsString: ['Number', 'Date', 'JSON'],
    });
  });

  it('starts every run with one statement per call, a time limit in seconds and no autocommit', () => {
    const sql = snowflakeSessionSql(2500);
    expect(sql).toMatch(/^ALTER SESSION SET /);
    expect(sql).toContain('MULTI_STATEMENT_COUNT = 1');
    expect(sql).toContain('STATEMENT_TIMEOUT_IN_SECONDS = 3');
    expect(sql).toContain('AUTOCOMMIT = FALSE');
    expect(sql).toContain("TIMEZONE = 'UTC'");
    expect(sql).toContain('WEEK_START = 1');
    expect(snowflakeSessionSql(10)).toContain('STATEMENT_TIMEOUT_IN_SECONDS = 1');
  });
});

describe('Snowflake values', () => {
  it('normalises the text the session formats produce', () => {
    expect(snowflakeConverter('fixed')('42')).toBe(42);
    expect(snowflakeConverter('fixed')('9007199254740993')).toBe('9007199254740993');
    expect(snowflakeConverter('fixed')('12.50')).toBe(12.5);
    expect(snowflakeConverter('real')('0.25')).toBe(0.25);
    expect(snowflakeConverter('boolean')(true)).toBe(true);
    expect(snowflakeConverter('boolean')('FALSE')).toBe(false);
    expect(snowflakeConverter('date')('2024-02-29')).toBe('2024-02-29');
    expect(snowflakeConverter('timestamp_ntz')('2024-02-29T13:45:30.123')).toBe('2024-02-29T13:45:30.123');
    expect(snowflakeConverter('timestamp_tz')('2024-02-29T13:45:30.123+05:30')).toBe('2024-02-29T08:15:30.123Z');
    expect(snowflakeConverter('timestamp_ltz')('2024-02-29T13:45:30.123+00:00')).toBe('2024-02-29T13:45:30.123Z');
    expect(snowflakeConverter('text')('x')).toBe('x');
    expect(snowflakeConverter('variant')({ a: 1 })).toBe('{"a":1}');
    expect(snowflakeConverter('fixed')(null)).toBeNull();
  });

  it('names types as Snowflake does', () => {
    expect(snowflakeTypeName('fixed', 38, 0)).toBe('NUMBER(38,0)');
    expect(snowflakeTypeName('text')).toBe('VARCHAR');
    expect(snowflakeTypeName('timestamp_ntz')).toBe('TIMESTAMP_NTZ');
  });
});

describe('Snowflake sessions in the pool counts', () => {
  // Offline: without a password the SDK refuses the options before any network access, so the run
  // goes through the driver's real connect path and fails there, as an unreachable warehouse would.
  it("counts a run's session while it opens and none once the run has failed", async () => {
    const warehouse = openWarehouse({ engine: 'snowflake', account: 'acme-xy12345', username: 'reader' });
    const run = warehouse.run('select 1', [], OPTIONS);
    expect(warehouse.poolStats?.()).toEqual({ total: 1, idle: 0, waiting: 0 });
    await expectRefused(run, [502]);
    expect(warehouse.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
  }, 30_000);
});

const live = {
  account: process.env.SNOWFLAKE_ACCOUNT,
  username: process.env.SNOWFLAKE_USERNAME,
  password: process.env.SNOWFLAKE_PASSWORD,
};

describe.skipIf(!(live.account && live.username && live.password))('Snowflake warehouse (live)', () => {
  const warehouse = () =>
    openWarehouse({
      engine: 'snowflake',
      account: live.account!,
      username: live.username!,
      password: live.password,
      warehouse: process.env.SNOWFLAKE_WAREHOUSE,
      database: process.env.SNOWFLAKE_DATABASE,
      schema: process.env.SNOWFLAKE_SCHEMA,
      role: process.env.SNOWFLAKE_ROLE,
    });

  it('reads typed, normalised values', async () => {
    const w = warehouse();
    const result = await w.run(
      `select 1 as "id", 9007199254740993 as "big", 12.50::number(10,2) as "price", 'x' as "name", true as "active", '2024-02-29'::date as "day", '2024-02-29 13:45:30.123'::timestamp_ntz as "seen_at"`,
      [],
      OPTIONS,
    );
    expect(result.rows).toEqual([
      { id: 1, big: '9007199254740993', price: 12.5, name: 'x', active: true, day: '2024-02-29', seen_at: '2024-02-29T13:45:30.123' },
    ]);
    // The run's session ended with it: nothing is kept open.
    expect(w.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    await w.close();
  }, 60_000);

  it('caps rows and refuses stacked statements', async () => {
    const w = warehouse();
    const capped = await w.run('select seq4() as n from table(generator(rowcount => 10))', [], { maxRows: 5, timeoutMs: 30_000 });
    expect(capped.rowCount).toBe(5);
    expect(capped.truncated).toBe(true);
    await expectRefused(w.run('select 1; select 2', [], OPTIONS));
    await w.close();
  }, 60_000);

  it('stops a long query at the time limit', async () => {
    const w = warehouse();
    await expectRefused(w.run('call system$wait(20)', [], { maxRows: 1, timeoutMs: 2000 }), [504]);
    await w.close();
  }, 60_000);
});
