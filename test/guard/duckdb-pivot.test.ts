// DuckDB's PIVOT and UNPIVOT through the read-only guard and the hardened warehouse connection the
// service uses, on a real DuckDB file. With its values listed (`ON status IN (…)`) a PIVOT is one
// SELECT: it runs, in every spelling (PIVOT, PIVOT_WIDER, the SQL-standard `PIVOT (… FOR … IN …)`),
// inside a CTE or a subquery, and so do UNPIVOT and PIVOT_LONGER. Without the list (or with a subquery
// for it) DuckDB runs two statements, `CREATE TEMP TYPE … AS ENUM (SELECT DISTINCT …)` and then the
// PIVOT over that type: measured below, the type is created even on the read-only connection and
// stays there after the statement. That is a write, so it is refused, with a reason that says why
// and how to write the statement instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, StatementType } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReadOnly, REASONS, ReadOnlyViolation } from '../../src/core/sql/guard/index.js';
import { DUCKDB_READ_ONLY_SETTINGS } from '../../src/core/warehouse/duckdb.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { WarehouseError } from '../../src/core/warehouse/errors.js';
import type { RunOptions } from '../../src/core/warehouse/types.js';
import { isReason, refusalReason } from './refusals.js';

const RUN: RunOptions = { maxRows: 100, timeoutMs: 10_000 };
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-duckdb-pivot-'));
const file = path.join(scratch, 'shop.duckdb');
let warehouse: Warehouse;

beforeAll(async () => {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE orders (id INTEGER, customer_id INTEGER, status VARCHAR, total DOUBLE)');
  await connection.run("INSERT INTO orders VALUES (1, 1, 'paid', 10), (2, 1, 'open', 5), (3, 2, 'paid', 7), (4, 2, 'paid', 1), (5, 2, 'refunded', 3)");
  connection.closeSync();
  instance.closeSync();
  warehouse = openWarehouse({ engine: 'duckdb', path: file });
});
afterAll(async () => {
  await warehouse?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Through the guard, then the warehouse, as the SQL editor and the workspace API run a statement. */
async function guardedRows(sql: string): Promise<Record<string, unknown>[]> {
  await assertReadOnly('duckdb', sql);
  const result = await warehouse.run(sql, [], RUN);
  return result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value])));
}

/** Paid and open totals per customer, as every PIVOT form with a listed IN must give them. */
const PAID_OPEN = [
  { customer_id: 1, paid: 10, open: 5 },
  { customer_id: 2, paid: 8, open: null },
];
/** customer_id and total of each order as rows, as every UNPIVOT form must give them. */
const UNPIVOTED = [
  { id: 1, field: 'customer_id', amount: 1 },
  { id: 1, field: 'total', amount: 10 },
  { id: 2, field: 'customer_id', amount: 1 },
  { id: 2, field: 'total', amount: 5 },
];

describe('PIVOT with its values listed is one SELECT and runs on the read-only connection', () => {
  it.each([
    ["PIVOT orders ON status IN ('paid', 'open') USING sum(total) GROUP BY customer_id ORDER BY customer_id", 'PIVOT'],
    ["pivot_wider orders on status in ('paid', 'open') using sum(total) group by customer_id order by customer_id", 'PIVOT_WIDER, lower case'],
    ["SELECT * FROM (SELECT customer_id, status, total FROM orders) PIVOT (sum(total) FOR status IN ('paid', 'open')) ORDER BY customer_id", 'the SQL-standard form'],
    ["WITH p AS (PIVOT orders ON status IN ('paid', 'open') USING sum(total) GROUP BY customer_id) SELECT * FROM p ORDER BY customer_id", 'inside a CTE'],
    ["SELECT * FROM (PIVOT orders ON status IN ('paid', 'open') USING sum(total) GROUP BY customer_id) ORDER BY customer_id", 'inside a subquery'],
    ["FROM (PIVOT_WIDER orders ON status IN ('paid', 'open') USING sum(total) GROUP BY customer_id) SELECT * ORDER BY customer_id", 'FROM-first around a PIVOT_WIDER'],
  ])('%s (%s)', async (sql) => {
    expect(await guardedRows(sql)).toEqual(PAID_OPEN);
  });

  it.each([
    ['UNPIVOT (SELECT id, customer_id, total FROM orders WHERE id <= 2) ON customer_id, total INTO NAME field VALUE amount ORDER BY id, field', 'UNPIVOT'],
    ['PIVOT_LONGER (SELECT id, customer_id, total FROM orders WHERE id <= 2) ON customer_id, total INTO NAME field VALUE amount ORDER BY id, field', 'PIVOT_LONGER'],
    ['WITH u AS (UNPIVOT (SELECT id, customer_id, total FROM orders WHERE id <= 2) ON COLUMNS(* EXCLUDE (id)) INTO NAME field VALUE amount) SELECT * FROM u ORDER BY id, field', 'UNPIVOT ON COLUMNS(*) inside a CTE'],
    ['SELECT * FROM (SELECT id, customer_id, total FROM orders WHERE id <= 2) UNPIVOT (amount FOR field IN (customer_id, total)) ORDER BY id, field', 'the SQL-standard form'],
  ])('%s (%s)', async (sql) => {
    expect(await guardedRows(sql)).toEqual(UNPIVOTED);
  });
});

