// The read-only guard without a database: every attack of the corpus is refused with a reason,
// every ordinary read is allowed, and no input makes it throw anything but ReadOnlyViolation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/core/errors.js';
import { assertReadOnly, READ_ONLY_MESSAGE, ReadOnlyViolation } from '../../src/core/sql/guard/index.js';
import { WAREHOUSE_ENGINES, type WarehouseEngine } from '../../src/core/warehouse/types.js';
import { ATTACKS, type Attack, READS } from './corpus.js';

/** Resolves to the violation, or fails the test when the statement was allowed or another error came. */
async function refusal(engine: WarehouseEngine, sql: string): Promise<ReadOnlyViolation> {
  const outcome = await assertReadOnly(engine, sql).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, `${engine} should refuse: ${JSON.stringify(sql)}`).toBeInstanceOf(ReadOnlyViolation);
  return outcome as ReadOnlyViolation;
}

/** True when the guard resolved or refused; false (and the error kept) for anything else. */
async function onlyViolations(engine: WarehouseEngine, sql: string): Promise<boolean> {
  try {
    await assertReadOnly(engine, sql);
    return true;
  } catch (error) {
    return error instanceof ReadOnlyViolation;
  }
}

describe('read-only guard: corpus', () => {
  it('holds enough attacks and reads for every engine', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(120);
    expect(READS.length).toBeGreaterThanOrEqual(50);
    for (const engine of WAREHOUSE_ENGINES) {
      expect(ATTACKS.filter((a) => a.engine === engine).length, engine).toBeGreaterThanOrEqual(20);
      expect(READS.filter((r) => r.engine === engine).length, engine).toBeGreaterThanOrEqual(8);
    }
  });

  it.each(ATTACKS.map((a, i) => [i, a.engine, a.class, a] as const))('refuses attack #%i (%s, %s)', async (_i, engine, _class, attack) => {
    const violation = await refusal(engine, attack.sql);
    expect(violation.status).toBe(400);
    expect(violation.code).toBe('read_only_violation');
    expect(violation.message).toBe(READ_ONLY_MESSAGE);
    expect(violation.message).toBe('Only SELECT, WITH and EXPLAIN statements are allowed');
    expect(violation).toBeInstanceOf(BadRequestError);
    expect(typeof violation.details.reason).toBe('string');
    expect(violation.details.reason.length).toBeGreaterThan(0);
  });

  it.each(READS.map((r, i) => [i, r.engine, r.note, r] as const))('allows read #%i (%s, %s)', async (_i, engine, _note, read) => {
    await expect(assertReadOnly(engine, read.sql)).resolves.toBeUndefined();
  });
});

describe('read-only guard: reasons', () => {
  it.each([
    ['postgres', 'WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', 'DELETE inside a WITH clause'],
    ['postgres', 'SELECT * INTO stolen FROM customers', 'SELECT … INTO creates a table'],
    ['postgres', 'SELECT pg_catalog.PG_SLEEP(1)', 'function pg_sleep is not allowed'],
    ['postgres', 'SELECT 1; SELECT 2', 'more than one statement'],
    ['postgres', 'SELECT FROM WHERE', 'could not be parsed'],
    ['duckdb', 'SELECT 1; SELECT 2', 'more than one statement'],
    ['duckdb', "SELECT * FROM read_csv('x')", 'table function read_csv is not allowed'],
    ['mysql', "SELECT 1 /*!50000 INTO OUTFILE '/tmp/x' */", 'an executable comment (/*! … */)'],
    ['mysql', 'SELECT GET_LOCK("x", 1)', 'function GET_LOCK is not allowed'],
    ['snowflake', 'WITH p AS PROCEDURE () RETURNS INT LANGUAGE SQL AS $$ SELECT 1 $$ CALL p()', 'PROCEDURE runs code (anonymous procedures are not allowed)'],
    ['postgres', '   ', 'empty statement'],
  ] as const)('%s: %s', async (engine, sql, reason) => {
    expect((await refusal(engine, sql)).details.reason).toBe(reason);
  });

  it('refuses an engine it does not know', async () => {
    await refusal('oracle' as WarehouseEngine, 'SELECT 1 FROM dual');
  });

  it('refuses input that is not a string or is too long', async () => {
    await refusal('postgres', 42 as unknown as string);
    await refusal('mysql', `SELECT '${'x'.repeat(200_001)}'`);
  });

  it('keeps reasons short even for long names', async () => {
    const violation = await refusal('postgres', `SELECT pg_sleep${'x'.repeat(500)}(1)`);
    expect(violation.details.reason.length).toBeLessThanOrEqual(120);
  });
});

