// The Snowflake rollup writer against a real account: runs only with SNOWFLAKE_ACCOUNT,
// SNOWFLAKE_USERNAME and SNOWFLAKE_PASSWORD set (reported skipped otherwise), in the schema
// SNOWFLAKE_ROLLUP_SCHEMA (default SVC_ROLLUP_TEST), which the role must be allowed to create or use.
// Its statements are kept as golden files (rollup-write-sql.test.ts) for every run.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { RollupWrite } from '../../src/core/warehouse/rollup-writer.js';

const live = {
  account: process.env.SNOWFLAKE_ACCOUNT,
  username: process.env.SNOWFLAKE_USERNAME,
  password: process.env.SNOWFLAKE_PASSWORD,
};
const SCHEMA = process.env.SNOWFLAKE_ROLLUP_SCHEMA ?? 'SVC_ROLLUP_TEST';
const OPTIONS = { timeoutMs: 60_000 };

describe.skipIf(!(live.account && live.username && live.password))('Snowflake rollup writer (live)', () => {
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

  it('replaces a partition in one transaction, keeps the rows past the cap, and drops the table', async () => {
    const w = warehouse();
    const writer = w.rollupWriter!(SCHEMA);
    const table = `rtest_${randomBytes(4).toString('hex')}`;
    const select = (n: number) => ({
      sql: `SELECT column1 AS "k", CAST(column2 AS TIMESTAMP_NTZ) AS "t", column3 AS "n", CAST(column4 AS TIMESTAMP_NTZ) AS "m" FROM VALUES ('a', '2024-01-01 00:00:00', ${n}, '2024-01-01 05:00:00'), ('b', '2024-01-02 00:00:00', ${n}, '2024-01-02 07:30:00')`,
      params: [],
    });
    const write = (n: number, maxRows: number): RollupWrite => ({
      table,
      select: select(n),
      columns: [
        { key: 'k', name: 'k', time: false },
        { key: 't', name: 't', time: true },
        { key: 'n', name: 'n', time: false },
      ],
      sourceMaxTimeKey: 'm',
      target: { timeColumn: 't', start: '2024-01-01 00:00:00.000', end: '2025-01-01 00:00:00.000' },
      maxRows,
    });
    const read = async () => (await w.run(`SELECT "k", "n" FROM "${SCHEMA}"."${table}" ORDER BY "k"`, [], { maxRows: 10, timeoutMs: 60_000 })).rows;
    try {
      expect(await writer.replace(write(1, 10), OPTIONS)).toEqual({ rows: 2, sourceMaxTime: '2024-01-02T07:30:00.000', truncated: false });
      expect(await read()).toEqual([{ k: 'a', n: 1 }, { k: 'b', n: 1 }]);
      expect(await writer.replace(write(2, 1), OPTIONS)).toMatchObject({ truncated: true });
      expect(await read()).toEqual([{ k: 'a', n: 1 }, { k: 'b', n: 1 }]);
      expect(await writer.replace(write(3, 10), OPTIONS)).toMatchObject({ rows: 2, truncated: false });
      expect(await read()).toEqual([{ k: 'a', n: 3 }, { k: 'b', n: 3 }]);
    } finally {
      await writer.drop(table, OPTIONS);
      await w.close();
    }
  }, 120_000);
});
