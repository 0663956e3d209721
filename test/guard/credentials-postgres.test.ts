// The credential catalogs on a real PostgreSQL, through a superuser connection (the case the guard's
// catalog refusals defend): a throwaway server holds roles with passwords, a user mapping with a
// password, a subscription whose connection string has one, a primary_conninfo with one, and
// statistics over all of them. Each refused read is shown to return the secret when the driver runs
// it without the guard (so the refusal is needed), and to be refused by the guard; the similarly
// named reads that stay allowed run through guard and driver and return no secret. Then two checks
// over the server's own catalogs keep the guard's lists in step with the PostgreSQL version.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deniedPostgresFunction } from '../../src/core/sql/guard/postgres.js';
import { assertReadOnly, REASONS } from '../../src/core/sql/guard/index.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { isReason, refusalReason } from './refusals.js';
import { startThrowawayPostgres, whyNoThrowawayPostgres, type ThrowawayServer } from '../helpers/throwaway-servers.js';

const RUN = { maxRows: 100, timeoutMs: 10_000 };

const refusal = (sql: string) => refusalReason('postgres', sql);
const CATALOG_REASONS = [REASONS.credentialCatalog, REASONS.statisticsCatalog, REASONS.settingsCatalog, REASONS.viewOfRefused, REASONS.secretSetting];
const matchesCatalogReason = (reason: string | undefined) => isReason(reason, ...CATALOG_REASONS);

const noServer = whyNoThrowawayPostgres();
const title = 'credential catalogs on PostgreSQL (superuser connection, throwaway server)';