describe('read-only guard: properties', () => {
  const engines = fc.constantFrom(...WAREHOUSE_ENGINES);

  it('throws nothing but ReadOnlyViolation on random text', async () => {
    await fc.assert(
      fc.asyncProperty(engines, fc.string({ unit: 'binary', maxLength: 120 }), (engine, sql) => onlyViolations(engine, sql)),
      { numRuns: 400 },
    );
  });

  const pieces = [
    'SELECT', 'WITH', 'EXPLAIN', ' ', '\n', '\r', ';', "'", '"', '`', '$$', '$a$', '/*', '*/', '/*!', '/*+', '--', '-- ',
    '#', '//', '\\', 'E', 'DELETE', 'FROM', 'INTO', 't', '(', ')', 'pg_sleep(1)', 'SLEEP(1)', '@s', 'read_csv(\'x\')',
    'FOR UPDATE', '1', ',', '\u00a0', '\u0000', 'x.csv', '->>', ':=',
  ];
  const soup = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

  it('throws nothing but ReadOnlyViolation on SQL-like token soup', async () => {
    await fc.assert(fc.asyncProperty(engines, soup, (engine, sql) => onlyViolations(engine, sql)), { numRuns: 600 });
  });

  it('refuses a soup that contains a second statement after a read', async () => {
    await fc.assert(
      fc.asyncProperty(engines, soup, async (engine, tail) => {
        const sql = `SELECT 1\n; DELETE FROM orders ${tail}`;
        return !(await assertReadOnly(engine, sql).then(() => true, () => false));
      }),
      { numRuns: 300 },
    );
  });

  const separators = fc.constantFrom(' ', '\n', '\t', '/* x */', '/* ; */ ', '-- c\n', '\n\n');
  const harmful = (a: Attack) => a.class !== 'malformed';

  it('refuses every attack stacked after a read of the same engine', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READS), fc.constantFrom(...ATTACKS.filter(harmful)), separators, async (read, attack, sep) => {
        fc.pre(read.engine === attack.engine);
        const sql = `${read.sql}\n;${sep}${attack.sql}`;
        return !(await assertReadOnly(read.engine, sql).then(() => true, () => false));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every attack behind leading comments and whitespace', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ATTACKS.filter(harmful)), fc.array(separators, { maxLength: 3 }), async (attack, seps) => {
        const sql = `${seps.join('')}${attack.sql}`;
        return !(await assertReadOnly(attack.engine, sql).then(() => true, () => false));
      }),
      { numRuns: 400 },
    );
  });
});

describe('read-only guard: speed', () => {
  // A typical statement of about 200 characters, per engine.
  const TYPICAL: Record<WarehouseEngine, string> = {
    postgres:
      "SELECT c.name, date_trunc('month', o.created_at) AS month, sum(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10",
    duckdb:
      "SELECT c.name, date_trunc('month', o.created_at) AS month, sum(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10",
    mysql:
      "SELECT c.`name`, DATE_FORMAT(o.created_at, '%Y-%m') AS month, SUM(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10",
    snowflake:
      "SELECT c.name, DATE_TRUNC('month', o.created_at) AS month, SUM(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10",
  };

  it.each(WAREHOUSE_ENGINES)('checks a 200-character SELECT quickly on %s', async (engine) => {
    const sql = TYPICAL[engine];
    for (let i = 0; i < 50; i++) await assertReadOnly(engine, sql);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const started = performance.now();
      await assertReadOnly(engine, sql);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(times.length / 2)]!;
    const p99 = times[Math.floor(times.length * 0.99)]!;
    console.info(`guard ${engine}: ${sql.length} chars, p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`);
    // Generous bound against slow CI machines; the measured figures are printed above.
    expect(p50).toBeLessThan(5);
  });
});
