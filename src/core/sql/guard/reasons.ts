// Every reason the guard gives for a refusal, in one place: the text a user sees in `details.reason`,
// the engines that can give it and why the statement is refused. docs/api.md lists the same table
// (test/guard/reasons.test.ts keeps the two in step), so a user can know beforehand what is refused.
import type { WarehouseEngine } from '../../warehouse/types.js';
import { ReadOnlyViolation } from './violation.js';

/** Longer statements are refused: parsers are fast, but not on megabytes of hostile input. */
export const MAX_SQL_LENGTH = 200_000;

export interface Reason {
  /** The text of `details.reason`; `{name}` stands for a keyword or name taken from the statement. */
  readonly text: string;
  readonly engines: readonly WarehouseEngine[];
  /** Why such statements are refused (shown in the documentation). */
  readonly why: string;
}

const ALL: readonly WarehouseEngine[] = ['postgres', 'duckdb', 'mysql', 'snowflake'];
const LEXED: readonly WarehouseEngine[] = ['duckdb', 'mysql', 'snowflake'];

function reason(text: string, engines: readonly WarehouseEngine[], why: string): Reason {
  return { text, engines, why };
}

export const REASONS = {
  // ---- the text itself
  notString: reason('not a string', ALL, 'The statement must be text.'),
  tooLong: reason(`longer than ${MAX_SQL_LENGTH} characters`, ALL, 'Parsers are fast, but not on megabytes of hostile input.'),
  nul: reason('contains a NUL character', ALL, 'Parsers written in C stop reading at it; the server may not.'),
  empty: reason('empty statement', ALL, 'Nothing to run (only spaces, comments or `;`).'),
  badUnicode: reason('not well-formed Unicode', ALL, 'A lone surrogate has no single reading.'),
  unknownEngine: reason('unknown engine', ALL, 'The connection names an engine the guard has no rules for.'),
  uncheckable: reason('could not be checked', ALL, 'The parser failed or could not load: the guard refuses rather than lets the statement through.'),
  unparsable: reason('could not be parsed', ['postgres', 'duckdb'], "The engine's own parser rejects it: a syntax error."),
  // ---- quotes, comments and characters the engine could read differently
  unterminatedText: reason('unterminated quoted text', LEXED, 'Where a string ends decides what runs.'),
  unterminatedIdentifier: reason('unterminated quoted identifier', LEXED, 'Where a quoted name ends decides what runs.'),
  unterminatedDollar: reason('unterminated dollar-quoted string', LEXED, 'Where a `$$` string ends decides what runs.'),
  unterminatedComment: reason('unterminated comment', LEXED, 'Where a comment ends decides what runs.'),
  nestedComment: reason('a comment inside a comment', ['mysql', 'snowflake'], 'These engines do not nest comments; parsers that do would read the rest differently.'),
  dashDash: reason('"--" not followed by a space is read differently by the server', ['mysql'], 'MySQL starts a comment at `-- ` only; `--x` is two minus signs.'),
  carriageReturn: reason('a carriage return inside a comment', LEXED, 'A lone carriage return ends a line comment for some readers and not for others.'),
  invisibleSpace: reason('an invisible or non-breaking space outside quotes', LEXED, 'Some engines read it as a space, others as part of a name.'),
  controlCharacter: reason('an invisible or control character outside quotes', LEXED, 'Some engines read it as a space, others as part of a name.'),
  dollarInName: reason('"$$" inside a name', ['snowflake'], 'Snowflake could start a `$$` string inside it.'),
  escapedQuote: reason(
    "a backslash before a quote inside a string (double the quote: 'it''s')",
    ['postgres', 'snowflake'],
    "Where the string ends depends on a server setting (PostgreSQL's `standard_conforming_strings`); write `''` (or `E'it\\'s'` on PostgreSQL).",
  ),
  executableComment: reason('an executable comment (/*! … */)', ['mysql'], 'MySQL and MariaDB run what is inside `/*! … */` and `/*M! … */`.'),
  hint: reason(
    'optimizer hint {name} is not allowed',
    ['mysql'],
    '`SET_VAR` changes session variables (the time limit among them) and `RESOURCE_GROUP` moves the statement to another resource group; names the guard does not know are refused too. Optimizer hints that only shape the plan are allowed (see above).',
  ),
  unreadableHint: reason('an optimizer hint comment the guard cannot read', ['mysql'], 'Only `NAME(arguments)` hints, with names, numbers, `@`, `.` and backticks as arguments, are read the same way by the guard and the server.'),
  // ---- the statement
  statementKind: reason('{name} statements are not allowed', ALL, 'Only SELECT, WITH and EXPLAIN statements run (on DuckDB also FROM-first, PIVOT and UNPIVOT, which DuckDB reads as SELECT).'),
  notReadStart: reason('does not start with SELECT, WITH or EXPLAIN', ALL, 'Only SELECT, WITH and EXPLAIN statements run.'),
  severalStatements: reason('more than one statement', ALL, 'A second statement after a `;` is the classic way to hide a write. One final `;` is accepted.'),
  notSelect: reason('not a SELECT statement', ['duckdb'], "DuckDB's parser does not read it as a SELECT."),
  dynamicPivot: reason(
    "PIVOT without a list of values creates a temporary type first (a write); list them: ON col IN ('a', 'b')",
    ['duckdb'],
    'Without the list (or with a subquery for it) DuckDB runs two statements, `CREATE TEMP TYPE … AS ENUM (SELECT DISTINCT …)` and then the PIVOT: on the read-only connection the type is still created, and stays after the statement. The warehouse refuses the two statements too. With the values listed it is one SELECT.',
  ),
  explainOther: reason('EXPLAIN of a statement other than SELECT', ALL, 'EXPLAIN ANALYZE runs the statement it explains, and EXPLAIN of a table is DESCRIBE.'),
  explainInParentheses: reason('EXPLAIN inside parentheses', ['duckdb'], 'Not a form DuckDB reads as one EXPLAIN statement.'),
  explainOptions: reason('EXPLAIN options are not allowed', ['duckdb'], 'Write `EXPLAIN` or `EXPLAIN ANALYZE`; the option list is not checked.'),
  describeShow: reason('DESCRIBE and SHOW are not allowed', ['duckdb'], 'DuckDB parses them as SELECT, but they are not SELECT statements; use the schema endpoint.'),
  notAllowed: reason('{name} is not allowed', ALL, 'A write, a schema change or a statement that is not a read (INSERT, UPDATE, DELETE, MERGE, CREATE, DROP…).'),
  writeInWith: reason('{name} inside a WITH clause', ['postgres'], 'A data-modifying WITH (`WITH d AS (DELETE … RETURNING *) SELECT …`) writes.'),
  // ---- what a read could still do
  selectIntoTable: reason('SELECT … INTO creates a table', ['postgres'], '`SELECT … INTO t` is `CREATE TABLE t AS`.'),
  selectIntoMysql: reason('SELECT … INTO writes a file, a variable or a table', ['mysql'], 'A read-only transaction does not stop `INTO OUTFILE`, and `@variables` outlive the statement.'),
  intoOutfile: reason('INTO OUTFILE writes a file on the server', ['mysql'], 'Measured on MariaDB: a read-only transaction does not stop it.'),
  intoDumpfile: reason('INTO DUMPFILE writes a file on the server', ['mysql'], 'Measured on MariaDB: a read-only transaction does not stop it.'),
  intoSnowflake: reason('INTO writes a table, a stage or a variable', ['snowflake'], 'Not a read.'),
  locksRows: reason('FOR {name} locks rows', ALL, 'Row locks block other sessions (and `LOCK IN SHARE MODE` is not stopped by a read-only transaction).'),
  lockInShareMode: reason('LOCK IN SHARE MODE locks rows', ['mysql'], 'Measured on MariaDB: a read-only transaction does not stop it.'),
  assignment: reason('assigning a variable (:=)', ['mysql'], 'User variables outlive the statement.'),
  nextValue: reason('NEXT VALUE FOR advances a sequence', ['mysql'], 'A sequence does not roll back.'),
  procedureClause: reason('PROCEDURE runs a procedure', ['mysql'], '`SELECT … PROCEDURE ANALYSE()` runs server code.'),
  anonymousProcedure: reason('PROCEDURE runs code (anonymous procedures are not allowed)', ['snowflake'], '`WITH p AS PROCEDURE … CALL p()` starts with WITH and runs code.'),
  call: reason('CALL runs a procedure', ['mysql', 'snowflake'], 'A procedure can do anything its owner can.'),
  handler: reason('HANDLER statements are not allowed', ['mysql'], 'Not a read through SQL.'),
  doStatement: reason('DO statements are not allowed', ['mysql'], '`DO` runs expressions without returning rows.'),
  load: reason('LOAD reads files', ['mysql'], '`LOAD DATA` and `LOAD XML` read files.'),
  execute: reason('EXECUTE runs code', ['snowflake'], 'Runs a task, or SQL given as a string (`EXECUTE IMMEDIATE`).'),
  put: reason('PUT writes to a stage', ['snowflake'], 'Uploads files.'),
  copy: reason('COPY reads or writes stages', ['snowflake'], 'Loads or unloads files.'),
  scripting: reason('scripting blocks are not allowed', ['snowflake'], 'BEGIN … END, DECLARE and LET run code.'),
  stage: reason('stages (@…) are not allowed', ['snowflake'], 'Reads files from a stage.'),
  flowOperator: reason('the ->> operator chains statements', ['snowflake'], '`->>` runs a further statement on the result.'),
  // ---- functions, files and catalogs
  function: reason(
    'function {name} is not allowed',
    ALL,
    'A function with an effect outside the statement or beyond the data: sleeping, locks, server files, large objects, other sessions, sequences, settings that can hold credentials, secrets, other connections, or SQL given as a string (the lists are in the guard, per engine).',
  ),
  tableFunction: reason('table function {name} is not allowed', ['duckdb'], 'DuckDB table functions are an allowlist: `range`, `generate_series`, `unnest`, `json_each`, `json_tree` and the `duckdb_*` catalog functions. `read_csv`, `glob`, `query`… read files or run SQL given as a string.'),
  fileAsTable: reason('reading a file or URL as a table is not allowed', ['duckdb'], "`FROM 'data.csv'` reads a file through a replacement scan."),
  credentialCatalog: reason(
    'the credential catalog {name} is not allowed',
    ['postgres', 'mysql'],
    'It holds password hashes or passwords for other servers (`pg_authid`, `pg_shadow`, user mappings, `pg_subscription`; `mysql.user`, `mysql.global_priv`, `mysql.servers`…), readable by a superuser or root connection.',
  ),
  statisticsCatalog: reason(
    'the statistics catalog {name} is not allowed (it holds sample values of columns)',
    ['postgres', 'mysql'],
    "Column statistics keep real values (most common values, histogram bounds, min/max), password hashes included when the credential catalogs have been analysed; a superuser or root connection reads them all.",
  ),
  settingsCatalog: reason(
    'the settings catalog {name} is not allowed (settings can hold credentials)',
    ['postgres', 'duckdb', 'mysql'],
    "It lists every setting with its value, credentials included for a privileged role (`primary_conninfo`, `archive_command`; DuckDB `http_proxy_password`; MySQL `report_password`). Read one setting by name instead: `current_setting('work_mem')`, `SELECT @@sql_mode`.",
  ),
  secretSetting: reason(
    'the setting {name} can hold credentials',
    ['postgres', 'mysql'],
    "Settings that hold a connection string, a command line or a password (`primary_conninfo`, `restore_command`, `ssl_passphrase_command`…; MySQL `report_password`, `wsrep_sst_auth`).",
  ),
  computedSetting: reason('current_setting() of a name that is not a string literal', ['postgres'], 'The guard must see which setting is read: write the name as a literal.'),
  viewOfRefused: reason(
    'the view {name} reads what the guard refuses',
    ['postgres', 'duckdb'],
    'A built-in view over a refused function: `pg_file_settings`, `pg_hba_file_rules`, `pg_ident_file_mappings` (server files); DuckDB `duckdb_logs`.',
  ),
} as const satisfies Record<string, Reason>;

/** Throws the violation for `reason`, with `name` in place of `{name}`; typed `never` so checks read as guards. */
export function refuse(reason: Reason, name?: string): never {
  throw new ReadOnlyViolation(name === undefined ? reason.text : reason.text.replace('{name}', name));
}
