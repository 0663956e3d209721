// DuckDB: DuckDB's own parser. An in-memory DuckDB, created once, hardened like the warehouse (no
// external access, no extension loading, configuration locked) and holding no data, turns the
// statement into its parse tree with json_serialize_sql(), which parses without binding or running
// anything and serializes SELECT statements only (anything else, FOR UPDATE included, comes back as
// an error). The tree is then walked: table functions must be on a short allowlist (range, unnest,
// the duckdb_* catalog…: no read_csv, glob, query or *_scan), scalar functions must not touch files,
// the network, settings, sequences or SQL given as a string, and a table named like a file or URL
// ('data.csv', 's3://…', which DuckDB would read through a replacement scan) is refused.
// Built-in views over refused functions (pg_settings reads duckdb_settings()) are refused by name.
// The warehouse itself opens files read-only with external access disabled: this is the first line.
//
// Statement forms: DuckDB reads FROM-first queries (`FROM t SELECT …`), `PIVOT t ON … USING …` and
// `UNPIVOT t ON …` as SELECT statements (its parser returns a SelectStatement, the serializer accepts
// them, the warehouse prepares them as SELECT), so they are allowed like SELECT. PIVOT without a list
// of values (no IN, or IN a subquery) is not: DuckDB first creates a temporary ENUM type of the values,
// a second statement, and even on the read-only file that type is created and outlives the statement
// (measured: test/guard/duckdb-pivot.test.ts); the reason says how to list the values. EXPLAIN ANALYZE
// runs the statement it explains; of a statement accepted here it runs nothing a plain SELECT would
// not, on the warehouse's read-only file and under its interrupt timer, so it is allowed.
import { type DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { DUCKDB_CATALOGS, refusedCatalog } from './catalogs.js';
import { firstKeywordIndex, lex, type LexerOptions, refuseStart, singleStatement, type Token } from './lexer.js';
import { REASONS, refuse } from './reasons.js';

const LEXER: LexerOptions = {
  backslashEscapes: false,
  refuseEscapedQuote: false,
  doubleQuotedIsString: false,
  backticks: false,
  dollarQuotes: 'tagged',
  eStrings: true,
  hashComments: false,
  slashSlashComments: false,
  nestedBlockComments: true,
  dashDashNeedsSpace: false,
};

const GUARD_SETTINGS: Readonly<Record<string, string>> = {
  enable_external_access: 'false',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
  lock_configuration: 'true',
};

/** Table functions allowed in FROM; everything else (read_*, glob, query, *_scan…) is refused. */
const TABLE_FUNCTIONS = new Set([
  'range',
  'generate_series',
  'unnest',
  'json_each',
  'json_tree',
  'duckdb_tables',
  'duckdb_columns',
  'duckdb_views',
  'duckdb_schemas',
  'duckdb_databases',
  'duckdb_types',
  'duckdb_functions',
  'duckdb_constraints',
  'duckdb_indexes',
  'duckdb_keywords',
  'duckdb_sequences',
  'duckdb_dependencies',
  'duckdb_prepared_statements',
  'pragma_table_info',
]);

/** Scalar functions refused by exact name. current_setting can reveal credentials kept in settings. */
const SCALAR_FUNCTIONS = new Set([
  'query',
  'query_table',
  'getenv',
  'glob',
  'sniff_csv',
  'current_setting',
  'nextval',
  'setval',
  'json_execute_serialized_sql',
  'duckdb_secrets',
  'which_secret',
  'sleep_ms',
  'pg_sleep',
]);
const SCALAR_PREFIXES = ['read_', 'parquet_', 'http', 'iceberg_', 'delta_', 'sqlite_', 'postgres_', 'mysql_', 'st_read', 'write_', 'export_', 'load_', 'install_'];
const SCALAR_SUFFIXES = ['_scan', '_attach'];

export function deniedDuckDbFunction(name: string): boolean {
  const lower = name.toLowerCase();
  return SCALAR_FUNCTIONS.has(lower) || SCALAR_PREFIXES.some((p) => lower.startsWith(p)) || SCALAR_SUFFIXES.some((s) => lower.endsWith(s));
}

/** Table references and query nodes known to be plain reads. */
const READ_NODES = new Set([
  'BASE_TABLE',
  'JOIN',
  'SUBQUERY',
  'TABLE_FUNCTION',
  'EMPTY',
  'EXPRESSION_LIST',
  'PIVOT',
  'SELECT_NODE',
  'SET_OPERATION_NODE',
  'RECURSIVE_CTE_NODE',
  'CTE_NODE',
]);

// A table name DuckDB could read as a file or URL (replacement scans): a dot, slash, colon…
const FILE_LIKE_NAME = /[./\\:*?~]/;

// PIVOT_WIDER and PIVOT_LONGER are DuckDB's other names for PIVOT and UNPIVOT.
const PIVOTS = ['PIVOT', 'PIVOT_WIDER', 'UNPIVOT', 'PIVOT_LONGER'];
const STARTS = new Set(['SELECT', 'WITH', 'FROM', 'EXPLAIN', ...PIVOTS]);
const EXPLAINED = new Set(['SELECT', 'WITH', 'FROM', ...PIVOTS]);

interface Serializer {
  connection: DuckDBConnection;
  statement: DuckDBPreparedStatement;
}

let serializer: Promise<Serializer> | undefined;
// One parse at a time on the shared connection.
let queue: Promise<unknown> = Promise.resolve();

async function createSerializer(): Promise<Serializer> {
  const instance = await DuckDBInstance.create(':memory:', { ...GUARD_SETTINGS });
  const connection = await instance.connect();
  const statement = await connection.prepare('SELECT json_serialize_sql($1::VARCHAR)');
  return { connection, statement };
}

/** Creates the parsing instance once (it holds no data); later calls are free. */
export function loadDuckDbParser(): Promise<unknown> {
  serializer ??= createSerializer().catch((error: unknown) => {
    serializer = undefined;
    throw error;
  });
  return serializer;
}

async function serialize(sql: string): Promise<unknown> {
  const { statement } = await (loadDuckDbParser() as Promise<Serializer>);
  const run = queue.then(async () => {
    statement.bindVarchar(1, sql);
    const reader = await statement.runAndReadAll();
    return String(reader.getRows()[0]?.[0] ?? '');
  });
  queue = run.catch(() => undefined);
  return JSON.parse(await run) as unknown;
}

/** How many statements DuckDB's parser finds (0 when it cannot parse); used to word a refusal. */
async function countStatements(sql: string): Promise<number> {
  const { connection } = await (loadDuckDbParser() as Promise<Serializer>);
  const run = queue.then(async () => (await connection.extractStatements(sql)).count);
  queue = run.catch(() => undefined);
  return run.catch(() => 0);
}

export async function checkDuckDb(sql: string): Promise<void> {
  // Only the leading keywords are read here; DuckDB's parser reads the rest.
  const tokens = lex(sql, LEXER, 64);
  const first = firstKeywordIndex(tokens);
  const start = tokens[first];
  if (start?.kind !== 'word' || !STARTS.has(start.upper)) refuseStart(start);
  let body = sql;
  if (start.upper === 'EXPLAIN') {
    if (first > 0) refuse(REASONS.explainInParentheses);
    body = explained(sql, tokens, first);
  }
  const parsed = (await serialize(body)) as { error?: boolean; error_message?: unknown; statements?: unknown[] };
  if (parsed.error !== false) {
    const message = String(parsed.error_message ?? '');
    if (/locking clause/i.test(message)) refuse(REASONS.locksRows, 'UPDATE/SHARE');
    if (/only select statements/i.test(message)) {
      if ((await countStatements(body)) > 1) refuse(writtenAsOne(body) ? REASONS.dynamicPivot : REASONS.severalStatements);
      refuse(REASONS.notSelect);
    }
    refuse(REASONS.unparsable);
  }
  const statements = parsed.statements ?? [];
  if (statements.length === 0) refuse(REASONS.empty);
  if (statements.length > 1) refuse(REASONS.severalStatements);
  walk(statements[0], false);
}

/**
 * True when DuckDB found several statements in text the user wrote as one (no `;` between two of
 * them) around a PIVOT: a PIVOT without an IN list, which DuckDB expands into CREATE TYPE + SELECT.
 */
function writtenAsOne(sql: string): boolean {
  try {
    const tokens = singleStatement(lex(sql, LEXER));
    return tokens.some((t) => t.kind === 'word' && (t.upper === 'PIVOT' || t.upper === 'PIVOT_WIDER'));
  } catch {
    return false;
  }
}

/** The statement an EXPLAIN (or EXPLAIN ANALYZE) wraps, which must be a SELECT; no option list. */
function explained(sql: string, tokens: readonly Token[], at: number): string {
  let keyword = at;
  if (tokens[keyword + 1]?.upper === 'ANALYZE' || tokens[keyword + 1]?.upper === 'ANALYSE') keyword++;
  const next = tokens[keyword + 1];
  if (next?.kind === 'punct' && next.text === '(') refuse(REASONS.explainOptions);
  if (next?.kind !== 'word' || !EXPLAINED.has(next.upper)) refuse(REASONS.explainOther);
  return sql.slice(tokens[keyword]!.end);
}

type Json = Record<string, unknown>;

/** Visits the serialized tree; `tableFunction` marks the function of a TABLE_FUNCTION reference. */
function walk(node: unknown, tableFunction: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, false);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Json;
  const type = typeof object.type === 'string' ? object.type : undefined;
  if (type !== undefined && !('class' in object) && 'sample' in object && !READ_NODES.has(type)) {
    if (type === 'SHOW_REF') refuse(REASONS.describeShow);
    refuse(REASONS.notAllowed, type.toLowerCase().replaceAll('_', ' '));
  }
  if (type === 'BASE_TABLE') checkTable(object);
  if (typeof object.function_name === 'string') {
    const name = object.function_name.toLowerCase();
    if (tableFunction) {
      if (!TABLE_FUNCTIONS.has(name)) refuse(REASONS.tableFunction, name);
    } else if (deniedDuckDbFunction(name)) {
      refuse(REASONS.function, name);
    }
  }
  for (const [key, value] of Object.entries(object)) {
    walk(value, type === 'TABLE_FUNCTION' && key === 'function');
  }
}

/** A table reference: not a file or URL, not a built-in view over a refused function. */
function checkTable(table: Json): void {
  for (const key of ['table_name', 'schema_name', 'catalog_name']) {
    const name = table[key];
    if (typeof name === 'string' && FILE_LIKE_NAME.test(name)) refuse(REASONS.fileAsTable);
  }
  const name = typeof table.table_name === 'string' ? table.table_name : '';
  const schema = typeof table.schema_name === 'string' && table.schema_name !== '' ? table.schema_name : undefined;
  const reason = refusedCatalog(DUCKDB_CATALOGS, schema, name);
  if (reason) refuse(reason, name.toLowerCase());
}
