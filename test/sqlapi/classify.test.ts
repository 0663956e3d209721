// What each statement a PostgreSQL client sends is: session commands (as psql, JDBC and pools send
// them), catalog queries, governed SELECTs, COPY … TO STDOUT, and the refusals of everything else with
// PostgreSQL's SQLSTATE, message, hint and position.
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyStatement, classifyStatements, type ClassifiedStatement } from '../../src/core/sqlapi/classify.js';
import { loadSqlParser } from '../../src/core/sqlapi/pg-ast.js';
import { READ_ONLY_HINT, SqlStateError } from '../../src/core/sqlapi/sql-state-error.js';

beforeAll(async () => {
  await loadSqlParser();
});

function only(sql: string): ClassifiedStatement {
  const statements = classifyStatements(sql);
  expect(statements).toHaveLength(1);
  return statements[0]!;
}

function refusal(run: () => unknown): { sqlstate: string; message: string; hint?: string; position?: number } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SqlStateError)) throw error;
    return { sqlstate: error.sqlstate, message: error.message, ...(error.hint !== undefined ? { hint: error.hint } : {}), ...(error.position !== undefined ? { position: error.position } : {}) };
  }
  throw new Error('expected a refusal');
}

describe('statements and their text', () => {
  it('gives no statement for empty input, blanks, lone semicolons or comments', () => {
    expect(classifyStatements('')).toEqual([]);
    expect(classifyStatements('  \n ')).toEqual([]);
    expect(classifyStatements(' ; ;; ')).toEqual([]);
    expect(classifyStatements('-- nothing to run\n/* at all */')).toEqual([]);
  });

  it('splits a simple-protocol string into statements, each with its own text and where it starts', () => {
    const sql = "SELECT 1;\n  SET search_path TO public;; SHOW server_version ;SELECT status FROM orders GROUP BY 1";
    const statements = classifyStatements(sql);
    expect(statements.map((s) => [s.kind, s.text, s.start])).toEqual([
      ['catalog', 'SELECT 1', 0],
      ['session', 'SET search_path TO public', sql.indexOf('SET')],
      ['session', 'SHOW server_version', sql.indexOf('SHOW')],
      ['governed', 'SELECT status FROM orders GROUP BY 1', sql.indexOf('SELECT status')],
    ]);
    for (const s of statements) expect(sql.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });

  it('counts starts in characters, as PostgreSQL counts positions, not in UTF-8 bytes', () => {
    const sql = "SELECT 'été'; SELECT 'ü'";
    const [, second] = classifyStatements(sql);
    expect(second!.start).toBe(14);
    expect(sql.slice(14)).toBe("SELECT 'ü'");
  });

  it('keeps a trailing comment with the last statement and parses each statement on its own', () => {
    const [statement] = classifyStatements('SELECT version() -- server');
    expect(statement).toEqual({ kind: 'catalog', text: 'SELECT version() -- server', start: 0 });
  });

  it('takes one statement per Parse message (extended protocol)', () => {
    expect(classifyStatement('SELECT 1')).toEqual({ kind: 'catalog', text: 'SELECT 1', start: 0 });
    expect(classifyStatement(' ; ')).toBeUndefined();
    expect(refusal(() => classifyStatement('SELECT 1; SELECT 2'))).toEqual({ sqlstate: '42601', message: 'cannot insert multiple commands into a prepared statement' });
  });

  it('refuses a whole string whose later statement is refused, as PostgreSQL undoes its implicit transaction', () => {
    expect(refusal(() => classifyStatements('SET x = 1; SELECT 1; DELETE FROM orders'))).toMatchObject({ sqlstate: '25006', message: 'cannot execute DELETE in a read-only transaction' });
  });
});

describe('syntax errors are 42601 at the character the parser stopped at', () => {
  it.each([
    ['SELEC 1', 'syntax error at or near "SELEC"', 1],
    ['SELECT 1; SELEC 2', 'syntax error at or near "SELEC"', 11],
    ["SELECT 'abc", 'unterminated quoted string at or near "\'abc"', 8],
    ["SELECT 'été', FROM orders", 'syntax error at or near "FROM"', 15],
    ['SELECT status FROM order', 'syntax error at or near "order"', 20],
  ])('%s', (sql, message, position) => {
    expect(refusal(() => classifyStatements(sql))).toEqual({ sqlstate: '42601', message, position });
  });
});

describe('session commands', () => {
  it.each<[string, unknown]>([
    // JDBC's connection start-up
    ['SET extra_float_digits = 3', { type: 'set', name: 'extra_float_digits', value: '3', local: false }],
    ["SET application_name = 'PostgreSQL JDBC Driver'", { type: 'set', name: 'application_name', value: 'PostgreSQL JDBC Driver', local: false }],
    [
      'SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED',
      { type: 'setTransaction', scope: 'session', modes: { isolation: 'read committed' } },
    ],
    ['SHOW TRANSACTION ISOLATION LEVEL', { type: 'show', name: 'transaction_isolation' }],
    ['SET TRANSACTION READ ONLY', { type: 'setTransaction', scope: 'transaction', modes: { readOnly: true } }],
    // psql and friends
    ['SET search_path TO public, "Commerce"', { type: 'set', name: 'search_path', value: 'public, Commerce', local: false }],
    ['SET SESSION statement_timeout TO 0', { type: 'set', name: 'statement_timeout', value: '0', local: false }],
    ['SET LOCAL work_mem = DEFAULT', { type: 'set', name: 'work_mem', value: null, local: true }],
    ['set DateStyle = ISO', { type: 'set', name: 'datestyle', value: 'iso', local: false }],
    ['SET ssl_renegotiation_limit = -1.5', { type: 'set', name: 'ssl_renegotiation_limit', value: '-1.5', local: false }],
    ["SET TIME ZONE 'Europe/Paris'", { type: 'set', name: 'timezone', value: 'Europe/Paris', local: false }],
    ['SET TIME ZONE LOCAL', { type: 'set', name: 'timezone', value: null, local: false }],
    ["SET NAMES 'UTF8'", { type: 'set', name: 'client_encoding', value: 'UTF8', local: false }],
    ['RESET statement_timeout', { type: 'reset', name: 'statement_timeout' }],
    ['RESET ALL', { type: 'resetAll' }],
    ['SHOW server_version', { type: 'show', name: 'server_version' }],
    ['SHOW TIME ZONE', { type: 'show', name: 'timezone' }],
    ['SHOW ALL', { type: 'show', name: 'all' }],
    ['BEGIN', { type: 'begin', modes: {} }],
    ['BEGIN READ ONLY ISOLATION LEVEL SERIALIZABLE', { type: 'begin', modes: { readOnly: true, isolation: 'serializable' } }],
    ['START TRANSACTION READ WRITE, DEFERRABLE', { type: 'begin', modes: { readOnly: false, deferrable: true } }],
    ['COMMIT', { type: 'commit', chain: false }],
    ['END', { type: 'commit', chain: false }],
    ['COMMIT AND CHAIN', { type: 'commit', chain: true }],
    ['ROLLBACK', { type: 'rollback', chain: false }],
    ['ABORT', { type: 'rollback', chain: false }],
    ['SAVEPOINT before_query', { type: 'savepoint', name: 'before_query' }],
    ['RELEASE SAVEPOINT before_query', { type: 'releaseSavepoint', name: 'before_query' }],
    ['ROLLBACK TO SAVEPOINT before_query', { type: 'rollbackToSavepoint', name: 'before_query' }],
    ['DISCARD ALL', { type: 'discard', target: 'all' }],
    ['DISCARD PLANS', { type: 'discard', target: 'plans' }],
    ['DEALLOCATE ALL', { type: 'deallocate', name: null }],
    ['DEALLOCATE PREPARE s1', { type: 'deallocate', name: 's1' }],
    ['CLOSE ALL', { type: 'close', name: null }],
    ['CLOSE c1', { type: 'close', name: 'c1' }],
  ])('%s', (sql, command) => {
    expect(only(sql)).toEqual({ kind: 'session', text: sql, start: 0, command });
  });

  it.each([
    ["SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE", 'SET TIME ZONE INTERVAL is not supported', "Write SET TIME ZONE 'Europe/Paris' or SET TIME ZONE '+02:00'."],
    ['SET work_mem FROM CURRENT', 'SET … FROM CURRENT is not supported', undefined],
    ["SET TRANSACTION SNAPSHOT '0001'", 'SET TRANSACTION SNAPSHOT is not supported', undefined],
    ["PREPARE TRANSACTION 't1'", 'two-phase commit is not supported', 'Transactions here are read-only: BEGIN, COMMIT and ROLLBACK are accepted.'],
    ["COMMIT PREPARED 't1'", 'two-phase commit is not supported', 'Transactions here are read-only: BEGIN, COMMIT and ROLLBACK are accepted.'],
  ])('refuses %s with 0A000', (sql, message, hint) => {
    expect(refusal(() => classifyStatements(sql))).toEqual({ sqlstate: '0A000', message, ...(hint ? { hint } : {}) });
  });
});

describe('catalog queries: pg_catalog, information_schema, or no table at all', () => {
  it.each([
    'SELECT version()',
    'SELECT 1',
    'select current_schema()',
    'SELECT current_database(), current_user',
    'VALUES (1), (2)',
    'SELECT oid, relname FROM pg_catalog.pg_class WHERE relkind = $1',
    'SELECT typname FROM pg_type',
    'SELECT table_name FROM information_schema.tables WHERE table_schema = \'public\'',
    'SELECT n.nspname FROM pg_namespace n JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid',
    'SELECT 1 FROM pg_class WHERE oid IN (SELECT attrelid FROM pg_attribute)',
    'WITH t AS (SELECT oid FROM pg_class) SELECT * FROM t',
    // A WITH name shadows a model table of the same name.
    'WITH orders AS (SELECT 1 AS n) SELECT n FROM orders',
    'SELECT * FROM generate_series(1, 3)',
    'EXPLAIN SELECT * FROM pg_class',
  ])('%s', (sql) => {
    expect(only(sql)).toEqual({ kind: 'catalog', text: sql, start: 0 });
  });
});

describe('outer queries: model tables read only inside parenthesized SELECTs', () => {
  const part = 'SELECT status, MEASURE(order_count) AS n FROM orders GROUP BY 1';
  it.each<[string, string[]]>([
    [`SELECT status, n * 2 FROM (${part}) s`, [part]],
    [`SELECT * FROM ( ${part} ) AS s ORDER BY n / 2`, [part]],
    [`WITH o AS (${part}) SELECT status FROM o`, [part]],
    [`WITH o AS MATERIALIZED (${part}), p AS (SELECT * FROM o) SELECT status FROM p`, [part]],
    // the innermost SELECT around the table is the part
    [`SELECT * FROM (SELECT * FROM ((${part})) a) b`, [part]],
    ['SELECT (SELECT MEASURE(order_count) FROM orders) / 2 AS half', ['SELECT MEASURE(order_count) FROM orders']],
    [`SELECT a.status FROM (${part}) a JOIN (SELECT channel FROM orders GROUP BY 1) b ON true`, [part, 'SELECT channel FROM orders GROUP BY 1']],
    // a non-recursive CTE's own body reads the table its name shadows
    [`WITH orders AS (${part}) SELECT * FROM orders`, [part]],
    // a part that holds another is the part (its planning refuses the subquery)
    ['SELECT * FROM (SELECT status FROM orders WHERE status IN (SELECT status FROM orders GROUP BY 1) GROUP BY 1) s', ['SELECT status FROM orders WHERE status IN (SELECT status FROM orders GROUP BY 1) GROUP BY 1']],
  ])('%s', (sql, parts) => {
    const statement = only(sql);
    expect(statement.kind).toBe('outer');
    if (statement.kind !== 'outer') return;
    expect(statement.parts.map((p) => p.statement.text)).toEqual(parts);
    for (const p of statement.parts) {
      expect(p.statement.kind).toBe('governed');
      expect(sql.slice(p.statement.start, p.statement.start + p.statement.text.length)).toBe(p.statement.text);
      expect(sql.slice(p.span.from, p.span.to).trim()).toBe(p.statement.text);
    }
  });

  it('places each part in characters of the input, after other statements and multibyte text', () => {
    const sql = `SET search_path = public; SELECT 'é€' AS x, n FROM (${part}) s`;
    const [, statement] = classifyStatements(sql);
    expect(statement?.kind).toBe('outer');
    if (statement?.kind !== 'outer') return;
    expect(statement.parts[0]!.statement.start).toBe(sql.indexOf(part));
  });

  it('a COPY copies an outer query', () => {
    const sql = `COPY (SELECT status, n + 1 FROM (${part}) s) TO STDOUT`;
    const statement = only(sql);
    expect(statement.kind === 'copy' && statement.inner.kind).toBe('outer');
  });

  it('a recursive CTE names itself inside its body, and reads no model table', () => {
    expect(only('WITH RECURSIVE orders AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM orders WHERE n < 3) SELECT * FROM orders').kind).toBe('catalog');
  });

  it('a catalog relation beside a part is refused as any mix is', () => {
    expect(refusal(() => classifyStatements(`SELECT * FROM (${part}) s, pg_class`)).message).toBe('a statement cannot read both catalog relations and model tables');
  });
});

describe('governed SELECTs: any relation that is not a catalog one', () => {
  it.each([
    'SELECT status, MEASURE(order_count) FROM orders GROUP BY status',
    'SELECT status FROM commerce.orders GROUP BY 1',
    'SELECT x FROM no_such_table',
    // Shapes the translator refuses, with its reasons.
    'SELECT status FROM orders UNION SELECT channel FROM orders',
    'SELECT * FROM orders JOIN customers ON true',
    'SELECT status FROM orders, (SELECT 1) s GROUP BY 1',
  ])('%s', (sql) => {
    const statement = only(sql);
    expect(statement.kind).toBe('governed');
    expect(statement.kind === 'governed' && statement.ast).toBeTruthy();
  });

  it('refuses a statement that reads both catalog relations and model tables', () => {
    const sql = 'SELECT relname FROM pg_class, orders';
    expect(refusal(() => classifyStatements(sql))).toEqual({
      sqlstate: '0A000',
      message: 'a statement cannot read both catalog relations and model tables',
      hint: "Query pg_catalog and information_schema in one statement and the model's tables in another.",
      position: sql.indexOf('orders') + 1,
    });
  });
});

describe('COPY … TO STDOUT', () => {
  it('carries the query it copies as a statement of its own, with its place in the text', () => {
    const sql = 'COPY ( SELECT status, MEASURE(order_count) FROM orders GROUP BY 1 ) TO STDOUT WITH (FORMAT csv, HEADER)';
    const statement = only(sql);
    expect(statement.kind).toBe('copy');
    if (statement.kind !== 'copy') return;
    expect(statement.options).toEqual({ format: 'csv', header: true });
    expect(statement.inner).toMatchObject({ kind: 'governed', text: 'SELECT status, MEASURE(order_count) FROM orders GROUP BY 1', start: sql.indexOf('SELECT') });
  });

  it.each<[string, unknown]>([
    ['COPY (SELECT 1) TO STDOUT', { format: 'text', header: false }],
    ['COPY (SELECT 1) TO STDOUT WITH CSV HEADER', { format: 'csv', header: true }],
    ["COPY (SELECT 1) TO STDOUT (FORMAT csv, HEADER false, DELIMITER ';', NULL 'n/a', QUOTE '\"', ESCAPE '\\', ENCODING 'UTF8')", { format: 'csv', header: false, delimiter: ';', null: 'n/a', quote: '"', escape: '\\', encoding: 'UTF8' }],
    ['COPY (SELECT 1) TO STDOUT WITH CSV FORCE QUOTE *', { format: 'csv', header: false, forceQuote: '*' }],
    ['COPY (SELECT 1) TO STDOUT (FORMAT csv, FORCE_QUOTE (a, b))', { format: 'csv', header: false, forceQuote: ['a', 'b'] }],
  ])('%s', (sql, options) => {
    const statement = only(sql);
    expect(statement).toMatchObject({ kind: 'copy', options, inner: { kind: 'catalog', text: 'SELECT 1' } });
  });

  it.each([
    ['COPY orders FROM STDIN', '25006', 'cannot execute COPY FROM in a read-only transaction', READ_ONLY_HINT],
    ['COPY (SELECT 1) TO \'/tmp/out.csv\'', '42501', 'must be superuser or have privileges of the pg_write_server_files role to COPY to a file', 'COPY … TO STDOUT sends the rows to the client (psql: \\copy).'],
    ["COPY (SELECT 1) TO PROGRAM 'cat'", '42501', 'must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program', 'COPY … TO STDOUT sends the rows to the client (psql: \\copy).'],
    ['COPY (SELECT 1) TO STDOUT (FORMAT binary)', '0A000', 'COPY format "binary" is not supported', 'Use FORMAT csv or FORMAT text.'],
    ['COPY (SELECT 1) TO STDOUT (FORMAT xml)', '42601', 'COPY format "xml" not recognized', undefined],
    ['COPY (SELECT 1) TO STDOUT (HEADER match)', '0A000', 'cannot use "match" with HEADER in COPY TO', undefined],
    ['COPY (SELECT 1) TO STDOUT (FREEZE)', '0A000', 'COPY FREEZE cannot be used with COPY TO', undefined],
    ['COPY (SELECT 1) TO STDOUT (COLOUR red)', '42601', 'option "colour" not recognized', undefined],
    ['COPY (DELETE FROM orders RETURNING *) TO STDOUT', '25006', 'cannot execute DELETE in a read-only transaction', READ_ONLY_HINT],
  ])('refuses %s', (sql, sqlstate, message, hint) => {
    expect(refusal(() => classifyStatements(sql))).toEqual({ sqlstate, message, ...(hint ? { hint } : {}) });
  });

  it('refuses COPY of a table, saying how to copy a query of it', () => {
    const sql = 'COPY orders TO STDOUT';
    expect(refusal(() => classifyStatements(sql))).toEqual({
      sqlstate: '0A000',
      message: 'COPY of a table is not supported',
      hint: 'Copy a query: COPY (SELECT … FROM orders GROUP BY …) TO STDOUT.',
      position: 6,
    });
  });
});

describe('writes and definitions are 25006, worded as PostgreSQL words them', () => {
  it.each([
    ["INSERT INTO orders (status) VALUES ('x')", 'INSERT'],
    ["UPDATE orders SET status = 'x'", 'UPDATE'],
    ['DELETE FROM orders', 'DELETE'],
    ['MERGE INTO orders o USING customers c ON o.customer_id = c.id WHEN MATCHED THEN DELETE', 'MERGE'],
    ['CREATE TABLE t (a int)', 'CREATE TABLE'],
    ['CREATE TABLE t AS SELECT 1', 'CREATE TABLE AS'],
    ['SELECT status INTO t FROM orders', 'SELECT INTO'],
    ['SELECT * FROM orders FOR UPDATE', 'SELECT FOR UPDATE'],
    ['SELECT * FROM pg_class FOR SHARE', 'SELECT FOR SHARE'],
    ['SELECT * FROM orders FOR NO KEY UPDATE', 'SELECT FOR NO KEY UPDATE'],
    ['WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone', 'DELETE'],
    ['CREATE VIEW v AS SELECT 1', 'CREATE VIEW'],
    ['CREATE MATERIALIZED VIEW v AS SELECT 1', 'CREATE MATERIALIZED VIEW'],
    ['CREATE INDEX ON orders (status)', 'CREATE INDEX'],
    ['CREATE SCHEMA s', 'CREATE SCHEMA'],
    ['CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$', 'CREATE FUNCTION'],
    ['ALTER TABLE orders ADD COLUMN x int', 'ALTER TABLE'],
    ['ALTER TABLE orders RENAME TO o', 'ALTER TABLE'],
    ['DROP TABLE orders', 'DROP TABLE'],
    ['DROP VIEW v', 'DROP VIEW'],
    ['TRUNCATE orders', 'TRUNCATE TABLE'],
    ['GRANT SELECT ON orders TO public', 'GRANT'],
    ['REVOKE SELECT ON orders FROM public', 'REVOKE'],
    ['CREATE ROLE r', 'CREATE ROLE'],
    ['CALL refresh_all()', 'CALL'],
    ['DO $$ BEGIN END $$', 'DO'],
    ['VACUUM', 'VACUUM'],
    ['ANALYZE orders', 'ANALYZE'],
    ["COMMENT ON TABLE orders IS 'x'", 'COMMENT'],
    ['REFRESH MATERIALIZED VIEW v', 'REFRESH MATERIALIZED VIEW'],
    ['CREATE EXTENSION pg_trgm', 'CREATE EXTENSION'],
    ['ALTER SYSTEM SET work_mem = 1', 'ALTER SYSTEM'],
    ['EXPLAIN ANALYZE DELETE FROM orders', 'DELETE'],
  ])('%s', (sql, command) => {
    expect(refusal(() => classifyStatements(sql))).toEqual({ sqlstate: '25006', message: `cannot execute ${command} in a read-only transaction`, hint: READ_ONLY_HINT });
  });
});

describe('other statements are 0A000 with what is accepted', () => {
  const accepted = "This interface answers SELECT over the model's tables (and queries over such SELECTs), catalog queries, COPY (SELECT …) TO STDOUT, SET, SHOW and transaction statements.";
  it.each([
    ['LISTEN events', 'LISTEN is not supported', 'Notifications are not sent on this interface.'],
    ['UNLISTEN *', 'UNLISTEN is not supported', 'Notifications are not sent on this interface.'],
    ["NOTIFY events, 'x'", 'NOTIFY is not supported', 'Notifications are not sent on this interface.'],
    ['PREPARE q AS SELECT 1', 'PREPARE is not supported', 'Prepare statements with the extended query protocol (Parse, Bind, Execute), as drivers do.'],
    ['EXECUTE q', 'EXECUTE is not supported', 'Prepare statements with the extended query protocol (Parse, Bind, Execute), as drivers do.'],
    ['DECLARE c CURSOR FOR SELECT 1', 'DECLARE CURSOR is not supported', 'Run the SELECT itself; the extended protocol can fetch its rows in batches.'],
    ['FETCH 10 FROM c', 'FETCH is not supported', 'Run the SELECT itself; the extended protocol can fetch its rows in batches.'],
    ['CHECKPOINT', 'CHECKPOINT is not supported', accepted],
    ['LOCK TABLE orders', 'LOCK TABLE is not supported', accepted],
    ['SET CONSTRAINTS ALL DEFERRED', 'SET CONSTRAINTS is not supported', accepted],
    ['EXPLAIN SELECT status FROM orders GROUP BY 1', 'EXPLAIN of a query over model tables is not supported', 'Run the SELECT itself: EXPLAIN answers catalog queries only here.'],
    ['EXPLAIN EXECUTE q', 'EXPLAIN is supported for SELECT over catalog relations only', accepted],
  ])('%s', (sql, message, hint) => {
    expect(refusal(() => classifyStatements(sql))).toEqual({ sqlstate: '0A000', message, hint });
  });
});
