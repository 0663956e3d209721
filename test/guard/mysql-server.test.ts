// The MySQL guard against a throwaway MariaDB whose default sql_mode is the worst case for it
// (NO_BACKSLASH_ESCAPES, ANSI_QUOTES, ORACLE): the driver must pin the session so that the server
// reads backslash escapes and "…" strings as the guard does, or a statement the guard reads as one
// string runs a call hidden after a backslash. On the same server, root reads the credential
// catalogs: each refused read is shown to return a secret without the guard, and the lookalike user
// tables stay readable. Last, the driver's watchdog bounds a statement that lifts the server's own
// time limit (what a MAX_EXECUTION_TIME hint does on MySQL 8).
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReadOnly, REASONS } from '../../src/core/sql/guard/index.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { isReason, refusalReason } from './refusals.js';
import { startThrowawayMariadb, whyNoThrowawayMariadb, type ThrowawayServer } from '../helpers/throwaway-servers.js';

const RUN = { maxRows: 100, timeoutMs: 10_000 };
const HOSTILE_MODE = 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES,ORACLE,STRICT_TRANS_TABLES,ONLY_FULL_GROUP_BY';

const noServer = whyNoThrowawayMariadb();
const title = 'MySQL guard on a MariaDB whose default sql_mode reads text differently';

describe.skipIf(noServer)(noServer ? `${title} (skipped: ${noServer})` : title, () => {
  let srv: ThrowawayServer;
  let admin: mysql.Connection;
  let warehouse: Warehouse;

  beforeAll(async () => {
    srv = await startThrowawayMariadb({ sqlMode: HOSTILE_MODE });
    admin = await mysql.createConnection(srv.url('mysql'));
    // The admin session reads text the hostile way: no backslashes and no double quotes below.
    for (const statement of [
      'CREATE DATABASE shop',
      'CREATE TABLE shop.orders (id INT PRIMARY KEY, total DECIMAL(10,2))',
      'INSERT INTO shop.orders VALUES (1, 10.50), (2, 3.25)',
      'CREATE TABLE shop.user (id INT PRIMARY KEY, name VARCHAR(50), password_hash VARCHAR(100))',
      "INSERT INTO shop.user VALUES (1, 'ada', 'not-a-real-hash')",
      'CREATE TABLE shop.servers (id INT PRIMARY KEY, host VARCHAR(50))',
      "INSERT INTO shop.servers VALUES (1, 'db.example.com')",
      "CREATE USER 'guard_alice'@'%' IDENTIFIED BY 'alice-password'",
      "CREATE SERVER guard_srv FOREIGN DATA WRAPPER mysql OPTIONS (USER 'remote', PASSWORD 'server-secret', HOST 'remote.example.com', DATABASE 'd')",
      'ANALYZE TABLE mysql.servers PERSISTENT FOR ALL',
    ]) {
      await admin.query(statement);
    }
    warehouse = openWarehouse({ engine: 'mysql', host: '127.0.0.1', port: srv.port, database: 'shop', user: 'root' }, { maxConnections: 1 });
  }, 60_000);

  afterAll(async () => {
    await warehouse?.close();
    await admin?.end();
    await srv?.stop();
  });

  it('starts from a server whose sessions default to the hostile mode', async () => {
    const [rows] = await admin.query('SELECT @@SESSION.sql_mode AS mode');
    expect((rows as { mode: string }[])[0]!.mode).toMatch(/NO_BACKSLASH_ESCAPES.*|ANSI_QUOTES/);
  });

  it('reads a backslash-escaped quote as the guard does: one string, nothing hidden after it runs', async () => {
    // The guard reads one string; with NO_BACKSLASH_ESCAPES the string would end at the backslash
    // and SLEEP(2) would run as a second column.
    const sql = "SELECT 'x\\' , SLEEP(2) AS hidden -- ' AS s";
    await assertReadOnly('mysql', sql);
    const started = performance.now();
    const result = await warehouse.run(sql, [], RUN);
    expect(result.columns.map((c) => c.name)).toEqual(['s']);
    expect(result.rows).toEqual([{ s: "x' , SLEEP(2) AS hidden -- " }]);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('reads "…" as a string and keeps the meaning-only flags of the server default', async () => {
    const result = await warehouse.run(
      'SELECT "a;b" AS s, \'it\\\'s\' AS t, @@SESSION.sql_mode AS mode, @@SESSION.character_set_client AS cs',
      [],
      RUN,
    );
    const row = result.rows[0]!;
    expect(row.s).toBe('a;b');
    expect(row.t).toBe("it's");
    expect(String(row.mode).split(',')).toEqual(expect.arrayContaining(['STRICT_TRANS_TABLES', 'ONLY_FULL_GROUP_BY']));
    expect(String(row.mode)).not.toMatch(/NO_BACKSLASH_ESCAPES|ANSI_QUOTES|ORACLE|ANSI\b/);
    expect(row.cs).toBe('utf8mb4');
  });

  it('runs the guard-accepted reads with backslashes and optimizer hints', async () => {
    for (const sql of [
      "SELECT 'a\\'; DELETE FROM orders; -- ' AS s",
      'SELECT /*+ MAX_EXECUTION_TIME(1000) BKA(o) */ COUNT(*) AS n FROM orders o',
      'SELECT id, name FROM user',
      'SELECT u.name FROM `user` AS u JOIN servers s ON s.id = u.id',
    ]) {
      await assertReadOnly('mysql', sql);
      const result = await warehouse.run(sql, [], RUN);
      expect(result.rowCount, sql).toBeGreaterThan(0);
    }
    const [orders] = await admin.query('SELECT COUNT(*) AS n FROM shop.orders');
    expect((orders as { n: number }[])[0]!.n).toBe(2);
  });

  // [statement, the secret it returns when run without the guard]
  const leaks: [string, RegExp][] = [
    ["SELECT authentication_string FROM mysql.user WHERE User = 'guard_alice'", /\*[0-9A-F]{40}/],
    ['SELECT Priv FROM `mysql`.`global_priv`', /\*[0-9A-F]{40}/],
    ['SELECT Password FROM mysql . servers', /server-secret/],
    ["SELECT CAST(max_value AS CHAR) AS v FROM mysql.column_stats WHERE table_name = 'servers'", /server-secret/],
    ['WITH u AS (SELECT authentication_string AS h FROM mysql.user) SELECT * FROM u', /\*[0-9A-F]{40}/],
    ['SELECT (SELECT Password FROM mysql.servers LIMIT 1) AS p', /server-secret/],
  ];

  it.each(leaks)('returns a secret without the guard, and the guard refuses it: %s', async (sql, secret) => {
    const result = await warehouse.run(sql, [], RUN);
    expect(JSON.stringify(result.rows)).toMatch(secret);
    const reason = await refusalReason('mysql', sql);
    expect(isReason(reason, REASONS.credentialCatalog, REASONS.statisticsCatalog), `${sql}: ${reason}`).toBe(true);
  });

  it('bounds a statement that lifts the server time limit with the client watchdog', async () => {
    // SET STATEMENT (refused by the guard) stands in for MySQL 8's MAX_EXECUTION_TIME hint: both
    // replace the session limit for one statement. The watchdog stops it a second after the limit.
    const started = performance.now();
    const error = await warehouse.run('SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(6) AS s', [], { maxRows: 1, timeoutMs: 500 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const elapsed = performance.now() - started;
    expect(error?.message).toMatch(/500 ms/);
    expect(elapsed).toBeLessThan(3000);
    const after = await warehouse.run('SELECT 1 AS one', [], RUN);
    expect(after.rows).toEqual([{ one: 1 }]);
  });
});
