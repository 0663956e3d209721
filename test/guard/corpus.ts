// The read-only guard's corpus: statements a hostile user could send (each must be refused) and
// ordinary reads (each must be allowed). Reused by the HTTP tests of the surfaces that accept raw SQL.
//
// Every read and most attacks are written against the victim schema the engine tests create:
//   customers (id, name, email, country)   orders (id, customer_id, total, status, created_at)
//   PostgreSQL also has the sequence order_seq.
// File paths aimed at the server's disk use SCRATCH, a placeholder the tests replace with a fresh
// temporary directory (see withScratch).
import type { WarehouseEngine } from '../../src/core/warehouse/types.js';

export type AttackClass =
  | 'data-modifying-cte'
  | 'select-into'
  | 'locking'
  | 'explain-analyze'
  | 'stacked'
  | 'executable-comment'
  | 'session-state'
  | 'sleep'
  | 'advisory-lock'
  | 'server-file'
  | 'large-object'
  | 'signal-backend'
  | 'other-connection'
  | 'sql-in-string'
  | 'sequence'
  | 'file-network'
  | 'extension'
  | 'procedure'
  | 'stage'
  | 'other-statement'
  | 'parser-differential'
  | 'malformed';

export interface Attack {
  readonly engine: WarehouseEngine;
  readonly sql: string;
  readonly class: AttackClass;
  readonly note: string;
  /**
   * False when the engine tests must not run it through the driver without the guard: it would act
   * on the shared server beyond the test database (other sessions, configuration, WAL, replication).
   */
  readonly direct?: false;
}

export interface Read {
  readonly engine: WarehouseEngine;
  readonly sql: string;
  readonly note: string;
}

/** Placeholder for a scratch directory; tests substitute a fresh one with withScratch(). */
export const SCRATCH = '/tmp/svc-guard-SCRATCH';

export function withScratch(sql: string, dir: string): string {
  return sql.replaceAll(SCRATCH, dir);
}

type Spec = [AttackClass, string, string, { direct?: false }?];

function attacks(engine: WarehouseEngine, specs: readonly Spec[]): Attack[] {
  return specs.map(([cls, sql, note, options]) => ({ engine, sql, class: cls, note, ...(options ?? {}) }));
}

function reads(engine: WarehouseEngine, specs: readonly [string, string][]): Read[] {
  return specs.map(([sql, note]) => ({ engine, sql, note }));
}

const SKIP = { direct: false } as const;

// ---- PostgreSQL ------------------------------------------------------------------------------