describe.skipIf(noServer)(noServer ? `${title} (skipped: ${noServer})` : title, () => {
  let srv: ThrowawayServer;
  let admin: pg.Client;
  let warehouse: Warehouse;

  beforeAll(async () => {
    srv = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: srv.url('postgres') });
    await admin.connect();
    for (const statement of [
      "create role guard_alice login password 'alice-password'",
      "create role guard_bob login password 'bob-password'",
      "create role guard_carol login password 'carol-password'",
      'analyze pg_authid',
      'create foreign data wrapper guard_fdw',
      'create server guard_srv foreign data wrapper guard_fdw',
      "create user mapping for postgres server guard_srv options (user 'remote', password 'mapping-secret')",
      "create subscription guard_sub connection 'host=127.0.0.1 port=1 dbname=x password=subscription-secret' publication p with (connect = false)",
      "alter system set primary_conninfo = 'host=primary user=replicator password=conninfo-secret'",
      'select pg_reload_conf()',
      'create table guard_pairs (a text, b text)',
      "insert into guard_pairs select 'stats-secret', 'x' from generate_series(1, 50)",
      'create statistics guard_mcv (mcv) on a, b from guard_pairs',
      'analyze guard_pairs',
      'create table accounts (id int primary key, login text, password_hash text)',
      "insert into accounts values (1, 'ada', 'not-a-real-hash')",
      'create schema app',
      "create table app.pg_shadow (id int, note text)",
      "insert into app.pg_shadow values (1, 'a user table')",
    ]) {
      await admin.query(statement);
    }
    // Reloading is asynchronous: wait until the setting is visible.
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query<{ s: string }>("select current_setting('primary_conninfo') as s");
      if (rows[0]?.s.includes('conninfo-secret')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    warehouse = openWarehouse({ engine: 'postgres', host: '127.0.0.1', port: srv.port, database: 'postgres', user: 'postgres' }, { maxConnections: 1 });
  }, 60_000);

  afterAll(async () => {
    await warehouse?.close();
    await admin?.query('alter subscription guard_sub disable').catch(() => undefined);
    await admin?.query('alter subscription guard_sub set (slot_name = none)').catch(() => undefined);
    await admin?.query('drop subscription guard_sub').catch(() => undefined);
    await admin?.end();
    await srv?.stop();
  });

  // [statement, the secret it returns when run without the guard]
  const leaks: [string, RegExp][] = [
    ["SELECT rolpassword FROM pg_authid WHERE rolname = 'guard_alice'", /SCRAM-SHA-256\$4096:/],
    ['SELECT passwd FROM pg_catalog.pg_shadow', /SCRAM-SHA-256\$4096:/],
    ['SELECT * FROM "pg_authid"', /SCRAM-SHA-256\$4096:/],
    ["SELECT histogram_bounds::text AS h FROM pg_stats WHERE tablename = 'pg_authid' AND attname = 'rolpassword'", /SCRAM-SHA-256\$4096:/],
    ["SELECT s::text AS s FROM pg_statistic s WHERE starelid = 'pg_authid'::regclass", /SCRAM-SHA-256\$4096:/],
    ['SELECT umoptions::text AS o FROM pg_user_mappings', /mapping-secret/],
    ['SELECT umoptions::text AS o FROM pg_user_mapping', /mapping-secret/],
    ['SELECT option_value FROM information_schema.user_mapping_options', /mapping-secret/],
    ['SELECT umoptions::text AS o FROM information_schema._pg_user_mappings', /mapping-secret/],
    ['SELECT subconninfo FROM pg_subscription', /subscription-secret/],
    ["SELECT setting FROM pg_settings WHERE name = 'primary_conninfo'", /conninfo-secret/],
    ["SELECT current_setting('primary_conninfo') AS c", /conninfo-secret/],
    ["SELECT current_setting('primary_' || 'conninfo') AS c", /conninfo-secret/],
    ["SELECT ('primary_conninfo'::text).current_setting AS c", /conninfo-secret/],
    ["SELECT setting FROM pg_file_settings WHERE name = 'primary_conninfo'", /conninfo-secret/],
    ["SELECT most_common_vals::text AS v FROM pg_stats_ext WHERE statistics_name = 'guard_mcv'", /stats-secret/],
    ['WITH r AS (SELECT rolpassword FROM pg_authid) SELECT * FROM r', /SCRAM-SHA-256\$4096:/],
    ['SELECT (SELECT passwd FROM pg_shadow WHERE passwd IS NOT NULL LIMIT 1) AS h', /SCRAM-SHA-256\$4096:/],
  ];

  it.each(leaks)('returns a secret without the guard, and the guard refuses it: %s', async (sql, secret) => {
    const result = await warehouse.run(sql, [], RUN);
    expect(JSON.stringify(result.rows)).toMatch(secret);
    const reason = await refusal(sql);
    expect(reason, sql).toBeDefined();
    expect(isReason(reason, ...CATALOG_REASONS, REASONS.computedSetting), `${sql}: ${reason}`).toBe(true);
  });

  // Reads that look alike and stay allowed: they run through guard and driver and show no secret.
  const allowed = [
    "SELECT rolname, rolpassword FROM pg_roles WHERE rolname LIKE 'guard_%'",
    "SELECT usename, passwd FROM pg_user WHERE usename LIKE 'guard_%'",
    'SELECT * FROM information_schema.user_mappings',
    'SELECT srvname, srvoptions FROM pg_foreign_server',
    "SELECT current_setting('work_mem') AS w",
    'SELECT login, password_hash FROM accounts',
    'SELECT * FROM app.pg_shadow',
    'SELECT count(*) FROM pg_stat_activity',
  ];

  it.each(allowed)('allows and runs %s, which shows no secret', async (sql) => {
    await assertReadOnly('postgres', sql);
    const result = await warehouse.run(sql, [], RUN);
    expect(result.columns.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.rows)).not.toMatch(/SCRAM-SHA-256|mapping-secret|subscription-secret|conninfo-secret/);
  });

  it('refuses every built-in view that calls a function the guard refuses', async () => {
    const { rows } = await admin.query<{ schema: string; name: string; definition: string }>(
      `select n.nspname as schema, c.relname as name, pg_get_viewdef(c.oid) as definition from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('v', 'm') and n.nspname in ('pg_catalog', 'information_schema')`,
    );
    const callsRefused = rows.filter((v) => [...v.definition.matchAll(/([a-z_][a-z0-9_]*)\(/g)].some((m) => deniedPostgresFunction(m[1]!)));
    expect(callsRefused.map((v) => v.name).sort()).toEqual(expect.arrayContaining(['pg_file_settings', 'pg_hba_file_rules', 'pg_settings']));
    for (const view of callsRefused) {
      expect(await refusal(`SELECT * FROM ${view.schema}.${view.name}`), `${view.schema}.${view.name}`).toBeDefined();
    }
  });

  it('refuses every built-in relation with a column that holds secrets, except the masked views', async () => {
    // Columns that hold password hashes, other servers' passwords, connection strings, setting values
    // or sample values of columns. pg_roles and pg_user show '********'; pg_stat_wal_receiver hides the
    // password of its conninfo.
    const masked = new Set(['pg_catalog.pg_roles', 'pg_catalog.pg_user', 'pg_catalog.pg_stat_wal_receiver']);
    const { rows } = await admin.query<{ relation: string }>(
      `select distinct n.nspname || '.' || c.relname as relation from pg_attribute a
       join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('pg_catalog', 'information_schema') and a.attnum > 0 and not a.attisdropped
         and (a.attname ~ '^(rolpassword|passwd|umoptions|subconninfo|conninfo|stavalues[0-9]|histogram_bounds|most_common_vals|most_common_elems|stxdmcv|stxdexpr)$'
              or (c.relname = 'user_mapping_options' and a.attname = 'option_value')
              or (c.relname in ('pg_settings', 'pg_file_settings') and a.attname = 'setting'))
       order by 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const { relation } of rows) {
      const reason = await refusal(`SELECT * FROM ${relation}`);
      if (masked.has(relation)) expect(reason, relation).toBeUndefined();
      else expect(matchesCatalogReason(reason), `${relation}: ${reason}`).toBe(true);
    }
  });
});
