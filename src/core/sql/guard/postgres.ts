// PostgreSQL: PostgreSQL's own grammar (libpg-query, compiled to WASM) and a walk over the whole
// tree. Exactly one statement, a SELECT or an EXPLAIN (ANALYZE allowed) of a SELECT; no statement
// node anywhere below it (data-modifying CTEs), no INTO, no locking clause, no credential or
// statistics catalog (catalogs.ts), and no call of a function that changes state outside the
// statement: sessions, locks, files, large objects, other backends, other connections, sequences, or
// SQL given as a string. A function is also refused when named through column notation
// (`('/etc/passwd'::text).pg_read_file` calls pg_read_file).
//
// EXPLAIN ANALYZE runs the statement it explains. Of a SELECT that the walk below accepts, it runs
// nothing a plain SELECT would not, inside the same read-only transaction and time limit, so it is
// allowed; EXPLAIN ANALYZE of anything else (CREATE TABLE AS, SELECT INTO, a data-modifying WITH)
// is refused like the statement itself.
import { loadModule, parseSync, scanSync } from 'libpg-query';
import { POSTGRES_CATALOGS, refusedCatalog, SECRET_SETTINGS } from './catalogs.js';
import { REASONS, refuse } from './reasons.js';

let loaded: Promise<void> | undefined;

/** Loads the WASM parser once; later calls are free. */
export function loadPostgresParser(): Promise<void> {
  loaded ??= loadModule().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/** Denied function names, by prefix (lower case, schema ignored: `pg_catalog.pg_sleep` is pg_sleep). */
const DENIED_PREFIXES = [
  // sleeping and session state
  'pg_sleep',
  'set_config',
  'setseed',
  // advisory locks (they survive ROLLBACK)
  'pg_advisory_',
  'pg_try_advisory_',
  // server files
  'pg_read_',
  'pg_ls_',
  'pg_stat_file',
  'pg_file_',
  'pg_logdir_ls',
  'pg_current_logfile',
  'pg_hba_file_rules',
  'pg_ident_file_mappings',
  'pg_show_all_file_settings',
  // every setting with its value (the pg_settings view), superuser-only ones included
  'pg_show_all_settings',
  // large objects (lo_import / lo_export read and write server files; lo_from_bytea writes even
  // in a read-only transaction)
  'lo_',
  'loread',
  'lowrite',
  // other backends and the server
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_signal_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_switch_xlog',
  'pg_wal_replay_',
  'pg_xlog_replay_',
  'pg_backup_',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_create_',
  'pg_drop_',
  'pg_copy_',
  'pg_logical_',
  'pg_replication_',
  'pg_sync_replication_slots',
  'pg_export_snapshot',
  'pg_import_system_collations',
  'pg_log_backend_memory_contexts',
  'pg_log_standby_snapshot',
  'pg_stat_reset',
  'pg_stat_statements_reset',
  'pg_stat_force_next_flush',
  'pg_restore_',
  'pg_clear_',
  'pg_nextoid',
  'pg_truncate_visibility_map',
  'pg_prewarm',
  // raw pages of any relation, pg_authid included (pageinspect)
  'get_raw_page',
  'binary_upgrade_',
  'brin_summarize',
  'brin_desummarize',
  'gin_clean_pending_list',
  'pg_notify',
  // transaction ids and sequences
  'txid_current',
  'pg_current_xact_id',
  'nextval',
  'setval',
  // other connections and SQL given as a string
  'dblink',
  'postgres_fdw_',
  'query_to_xml',
  'cursor_to_xml',
  'table_to_xml',
  'schema_to_xml',
  'database_to_xml',
  'ts_stat',
  'ts_rewrite',
];

// Large-object functions by exact name, for column notation: `t.lo_unlink` calls lo_unlink(t), but a
// column named lo_value is harmless and must not be refused by the `lo_` prefix.
const LARGE_OBJECT_FUNCTIONS = new Set([
  'lo_import', 'lo_export', 'lo_from_bytea', 'lo_create', 'lo_creat', 'lo_unlink', 'lo_put', 'lo_get', 'lo_open',
  'lo_close', 'lo_truncate', 'lo_truncate64', 'lo_lseek', 'lo_lseek64', 'lo_tell', 'lo_tell64',
]);

/** True when `name` (any case, schema ignored) is a function the guard refuses. */
export function deniedPostgresFunction(name: string, columnNotation = false): boolean {
  const lower = name.toLowerCase();
  if (columnNotation && lower.startsWith('lo_')) return LARGE_OBJECT_FUNCTIONS.has(lower);
  return DENIED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

const STATEMENT_NAMES: Record<string, string> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
};

type Node = Record<string, unknown>;

export async function checkPostgres(sql: string): Promise<void> {
  await loadPostgresParser();
  checkTokens(sql);
  let tree: { stmts?: { stmt?: Node }[] };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch {
    refuse(REASONS.unparsable);
  }
  const stmts = tree.stmts ?? [];
  if (stmts.length === 0) refuse(REASONS.empty);
  if (stmts.length > 1) refuse(REASONS.severalStatements);
  const top = stmts[0]!.stmt ?? {};
  if ('ExplainStmt' in top) {
    // Options (ANALYZE, BUFFERS, FORMAT…) only change what is reported; the explained query is walked.
    const explain = top.ExplainStmt as { query?: Node };
    if (!explain.query || !('SelectStmt' in explain.query)) refuse(REASONS.explainOther);
    walk(explain.query, false);
    return;
  }
  if (!('SelectStmt' in top)) refuse(REASONS.statementKind, statementName(Object.keys(top)[0]));
  walk(top, false);
}

/**
 * Checks on the scanner's tokens: the first keyword (VALUES and TABLE parse as SELECT but are not
 * allowed), and plain string literals holding a backslash before a quote, whose end moves if the
 * server runs with standard_conforming_strings off.
 */
function checkTokens(sql: string): void {
  let tokens: { text: string; tokenName: string }[];
  try {
    tokens = scanSync(sql).tokens;
  } catch {
    refuse(REASONS.unparsable);
  }
  let first: string | undefined;
  for (const token of tokens) {
    if (token.tokenName === 'C_COMMENT' || token.tokenName === 'SQL_COMMENT') continue;
    if (first === undefined) {
      if (token.text === '(') continue;
      first = token.text.toLowerCase();
      if (first !== 'select' && first !== 'with' && first !== 'explain') {
        if (/^[a-z_]{1,30}$/.test(first)) refuse(REASONS.statementKind, first.toUpperCase());
        refuse(REASONS.notReadStart);
      }
    }
    if (token.tokenName === 'SCONST' && token.text.startsWith("'") && token.text.includes("\\'")) {
      refuse(REASONS.escapedQuote);
    }
  }
  if (first === undefined) refuse(REASONS.empty);
}

function statementName(key: string | undefined): string {
  if (!key) return 'empty';
  return STATEMENT_NAMES[key] ?? key.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
}

/** Visits every node below `node`; `inCte` tells whether a WITH clause encloses it. */
function walk(node: unknown, inCte: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, inCte);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key.endsWith('Stmt') && key !== 'SelectStmt') {
      refuse(inCte ? REASONS.writeInWith : REASONS.notAllowed, statementName(key));
    }
    switch (key) {
      case 'intoClause':
        refuse(REASONS.selectIntoTable);
        break;
      case 'lockingClause':
        if (Array.isArray(value) && value.length > 0) refuse(REASONS.locksRows, 'UPDATE/SHARE');
        break;
      case 'RangeVar':
        checkRelation(value as RangeVar);
        break;
      case 'FuncCall':
        checkNames((value as { funcname?: unknown }).funcname, false);
        checkSettingRead(value as FuncCall);
        break;
      case 'ColumnRef':
        checkNames((value as { fields?: unknown }).fields, true);
        break;
      case 'A_Indirection':
        checkNames((value as { indirection?: unknown }).indirection, true);
        break;
      case 'CommonTableExpr':
        walk(value, true);
        continue;
    }
    walk(value, inCte);
  }
}