describe('PIVOT without its values listed is refused, saying why and how to write it', () => {
  const DYNAMIC = [
    ['PIVOT orders ON status USING sum(total) GROUP BY customer_id', 'PIVOT'],
    ['pivot orders on status using sum(total);', 'lower case, with a final ;'],
    ['PIVOT_WIDER orders ON status USING count(*)', 'PIVOT_WIDER'],
    ["PIVOT orders ON status || '' USING sum(total)", 'on an expression'],
    ['PIVOT orders ON status IN (SELECT DISTINCT status FROM orders) USING sum(total)', 'IN a subquery rather than a list'],
    ["PIVOT orders ON status IN ('paid'), customer_id USING sum(total)", 'two ON columns, one not listed'],
    ['WITH p AS (PIVOT orders ON status USING sum(total)) SELECT * FROM p', 'hidden in a CTE'],
    ['WITH p AS MATERIALIZED (PIVOT_WIDER orders ON status USING sum(total)) FROM p', 'hidden in a materialized CTE'],
    ['SELECT * FROM (PIVOT orders ON status USING sum(total))', 'hidden in a subquery'],
    ['SELECT count(*) FROM orders WHERE id IN (SELECT customer_id FROM (PIVOT orders ON status USING sum(total)))', 'hidden in a subquery of a WHERE'],
    ['SELECT 1 AS a UNION ALL SELECT count(*) FROM (PIVOT orders ON status USING sum(total))', 'hidden in a UNION'],
    ['EXPLAIN PIVOT orders ON status USING sum(total)', 'under EXPLAIN'],
    ['EXPLAIN ANALYZE PIVOT orders ON status USING sum(total)', 'under EXPLAIN ANALYZE'],
  ];

  it.each(DYNAMIC)('%s (%s)', async (sql) => {
    const error = await assertReadOnly('duckdb', sql).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadOnlyViolation);
    const reason = (error as ReadOnlyViolation).reason;
    expect(isReason(reason, REASONS.dynamicPivot), reason).toBe(true);
    // Why: a type is created first, a write; how: the values listed with IN.
    expect(reason).toMatch(/creates a temporary type first \(a write\)/);
    expect(reason).toMatch(/ON col IN \('a', 'b'\)/);
    expect(reason.length).toBeLessThanOrEqual(120);
  });

  it('a second statement after a dynamic PIVOT is refused as a second statement', async () => {
    expect(await refusalReason('duckdb', 'PIVOT orders ON status USING sum(total); DELETE FROM orders')).toBe(REASONS.severalStatements.text);
  });

  it('the warehouse refuses it too, without running the type it would create', async () => {
    const error = await warehouse.run('PIVOT orders ON status USING sum(total)', [], RUN).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WarehouseError);
    expect((error as WarehouseError).message).toMatch(/only one statement can run at a time/);
  });
});

describe('what DuckDB does with a PIVOT without IN (measured on the hardened read-only settings)', () => {
  it('parses it as two statements, a CREATE and then the SELECT, where a listed PIVOT is one SELECT', async () => {
    const instance = await DuckDBInstance.create(file, { ...DUCKDB_READ_ONLY_SETTINGS });
    const connection = await instance.connect();
    try {
      const dynamic = await connection.extractStatements('PIVOT orders ON status USING sum(total)');
      expect(dynamic.count).toBe(2);
      const first = await dynamic.prepare(0);
      expect(first.statementType).toBe(StatementType.CREATE);
      first.destroySync();
      const listed = await connection.extractStatements("PIVOT orders ON status IN ('paid', 'open') USING sum(total)");
      expect(listed.count).toBe(1);
      const only = await listed.prepare(0);
      expect(only.statementType).toBe(StatementType.SELECT);
      only.destroySync();
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('run as a script on the read-only file, it creates an ENUM type that outlives the statement: a write', async () => {
    const instance = await DuckDBInstance.create(file, { ...DUCKDB_READ_ONLY_SETTINGS });
    const connection = await instance.connect();
    const pivotTypes = async () => Number((await connection.runAndReadAll("SELECT count(*) FROM duckdb_types() WHERE type_name LIKE '__pivot_enum%'")).getRowsJS()[0]![0]);
    try {
      expect(await pivotTypes()).toBe(0);
      const rows = (await connection.runAndReadAll('PIVOT orders ON status USING sum(total) GROUP BY customer_id ORDER BY customer_id')).getRowsJS();
      expect(rows).toHaveLength(2);
      expect(await pivotTypes()).toBe(1);
      await connection.run('PIVOT orders ON status USING sum(total)');
      expect(await pivotTypes()).toBe(2);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