const POSTGRES_ATTACKS = attacks('postgres', [
  ['data-modifying-cte', 'WITH d AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM d', 'DELETE in a CTE'],
  ['data-modifying-cte', "WITH u AS (UPDATE customers SET name = 'pwned' RETURNING id) SELECT * FROM u", 'UPDATE in a CTE'],
  ['data-modifying-cte', "WITH i AS (INSERT INTO customers (id, name, email, country) VALUES (999, 'x', 'x', 'x') RETURNING id) SELECT * FROM i", 'INSERT in a CTE'],
  ['data-modifying-cte', 'SELECT * FROM (WITH d AS (DELETE FROM orders RETURNING id) SELECT id FROM d) s', 'CTE write nested in a subquery'],
  ['data-modifying-cte', 'WITH RECURSIVE r AS (SELECT 1 AS n), d AS (DELETE FROM orders WHERE id IN (SELECT n FROM r) RETURNING id) SELECT * FROM d', 'second CTE of a recursive WITH'],
  ['data-modifying-cte', 'WITH m AS (MERGE INTO customers c USING (SELECT 1 AS id) s ON c.id = s.id WHEN MATCHED THEN DELETE RETURNING c.id) SELECT * FROM m', 'MERGE in a CTE (PostgreSQL 17 syntax)'],
  ['data-modifying-cte', 'EXPLAIN WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', 'EXPLAIN of a CTE write'],
  ['data-modifying-cte', 'with D as (delete from ORDERS returning *) select * from d', 'lower/mixed case'],
  ['select-into', 'SELECT * INTO stolen FROM customers', 'SELECT INTO creates a table'],
  ['select-into', 'SELECT * INTO TEMP stolen FROM customers', 'into a temporary table'],
  ['select-into', 'SELECT id INTO UNLOGGED TABLE stolen FROM orders', 'into an unlogged table'],
  ['select-into', 'WITH c AS (SELECT * FROM customers) SELECT * INTO stolen FROM c', 'INTO after a WITH'],
  ['locking', 'SELECT * FROM orders FOR UPDATE', 'row locks'],
  ['locking', 'SELECT * FROM orders FOR SHARE SKIP LOCKED', 'FOR SHARE'],
  ['locking', 'SELECT * FROM customers FOR NO KEY UPDATE NOWAIT', 'FOR NO KEY UPDATE'],
  ['locking', 'SELECT * FROM (SELECT * FROM orders FOR KEY SHARE) s', 'locking clause in a subquery'],
  ['explain-analyze', 'EXPLAIN ANALYZE SELECT 1', 'EXPLAIN ANALYZE runs the statement'],
  ['explain-analyze', 'EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM orders', 'option-list form'],
  ['explain-analyze', 'EXPLAIN (ANALYZE) SELECT * INTO stolen FROM customers', 'runs inside BEGIN READ ONLY; only the rollback undoes it (measured)'],
  ['explain-analyze', 'EXPLAIN ANALYZE CREATE TABLE stolen AS SELECT * FROM customers', 'runs inside BEGIN READ ONLY; only the rollback undoes it (measured)'],
  ['explain-analyze', 'EXPLAIN ANALYZE DELETE FROM orders', 'EXPLAIN ANALYZE of a DELETE'],
  ['explain-analyze', 'explain (analyse false) select 1', 'British spelling, even switched off'],
  ['stacked', 'SELECT 1; DELETE FROM orders', 'two statements'],
  ['stacked', "SELECT 'a\\'; COMMIT; DELETE FROM orders; -- '", 'backslash before the quote: COMMIT then DELETE (node-sql-parser read it as one SELECT)'],
  ['stacked', 'SELECT $$x$$; DROP TABLE orders; SELECT $$y$$', 'dollar quotes around the separator'],
  ['stacked', 'SELECT 1 /* ; */ ; TRUNCATE orders', 'separator after a block comment'],
  ['stacked', 'SELECT 1 -- ;\n; DELETE FROM orders', 'separator after a line comment'],
  ['stacked', "SELECT 'x'\n;COMMIT;UPDATE customers SET name = 'pwned'", 'COMMIT to leave the read-only transaction'],
  ['stacked', 'SELECT $a$ $$ ; $a$; DELETE FROM orders', 'tagged dollar quote containing $$'],
  ['stacked', 'SELECT 1 /* /* nested */ ; */; DELETE FROM orders', 'nested block comment'],
  ['parser-differential', "SELECT 'a\\'' ; DELETE FROM orders; --'", 'one string with standard_conforming_strings on, three statements with it off'],
  ['parser-differential', "SELECT 1 WHERE 'x' = 'x\\' OR pg_sleep(1) IS NULL --'", 'backslash before a quote in a plain string'],
  ['session-state', "SELECT set_config('search_path', 'evil', false)", 'changes the session (persists if the wrapper commits)'],
  ['session-state', "SELECT pg_catalog.set_config('statement_timeout', '0', false)", 'schema-qualified, lifts the time limit'],
  ['session-state', `SELECT "set_config"('app.pwned', '1', false)`, 'quoted function name'],
  ['session-state', "SELECT id FROM customers WHERE SET_CONFIG('app.pwned', '1', false) IS NOT NULL", 'upper case, in WHERE'],
  ['session-state', 'SELECT setseed(0.5)', 'session random seed'],
  ['sleep', 'SELECT pg_sleep(3)', 'sleep'],
  ['sleep', "SELECT PG_CATALOG.PG_SLEEP_FOR('3 seconds')", 'upper-case qualified pg_sleep_for'],
  ['sleep', "SELECT * FROM orders WHERE pg_sleep_until(now() + interval '3 seconds') IS NOT NULL", 'pg_sleep_until in WHERE'],
  ['sleep', 'SELECT * FROM pg_sleep(3)', 'in FROM'],
  ['sleep', 'SELECT * FROM ROWS FROM (pg_sleep(3)) AS s', 'ROWS FROM'],
  ['sleep', '/* hi */ select (select pg_sleep(3))', 'in a scalar subquery'],
  ['advisory-lock', 'SELECT pg_advisory_lock(42)', 'advisory locks survive ROLLBACK'],
  ['advisory-lock', 'SELECT pg_try_advisory_lock(42)', 'try variant'],
  ['advisory-lock', 'SELECT pg_advisory_lock_shared(7)', 'shared variant'],
  ['advisory-lock', 'SELECT count(*) FROM orders WHERE pg_catalog.pg_advisory_xact_lock(id) IS NULL', 'per row, in WHERE'],
  ['server-file', "SELECT pg_read_file('/etc/passwd')", 'reads a server file (superuser or pg_read_server_files)'],
  ['server-file', "SELECT pg_read_binary_file('/etc/hostname')", 'binary variant'],
  ['server-file', "SELECT * FROM pg_ls_dir('.')", 'lists the data directory'],
  ['server-file', "SELECT ('/etc/hostname'::text).pg_read_file", 'column notation calls pg_read_file (measured)'],
  ['server-file', "SELECT (x).pg_read_file FROM (SELECT '/etc/hostname'::text AS x) s", 'column notation on a subquery column'],
  ['server-file', "SELECT x.pg_read_file FROM unnest(ARRAY['/etc/hostname']) AS x", 'column notation on a scalar FROM item calls pg_read_file (measured)'],
  ['server-file', "SELECT pg_stat_file('postgresql.conf')", 'file metadata'],
  ['server-file', `COPY (SELECT * FROM customers) TO '${SCRATCH}/copy.csv'`, 'COPY TO writes on the server (not blocked by READ ONLY)'],
  ['server-file', "COPY orders FROM PROGRAM 'id'", 'runs a program on the server'],
  ['large-object', "SELECT lo_from_bytea(0, 'pwned')", 'creates a large object inside BEGIN READ ONLY; only the rollback undoes it (measured)'],
  ['large-object', `SELECT lo_export(lo_from_bytea(0, 'pwned'), '${SCRATCH}/lo.txt')`, 'creates a large object and writes it to a file'],
  ['large-object', "SELECT lo_import('/etc/hostname')", 'reads a server file into a large object'],
  ['large-object', 'SELECT lo_unlink(1)', 'deletes a large object'],
  ['large-object', 'SELECT loread(lo_open(1, 262144), 100)', 'loread without the lo_ prefix'],
  ['signal-backend', 'SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()', 'cancels other sessions', SKIP],
  ['signal-backend', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()', 'kills other sessions', SKIP],
  ['signal-backend', 'SELECT pg_reload_conf()', 'reloads the configuration', SKIP],
  ['signal-backend', 'SELECT pg_rotate_logfile()', 'rotates the log', SKIP],
  ['signal-backend', 'SELECT pg_switch_wal()', 'forces a WAL switch', SKIP],
  ['signal-backend', "SELECT pg_create_restore_point('guard')", 'writes a WAL record', SKIP],
  ['signal-backend', "SELECT pg_create_logical_replication_slot('guard_slot', 'test_decoding')", 'creates a replication slot', SKIP],
  ['signal-backend', 'SELECT pg_stat_reset()', 'resets statistics', SKIP],
  ['signal-backend', "SELECT pg_notify('guard', 'payload')", 'notifies listeners'],
  ['other-connection', "SELECT * FROM dblink('dbname=postgres', 'DELETE FROM orders') AS t(x text)", 'writes through another connection'],
  ['other-connection', "SELECT dblink_exec('dbname=postgres', 'DROP TABLE orders')", 'dblink_exec'],
  ['sql-in-string', "SELECT query_to_xml('DELETE FROM orders RETURNING *', true, false, '')", 'runs SQL given as a string'],
  ['sql-in-string', "SELECT query_to_xml('SELECT pg_sleep(3)', true, false, '')", 'hides a denied call in a string'],
  ['sql-in-string', "SELECT query_to_xml_and_xmlschema('SELECT 1', true, false, '')", 'variant'],
  ['sql-in-string', "SELECT cursor_to_xml('c', 1, false, false, '')", 'reads a cursor'],
  ['sql-in-string', "SELECT table_to_xml('customers', true, false, '')", 'runs SQL internally'],
  ['sql-in-string', "SELECT database_to_xml(true, false, '')", 'whole database'],
  ['sql-in-string', "SELECT * FROM ts_stat('SELECT to_tsvector(name) FROM customers')", 'ts_stat runs its argument'],
  ['sequence', "SELECT nextval('order_seq')", 'advances a sequence'],
  ['sequence', "SELECT setval('order_seq', 1000)", 'sets a sequence'],
  ['sequence', "SELECT pg_catalog.nextval('order_seq'::regclass) FROM orders", 'qualified, per row'],
  ['sequence', 'SELECT txid_current()', 'assigns a transaction id'],
  ['other-statement', 'SHOW search_path', 'SHOW'],
  ['other-statement', 'TABLE customers', 'TABLE parses as a SELECT but is not allowed'],
  ['other-statement', 'VALUES (1)', 'VALUES parses as a SELECT but is not allowed'],
  ['other-statement', 'DO $$ BEGIN DELETE FROM orders; END $$', 'anonymous code block'],
  ['other-statement', 'CREATE TABLE stolen AS SELECT * FROM customers', 'CREATE TABLE AS'],
  ['other-statement', 'SET search_path = evil', 'SET'],
  ['other-statement', 'PREPARE p AS DELETE FROM orders', 'PREPARE'],
  ['other-statement', 'DECLARE c CURSOR FOR SELECT 1', 'DECLARE CURSOR'],
  ['other-statement', 'LOCK TABLE orders', 'LOCK'],
  ['other-statement', 'CALL some_procedure()', 'CALL'],
  ['other-statement', 'DELETE FROM orders', 'plain DELETE'],
  ['other-statement', "UPDATE customers SET name = 'pwned'", 'plain UPDATE'],
  ['other-statement', "ALTER SYSTEM SET log_statement = 'all'", 'ALTER SYSTEM'],
  ['other-statement', 'GRANT ALL ON orders TO PUBLIC', 'GRANT'],
  ['other-statement', 'RESET ALL', 'RESET'],
  ['other-statement', 'LISTEN guard', 'LISTEN'],
  ['other-statement', '(TABLE customers)', 'TABLE in parentheses'],
  ['malformed', '', 'empty'],
  ['malformed', '   -- only a comment', 'comment only'],
  ['malformed', 'SELEC 1', 'syntax error'],
  ['malformed', 'SELECT 1\u0000; DELETE FROM orders', 'NUL byte (C parsers stop at it)'],
  ['malformed', ';', 'a lone separator'],
]);

const POSTGRES_READS = reads('postgres', [
  ['SELECT id, name FROM customers ORDER BY id', 'plain select'],
  ['SELECT id, customer_id, total, sum(total) OVER (PARTITION BY customer_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM orders', 'window frame'],
  ['WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT sum(i) FROM n', 'recursive CTE'],
  ['SELECT c.name, o.total FROM customers c CROSS JOIN LATERAL (SELECT total FROM orders WHERE customer_id = c.id ORDER BY total DESC LIMIT 1) o', 'LATERAL'],
  ['EXPLAIN SELECT * FROM orders WHERE total > 10', 'EXPLAIN'],
  ['EXPLAIN (FORMAT JSON, COSTS false) SELECT count(*) FROM customers', 'EXPLAIN with options'],
  ["SELECT 'delete from orders; -- not a comment' AS s, name FROM customers WHERE name <> 'drop table'", 'keywords, ; and -- in strings'],
  ['SELECT id AS "delete", name AS "a;b--c" FROM customers', 'keywords, ; and -- in identifiers'],
  ["SELECT $$it's; DELETE FROM orders$$ AS s, $tag$ -- $tag$ AS t", 'dollar-quoted strings'],
  ["SELECT E'tab\\there' AS s, E'it\\'s' AS t", 'escape strings'],
  ['/* report */ SELECT count(*) -- total\nFROM orders', 'comments'],
  ['(SELECT id FROM customers) UNION ALL (SELECT customer_id FROM orders) ORDER BY 1', 'parenthesised UNION'],
  ["SELECT status, count(*) FILTER (WHERE total > 50) AS big FROM orders GROUP BY status", 'aggregate FILTER'],
  ["SELECT date_trunc('month', created_at) AS month, sum(total) FROM orders GROUP BY 1 ORDER BY 1", 'date_trunc'],
  ["SELECT email FROM customers WHERE email ~ '^[^@]+@\\w+'", 'regular expression with a backslash'],
  ["SELECT current_setting('TimeZone') AS tz", 'reading a setting'],
  ['SELECT c.id, (SELECT max(total) FROM orders o WHERE o.customer_id = c.id) AS top FROM customers c', 'correlated subquery'],
  ['SELECT * FROM generate_series(1, 3) AS g(i)', 'set-returning function'],
  ['SELECT last_value FROM order_seq', 'reading a sequence without advancing it'],
  ["SELECT jsonb_build_object('id', id, 'name', name) AS doc FROM customers", 'jsonb'],
  ['SELECT lower(name) AS lo_name, name AS "update", pg_catalog.upper(country) FROM customers', 'lo_ alias, qualified function'],
  ['SELECT DISTINCT ON (customer_id) customer_id, total FROM orders ORDER BY customer_id, total DESC', 'DISTINCT ON'],
  ['WITH t AS MATERIALIZED (SELECT * FROM orders) SELECT count(*) FROM t', 'MATERIALIZED CTE'],
  ['SELECT o.status, percentile_cont(0.5) WITHIN GROUP (ORDER BY o.total) FROM orders o GROUP BY ROLLUP (o.status)', 'ordered-set aggregate, ROLLUP'],
  ['SELECT c.* FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) LIMIT 5 OFFSET 1', 'EXISTS, LIMIT/OFFSET'],
]);

// ---- DuckDB ----------------------------------------------------------------------------------

const DUCKDB_ATTACKS = attacks('duckdb', [
  ['file-network', "SELECT * FROM read_csv('/etc/passwd')", 'reads a local file'],
  ['file-network', `SELECT * FROM read_csv_auto('${SCRATCH}/x.csv')`, 'read_csv_auto'],
  ['file-network', "SELECT * FROM '/etc/passwd'", 'a file path as a table'],
  ['file-network', "FROM 'https://example.com/data.csv'", 'a URL as a table'],
  ['file-network', 'SELECT * FROM "data.csv"', 'a quoted file name as a table (replacement scan)'],
  ['file-network', "SELECT * FROM read_parquet('s3://bucket/x.parquet')", 'object storage'],
  ['file-network', "SELECT * FROM read_json('/etc/hosts')", 'read_json'],
  ['file-network', "SELECT * FROM read_text('/etc/passwd')", 'read_text'],
  ['file-network', "SELECT * FROM read_blob('/etc/passwd')", 'read_blob'],
  ['file-network', "SELECT * FROM glob('/etc/*')", 'lists files'],
  ['file-network', "SELECT * FROM parquet_metadata('x.parquet')", 'parquet metadata'],
  ['file-network', "SELECT sniff_csv('/etc/passwd')", 'sniff_csv'],
  ['file-network', "SELECT * FROM sqlite_scan('/tmp/x.db', 't')", 'a *_scan function'],
  ['file-network', "SELECT getenv('HOME')", 'environment variables'],
  ['file-network', "SELECT c.name FROM customers c, read_csv('/etc/passwd') p", 'file read joined to a real table'],
  ['file-network', "WITH f AS (FROM read_csv('/etc/passwd')) SELECT * FROM f", 'file read in a CTE'],
  ['file-network', "SELECT * FROM (SELECT * FROM READ_CSV('/etc/passwd'))", 'upper case, in a subquery'],
  ['file-network', "SELECT current_setting('s3_secret_access_key')", 'credentials kept in settings'],
  ['file-network', 'SELECT * FROM duckdb_secrets()', 'secrets'],
  ['file-network', 'SELECT * FROM duckdb_settings()', 'settings table'],
  ['extension', 'INSTALL httpfs', 'INSTALL'],
  ['extension', 'LOAD httpfs', 'LOAD'],
  ['extension', `ATTACH '${SCRATCH}/evil.duckdb' AS evil`, 'ATTACH another database file'],
  ['extension', `COPY customers TO '${SCRATCH}/out.csv'`, 'COPY TO a file'],
  ['extension', `COPY (SELECT * FROM customers) TO '${SCRATCH}/out.parquet' (FORMAT parquet)`, 'COPY a query'],
  ['extension', `EXPORT DATABASE '${SCRATCH}/export'`, 'EXPORT DATABASE'],
  ['session-state', 'SET enable_external_access = true', 'SET'],
  ['session-state', 'PRAGMA disable_checkpoint_on_shutdown', 'PRAGMA'],
  ['session-state', 'SET VARIABLE x = 1', 'SET VARIABLE'],
  ['session-state', 'RESET access_mode', 'RESET'],
  ['sql-in-string', "SELECT * FROM query('SELECT * FROM customers')", 'query() runs SQL given as a string'],
  ['sql-in-string', "SELECT * FROM query_table('customers')", 'query_table()'],
  ['sql-in-string', "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", 'runs a serialized statement'],
  ['sequence', "SELECT nextval('order_seq')", 'advances a sequence'],
  ['stacked', 'SELECT 1; DELETE FROM orders', 'two statements'],
  ['stacked', 'SELECT 1 /* ; */; DROP TABLE orders', 'separator after a comment'],
  ['stacked', 'SELECT $$a$$; CREATE TABLE evil AS SELECT 1', 'dollar quotes'],
  ['stacked', "SELECT 'x' -- ;\n; DELETE FROM orders", 'separator after a line comment'],
  ['data-modifying-cte', 'WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', 'CTE write'],
  ['select-into', 'SELECT * INTO evil FROM customers', 'SELECT INTO'],
  ['locking', 'SELECT * FROM orders FOR UPDATE', 'FOR UPDATE'],
  ['explain-analyze', 'EXPLAIN ANALYZE SELECT * FROM orders', 'runs the statement'],
  ['explain-analyze', 'EXPLAIN ANALYZE DELETE FROM orders', 'EXPLAIN ANALYZE of a DELETE'],
  ['explain-analyze', 'EXPLAIN DELETE FROM orders', 'EXPLAIN of a DELETE'],
  ['explain-analyze', 'EXPLAIN (FORMAT json) SELECT 1', 'EXPLAIN options are refused'],
  ['other-statement', 'DESCRIBE customers', 'DESCRIBE parses as a SELECT but is not allowed'],
  ['other-statement', 'SHOW TABLES', 'SHOW'],
  ['other-statement', 'SUMMARIZE customers', 'SUMMARIZE'],
  ['other-statement', 'VALUES (1)', 'VALUES'],
  ['other-statement', "CALL read_csv('/etc/passwd')", 'CALL of a table function'],
  ['other-statement', "INSERT INTO customers VALUES (999, 'x', 'x', 'x')", 'INSERT'],
  ['other-statement', 'UPDATE orders SET total = 0', 'UPDATE'],
  ['other-statement', 'DELETE FROM orders', 'DELETE'],
  ['other-statement', 'DROP TABLE orders', 'DROP'],
  ['other-statement', 'CREATE TABLE evil AS SELECT 1', 'CREATE TABLE AS'],
  ['other-statement', 'CHECKPOINT', 'CHECKPOINT'],
  ['other-statement', 'BEGIN TRANSACTION', 'BEGIN'],
  ['malformed', '', 'empty'],
  ['malformed', 'SELECT FROM WHERE', 'syntax error'],
  ['malformed', '/* unterminated', 'unterminated comment'],
]);

const DUCKDB_READS = reads('duckdb', [
  ['FROM customers', 'FROM-first'],
  ['FROM orders SELECT status, sum(total) AS total GROUP BY ALL', 'FROM-first with GROUP BY ALL'],
  ["SELECT * FROM (SELECT customer_id, status, total FROM orders) PIVOT (sum(total) FOR status IN ('paid', 'open'))", 'PIVOT'],
  ['SELECT id, customer_id, total FROM orders QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY total DESC) = 1', 'QUALIFY'],
  ['EXPLAIN SELECT * FROM orders', 'EXPLAIN'],
  ['WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT sum(i) FROM n', 'recursive CTE'],
  ['SELECT * FROM range(5) r(i)', 'range()'],
  ['SELECT list_transform([1, 2, 3], x -> x * 2) AS doubled', 'lambda'],
  ["SELECT 'delete from orders; --' AS s, name AS \"a;b\" FROM customers", 'keywords, ; and -- in quotes'],
  ["SELECT $$it's; DROP TABLE orders$$ AS s", 'dollar-quoted string'],
  ['SELECT c.name, m.top FROM customers c, LATERAL (SELECT max(total) AS top FROM orders o WHERE o.customer_id = c.id) m', 'LATERAL'],
  ['SELECT table_name FROM duckdb_tables() ORDER BY 1', 'catalog table function'],
  ['SELECT * EXCLUDE (email) FROM customers', 'EXCLUDE'],
  ['SELECT unnest([1, 2, 3]) AS v', 'unnest'],
  ["SELECT date_trunc('month', created_at) AS month, count(*) FROM orders GROUP BY 1 ORDER BY 1", 'date_trunc'],
  ['(SELECT 1 AS x) UNION ALL (SELECT 2)', 'parenthesised UNION'],
  ['/* report */ SELECT count(*) -- total\nFROM orders', 'comments'],
  ['SELECT name, total FROM customers JOIN orders ON orders.customer_id = customers.id WHERE status = \'paid\' ORDER BY total DESC LIMIT 3', 'join'],
]);

// ---- MySQL / MariaDB -------------------------------------------------------------------------

const MYSQL_ATTACKS = attacks('mysql', [
  ['executable-comment', `SELECT 1 /*!50000 INTO OUTFILE '${SCRATCH}/mc.txt' */`, 'MariaDB executed the hidden INTO OUTFILE (measured)'],
  ['executable-comment', 'SELECT /*!32302 1, SLEEP(3) */', 'versioned executable comment'],
  ['executable-comment', 'SELECT 1 /*M!100100 , SLEEP(3) */', 'MariaDB-only executable comment'],
  ['executable-comment', "SELECT /*+ SET_VAR(sql_mode = '') */ * FROM customers", 'optimizer hint'],
  ['executable-comment', 'SELECT * FROM customers /*!; DELETE FROM orders */', 'separator inside an executable comment'],
  ['executable-comment', 'SELECT 1 /*!*/', 'empty executable comment'],
  ['stacked', 'SELECT 1; DELETE FROM orders', 'two statements'],
  ['stacked', "SELECT 'a\\'; DELETE FROM orders; -- '", 'backslash-escaped quote hides a separator'],
  ['stacked', 'SELECT "x\\"; DROP TABLE orders; -- "', 'same in double quotes'],
  ['stacked', 'SELECT 1 # ;\n; DELETE FROM orders', 'hash comment'],
  ['stacked', 'SELECT 1 --x\n; DELETE FROM orders', '-- without a space is not a comment in MySQL'],
  ['stacked', 'SELECT `a;b` FROM customers; DELETE FROM orders', 'separator after a backtick identifier'],
  ['stacked', 'SELECT 1 -- ;\n; TRUNCATE orders', 'separator after a line comment'],
  ['parser-differential', `SELECT 'x\\\\\\' INTO OUTFILE '${SCRATCH}/nbe.txt' -- '`, 'one string with backslash escapes, INTO OUTFILE under NO_BACKSLASH_ESCAPES'],
  ['parser-differential', 'SELECT 1,\u00a0SLEEP(3)', 'non-breaking space before a denied function'],
  ['parser-differential', 'SELECT 1 /* unterminated', 'unterminated comment'],
  ['parser-differential', 'SELECT 1 /* /* */ , SLEEP(3) */', 'nested comment'],
  ['select-into', `SELECT * FROM customers INTO OUTFILE '${SCRATCH}/out.txt'`, 'INTO OUTFILE (not stopped by READ ONLY)'],
  ['select-into', `SELECT name FROM customers LIMIT 1 INTO DUMPFILE '${SCRATCH}/dump.bin'`, 'INTO DUMPFILE'],
  ['select-into', 'SELECT id INTO @stolen FROM customers LIMIT 1', 'INTO @var (survives ROLLBACK)'],
  ['select-into', `SELECT * INTO OUTFILE '${SCRATCH}/o2.txt' FROM customers`, 'INTO before FROM'],
  ['select-into', 'SELECT id FROM customers LIMIT 1 INTO @x', 'trailing INTO @var'],
  ['locking', 'SELECT * FROM orders FOR UPDATE', 'FOR UPDATE'],
  ['locking', 'SELECT * FROM orders LOCK IN SHARE MODE', 'LOCK IN SHARE MODE (not stopped by READ ONLY)'],
  ['locking', 'SELECT * FROM orders FOR SHARE', 'FOR SHARE'],
  ['locking', 'SELECT * FROM orders FOR UPDATE SKIP LOCKED', 'SKIP LOCKED'],
  ['sleep', 'SELECT SLEEP(3)', 'SLEEP'],
  ['sleep', "SELECT BENCHMARK(100000000, MD5('x'))", 'BENCHMARK'],
  ['sleep', 'SELECT `sleep`(3)', 'backtick-quoted name calls the built-in (measured)'],
  ['sleep', 'SELECT sleep /* x */ (3)', 'comment between name and parenthesis'],
  ['sleep', 'SELECT * FROM customers WHERE SLEEP(1) = 0', 'per row'],
  ['advisory-lock', "SELECT GET_LOCK('guard_lock', 0)", 'named locks survive ROLLBACK'],
  ['advisory-lock', "SELECT IS_USED_LOCK('guard_lock')", 'probes locks'],
  ['advisory-lock', 'SELECT RELEASE_ALL_LOCKS()', 'releases locks'],
  ['server-file', "SELECT LOAD_FILE('/etc/passwd')", 'reads a server file (FILE privilege)'],
  ['server-file', 'SELECT load_file(0x2f6574632f706173737764)', 'hex file name'],
  ['server-file', "LOAD DATA INFILE '/etc/passwd' INTO TABLE customers", 'LOAD DATA'],
  ['session-state', 'SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(3)', 'escaped the session limit (measured)'],
  ['session-state', 'SET @x = 1', 'SET a variable'],
  ['session-state', 'SELECT @pwn := 1', 'assignment inside SELECT'],
  ['session-state', "SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'", 'SET SESSION'],
  ['sequence', 'SELECT NEXT VALUE FOR order_seq', 'MariaDB sequence'],
  ['sequence', 'SELECT NEXTVAL(order_seq)', 'NEXTVAL'],
  ['sequence', 'SELECT LAST_INSERT_ID(42)', 'sets the session value'],
  ['other-statement', 'HANDLER customers OPEN', 'HANDLER'],
  ['other-statement', 'DO SLEEP(3)', 'DO'],
  ['other-statement', 'CALL mysql.some_procedure()', 'CALL'],
  ['other-statement', 'SHOW TABLES', 'SHOW'],
  ['other-statement', 'DESCRIBE customers', 'DESCRIBE'],
  ['other-statement', 'TABLE customers', 'TABLE'],
  ['other-statement', 'VALUES (1)', 'VALUES'],
  ['other-statement', 'WITH c AS (SELECT 1) DELETE FROM orders', 'WITH before DELETE (MySQL 8)'],
  ['other-statement', 'EXPLAIN DELETE FROM orders', 'EXPLAIN of a DELETE'],
  ['other-statement', 'EXPLAIN customers', 'EXPLAIN of a table is DESCRIBE'],
  ['other-statement', "INSERT INTO customers VALUES (999, 'x', 'x', 'x')", 'INSERT'],
  ['other-statement', "REPLACE INTO customers VALUES (1, 'x', 'x', 'x')", 'REPLACE'],
  ['other-statement', 'UPDATE orders SET total = 0', 'UPDATE'],
  ['other-statement', 'TRUNCATE orders', 'TRUNCATE'],
  ['other-statement', 'SELECT 1 PROCEDURE ANALYSE()', 'PROCEDURE clause'],
  ['other-statement', '(SELECT 1) UNION (SELECT 2) INTO @x', 'INTO after a UNION'],
  ['explain-analyze', 'EXPLAIN ANALYZE SELECT * FROM orders', 'MySQL 8 runs it'],
  ['explain-analyze', 'ANALYZE SELECT * FROM orders', 'MariaDB runs it'],
  ['explain-analyze', 'ANALYZE FORMAT=JSON DELETE FROM orders', 'MariaDB ANALYZE of a DELETE'],
  ['malformed', '', 'empty'],
  ['malformed', '# only a comment', 'comment only'],
  ['malformed', "SELECT 'unterminated", 'unterminated string'],
]);

const MYSQL_READS = reads('mysql', [
  ['SELECT `id`, `name` FROM `customers` ORDER BY `id` LIMIT 5, 10', 'backticks, LIMIT offset, count'],
  ['SELECT id, SUM(total) OVER (PARTITION BY customer_id ORDER BY id) AS running FROM orders', 'window function'],
  ['WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT SUM(i) FROM n', 'recursive CTE'],
  ['EXPLAIN SELECT * FROM orders WHERE total > 10', 'EXPLAIN'],
  ['EXPLAIN FORMAT=JSON SELECT * FROM orders', 'EXPLAIN FORMAT=JSON'],
  ["SELECT 'delete from orders; -- x' AS s, name FROM customers", 'keywords, ; and -- in a string'],
  ["SELECT 'it''s' AS s, \"double; quoted\" AS d", 'doubled quote, double-quoted string'],
  ['SELECT CAST(name AS CHAR CHARACTER SET utf8mb4) AS n FROM customers', 'CHARACTER SET'],
  ["SELECT REPLACE(name, 'a', 'b') AS r, INSERT(name, 1, 1, 'X') AS i FROM customers", 'REPLACE() and INSERT() string functions'],
  ['SELECT SQL_NO_CACHE * FROM orders USE INDEX (PRIMARY)', 'modifiers and index hints'],
  ["SELECT DATE_FORMAT(created_at, '%Y-%m') AS m, COUNT(*) AS n FROM orders GROUP BY m WITH ROLLUP", 'WITH ROLLUP'],
  ["SELECT c.name, o.total FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status IN ('paid') ORDER BY o.total DESC LIMIT 3", 'join'],
  ['(SELECT id FROM customers) UNION (SELECT customer_id FROM orders) ORDER BY 1', 'parenthesised UNION'],
  ["SELECT GROUP_CONCAT(DISTINCT status ORDER BY status SEPARATOR ',') AS s FROM orders", 'GROUP_CONCAT'],
  ['/* report */ SELECT COUNT(*) FROM orders # trailing\n', 'comments'],
  ["SELECT id FROM orders WHERE status REGEXP '^p' -- comment", 'REGEXP and a -- comment'],
  ['SELECT `update`.id FROM customers AS `update`', 'keyword as a quoted alias'],
  ["SELECT JSON_OBJECT('id', id) AS doc FROM customers", 'JSON'],
  ['SELECT LAG(total) OVER w AS prev FROM orders WINDOW w AS (ORDER BY id)', 'named window'],
  ["SELECT 'C:\\\\path' AS p, 'a\\nb' AS q", 'backslash escapes other than a quote'],
]);

// ---- Snowflake -------------------------------------------------------------------------------

const SNOWFLAKE_ATTACKS = attacks('snowflake', [
  ['procedure', 'WITH p AS PROCEDURE () RETURNS INT LANGUAGE SQL AS $$ BEGIN DELETE FROM orders; RETURN 1; END $$ CALL p()', 'anonymous procedure starts with WITH'],
  ['procedure', "WITH p AS PROCEDURE () RETURNS STRING LANGUAGE PYTHON RUNTIME_VERSION = '3.11' PACKAGES = ('snowflake-snowpark-python') HANDLER = 'run' AS 'def run(s): return 1' CALL p()", 'Python anonymous procedure'],
  ['procedure', 'CALL cleanup()', 'CALL'],
  ['procedure', "EXECUTE IMMEDIATE 'DELETE FROM orders'", 'EXECUTE IMMEDIATE'],
  ['procedure', 'EXECUTE IMMEDIATE $$ DROP TABLE orders $$', 'EXECUTE IMMEDIATE with $$'],
  ['procedure', 'BEGIN DELETE FROM orders; END', 'scripting block'],
  ['procedure', 'DECLARE x INT; BEGIN RETURN 1; END', 'DECLARE block'],
  ['procedure', 'EXECUTE TASK nightly', 'EXECUTE TASK'],
  ['procedure', 'SELECT SYSTEM$WAIT(10)', 'SYSTEM$ function'],
  ['procedure', 'SELECT "SYSTEM$WAIT"(10)', 'quoted SYSTEM$ name'],
  ['procedure', 'SELECT system$cancel_all_queries(1)', 'lower-case SYSTEM$'],
  ['procedure', "SELECT SYSTEM$SEND_EMAIL('int', 'a@b.c', 's', 'b')", 'sends mail'],
  ['stage', 'SELECT $1 FROM @my_stage/data.csv', 'reads a stage'],
  ['stage', "PUT file:///etc/passwd @~", 'PUT'],
  ['stage', 'GET @~/x file:///tmp/', 'GET'],
  ['stage', 'COPY INTO @my_stage FROM orders', 'unloads to a stage'],
  ['stage', 'COPY INTO orders FROM @my_stage', 'loads from a stage'],
  ['stage', "SELECT * FROM TABLE(INFER_SCHEMA(LOCATION => '@s', FILE_FORMAT => 'f'))", 'INFER_SCHEMA'],
  ['stage', 'LIST @~', 'LIST'],
  ['stage', "SELECT GET_PRESIGNED_URL('s', 'x')", 'stage URL'],
  ['stage', 'REMOVE @~', 'REMOVE'],
  ['stacked', 'SELECT 1; DROP TABLE orders', 'two statements'],
  ['stacked', 'SELECT $$;$$; DELETE FROM orders', 'separator after $$'],
  ['stacked', 'SELECT 1 // ;\n; DELETE FROM orders', '// comment'],
  ['stacked', "SELECT 'a\\'; DELETE FROM orders; -- '", 'backslash-escaped quote'],
  ['stacked', 'SHOW TABLES ->> SELECT * FROM $1', 'flow operator'],
  ['stacked', 'SELECT 1 ->> DELETE FROM orders', 'flow operator after a SELECT'],
  ['other-statement', 'SHOW TABLES', 'SHOW'],
  ['other-statement', 'DESCRIBE TABLE orders', 'DESCRIBE'],
  ['other-statement', 'CREATE TABLE x AS SELECT 1', 'CTAS'],
  ['other-statement', 'INSERT INTO orders SELECT * FROM orders', 'INSERT'],
  ['other-statement', 'MERGE INTO orders USING x ON 1 = 1 WHEN MATCHED THEN DELETE', 'MERGE'],
  ['other-statement', 'SET x = 1', 'SET'],
  ['other-statement', 'USE ROLE ACCOUNTADMIN', 'USE ROLE'],
  ['other-statement', 'ALTER SESSION SET STATEMENT_TIMEOUT_IN_SECONDS = 0', 'ALTER SESSION'],
  ['other-statement', 'EXPLAIN DELETE FROM orders', 'EXPLAIN of a DELETE'],
  ['select-into', 'SELECT id INTO :v FROM orders', 'INTO a variable'],
  ['locking', 'SELECT * FROM orders FOR UPDATE', 'FOR UPDATE (hybrid tables)'],
  ['sql-in-string', 'SELECT * FROM TABLE(RESULT_SCAN(LAST_QUERY_ID()))', 'RESULT_SCAN reads earlier results'],
  ['sequence', 'SELECT order_seq.NEXTVAL', 'advances a sequence'],
  ['malformed', '', 'empty'],
  ['malformed', "SELECT 'unterminated", 'unterminated string'],
  ['malformed', 'SELECT $$ unterminated', 'unterminated $$'],
]);

const SNOWFLAKE_READS = reads('snowflake', [
  ['SELECT id, total FROM orders QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY total DESC) = 1', 'QUALIFY'],
  ['SELECT f.value::string AS tag FROM customers c, LATERAL FLATTEN(input => c.tags) f', 'LATERAL FLATTEN'],
  ["SELECT * FROM TABLE(FLATTEN(input => PARSE_JSON('[1, 2]')))", 'TABLE(FLATTEN())'],
  ['EXPLAIN USING TEXT SELECT * FROM orders', 'EXPLAIN USING'],
  ['WITH t AS (SELECT 1 AS x) SELECT x FROM t', 'WITH'],
  ["SELECT 'delete; -- x' AS s, $$ it's; DROP $$ AS d, \"a;b\" FROM customers // comment", 'keywords, ; and comments in quotes'],
  ["SELECT REPLACE(name, 'a', 'b'), INSERT(name, 1, 1, 'X') FROM customers", 'REPLACE() and INSERT() string functions'],
  ["SELECT GET(PARSE_JSON('[1]'), 0) AS first", 'GET() function'],
  ['SELECT id FROM orders AT(OFFSET => -60)', 'time travel'],
  ["SELECT IFF(total > 10, 'big', 'small') AS size FROM orders SAMPLE (10)", 'IFF, SAMPLE'],
]);

export const ATTACKS: readonly Attack[] = [...POSTGRES_ATTACKS, ...DUCKDB_ATTACKS, ...MYSQL_ATTACKS, ...SNOWFLAKE_ATTACKS];
export const READS: readonly Read[] = [...POSTGRES_READS, ...DUCKDB_READS, ...MYSQL_READS, ...SNOWFLAKE_READS];

export function attacksFor(engine: WarehouseEngine): Attack[] {
  return ATTACKS.filter((a) => a.engine === engine);
}

export function readsFor(engine: WarehouseEngine): Read[] {
  return READS.filter((r) => r.engine === engine);
}