/** Refuses when any String node of a name list is a denied function name. */
function checkNames(list: unknown, columnNotation: boolean): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    const name = (item as { String?: { sval?: unknown } })?.String?.sval;
    if (typeof name !== 'string') continue;
    if (deniedPostgresFunction(name, columnNotation)) refuse(REASONS.function, name.toLowerCase());
    // `('primary_conninfo'::text).current_setting` calls current_setting with a computed name.
    if (columnNotation && name.toLowerCase() === 'current_setting') refuse(REASONS.computedSetting);
  }
}

interface FuncCall {
  funcname?: { String?: { sval?: unknown } }[];
  args?: { A_Const?: { sval?: { sval?: unknown } } }[];
}

/**
 * current_setting() reads one setting: allowed for a name written as a literal, unless the setting
 * can hold a credential (primary_conninfo…), which a superuser connection would otherwise return.
 */
function checkSettingRead(call: FuncCall): void {
  const name = call.funcname?.at(-1)?.String?.sval;
  if (typeof name !== 'string' || name.toLowerCase() !== 'current_setting') return;
  const setting = call.args?.[0]?.A_Const?.sval?.sval;
  if (typeof setting !== 'string') refuse(REASONS.computedSetting);
  if (SECRET_SETTINGS.postgres.has(setting.toLowerCase())) refuse(REASONS.secretSetting, setting.toLowerCase());
}

interface RangeVar {
  schemaname?: string;
  relname?: string;
}

/** Refuses a credential or statistics catalog, however it is spelled (schema, quotes, case). */
function checkRelation(range: RangeVar): void {
  if (typeof range.relname !== 'string') return;
  const reason = refusedCatalog(POSTGRES_CATALOGS, range.schemaname, range.relname);
  if (reason) refuse(reason, range.relname.toLowerCase());
}
