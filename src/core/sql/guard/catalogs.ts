// Built-in catalogs a statement may not read, even though reading them is a plain SELECT: through a
// superuser or root connection they return password hashes, passwords for other servers, or column
// statistics that keep real values (password hashes among them). A least-privilege role cannot read
// them at all, so refusing them costs ordinary reads nothing; it is defence in depth for connections
// whose role is too strong, which the connection test reports. Also here: built-in views over
// functions the guard refuses, which would otherwise read through the view what the function name
// cannot.
//
// Names are compared in any case (a quoted "PG_AUTHID" is refused too: failing closed costs nothing).
// Views a user defines over these catalogs are not followed: the role is the boundary there.
import { type Reason, REASONS } from './reasons.js';

type CatalogList = ReadonlyMap<string, ReadonlyMap<string, Reason>>;

function catalog(reason: Reason, names: readonly string[]): [string, Reason][] {
  return names.map((name) => [name, reason]);
}

/** PostgreSQL, by schema. */
export const POSTGRES_CATALOGS: CatalogList = new Map([
  [
    'pg_catalog',
    new Map([
      // rolpassword / passwd: SCRAM or MD5 hashes. pg_roles and pg_user show '********' and stay readable.
      // User mappings' options hold the passwords used for other servers; a subscription's conninfo
      // holds the publisher's password.
      ...catalog(REASONS.credentialCatalog, ['pg_authid', 'pg_shadow', 'pg_user_mapping', 'pg_user_mappings', 'pg_subscription']),
      // Most common values and histogram bounds of every column, pg_authid.rolpassword included.
      ...catalog(REASONS.statisticsCatalog, ['pg_statistic', 'pg_stats', 'pg_statistic_ext_data', 'pg_stats_ext', 'pg_stats_ext_exprs']),
      // Every setting, superuser-only ones included (primary_conninfo can hold the primary's password).
      ...catalog(REASONS.settingsCatalog, ['pg_settings']),
      // Views over refused server-file functions (configuration files can hold passwords).
      ...catalog(REASONS.viewOfRefused, ['pg_file_settings', 'pg_hba_file_rules', 'pg_ident_file_mappings']),
    ]),
  ],
  ['information_schema', new Map(catalog(REASONS.credentialCatalog, ['user_mapping_options', '_pg_user_mappings']))],
]);

/** MySQL / MariaDB, by database. A name ending in `*` is a prefix (Spider's system tables). */
export const MYSQL_CATALOGS: CatalogList = new Map([
  [
    'mysql',
    new Map([
      // user and global_priv: password hashes; servers and Spider's tables: passwords for other servers;
      // password_history (MySQL) and password_reuse_check_history (MariaDB plugin): earlier hashes;
      // slave_master_info (MySQL): the replication password.
      ...catalog(REASONS.credentialCatalog, ['user', 'global_priv', 'servers', 'password_history', 'password_reuse_check_history', 'slave_master_info', 'spider_*']),
      // Engine-independent statistics: min/max values of analysed columns (mysql.servers' Password, measured).
      ...catalog(REASONS.statisticsCatalog, ['column_stats']),
    ]),
  ],
  [
    'information_schema',
    new Map([
      // MySQL 8 histograms of column values.
      ...catalog(REASONS.statisticsCatalog, ['column_statistics']),
      ...catalog(REASONS.settingsCatalog, ['global_variables', 'session_variables']),
    ]),
  ],
  ['performance_schema', new Map(catalog(REASONS.settingsCatalog, ['global_variables', 'session_variables', 'variables_by_thread', 'persisted_variables']))],
]);

/** DuckDB built-in views, in the schemas DuckDB keeps them in (main, pg_catalog) or unqualified. */
export const DUCKDB_CATALOGS: CatalogList = new Map([
  // pg_settings reads duckdb_settings() (settings can hold credentials: http_proxy_password…);
  // duckdb_logs reads duckdb_logs(). Both functions are refused by name.
  ['main', new Map(catalog(REASONS.viewOfRefused, ['duckdb_logs']))],
  ['pg_catalog', new Map(catalog(REASONS.settingsCatalog, ['pg_settings']))],
]);

/**
 * Settings whose value can be a credential (a connection string, a command line, a password), read
 * one at a time: PostgreSQL current_setting('…'), MySQL @@name. Lower case.
 */
export const SECRET_SETTINGS: Readonly<Record<'postgres' | 'mysql', ReadonlySet<string>>> = {
  postgres: new Set([
    'primary_conninfo',
    'ssl_passphrase_command',
    'archive_command',
    'archive_library',
    'archive_cleanup_command',
    'restore_command',
    'recovery_end_command',
  ]),
  mysql: new Set(['report_password', 'wsrep_sst_auth']),
};

/**
 * The reason a reference to `schema.name` is refused, if it is. `schema` undefined means the
 * statement did not qualify the name: then every listed schema counts, because the search path could
 * reach it (PostgreSQL, DuckDB). MySQL passes only qualified names: an unqualified name is in the
 * connection's own database, which a statement cannot change.
 */
export function refusedCatalog(list: CatalogList, schema: string | undefined, name: string): Reason | undefined {
  const table = name.toLowerCase();
  const schemas = schema === undefined ? [...list.keys()] : [schema.toLowerCase()];
  for (const s of schemas) {
    for (const [listed, reason] of list.get(s) ?? []) {
      if (listed === table || (listed.endsWith('*') && table.startsWith(listed.slice(0, -1)))) return reason;
    }
  }
  return undefined;
}
