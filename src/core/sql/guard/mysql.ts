// MySQL / MariaDB: a lexical guard. No JavaScript parser reads MySQL the way the server does:
// node-sql-parser treats `/*! … */` as a comment (the server executes it), and it rejects ordinary
// reads (CAST … CHARACTER SET, USE INDEX, SQL_NO_CACHE, named windows on MariaDB) while costing about
// 1 ms a statement. So the tokenizer is the authority: it reads quotes, comments and escapes as the
// server does and refuses every ambiguous spelling; the token stream is then checked against the
// statement shape (SELECT / WITH / EXPLAIN, one statement) and denylists of keywords and functions.
//
// Backslash escapes (`'it\'s'`) are read as escapes and `"…"` as a string: the driver pins the
// session's sql_mode before every statement so that neither NO_BACKSLASH_ESCAPES nor ANSI_QUOTES
// (nor a mode that implies one) is on, whatever the server's default (mysql-session.ts).
import { MYSQL_CATALOGS, refusedCatalog, SECRET_SETTINGS } from './catalogs.js';
import { checkStatementTokens, type LexerOptions, requireExplainedRead, type Token } from './lexer.js';
import { checkOptimizerHints } from './mysql-hints.js';
import { type Reason, REASONS, refuse } from './reasons.js';

const LEXER: LexerOptions = {
  backslashEscapes: true,
  refuseEscapedQuote: false,
  doubleQuotedIsString: true,
  backticks: true,
  dollarQuotes: 'none',
  eStrings: false,
  hashComments: true,
  slashSlashComments: false,
  nestedBlockComments: false,
  dashDashNeedsSpace: true,
  checkBlockComment(body) {
    // `/*! … */` and `/*M! … */` are executed by the server; `/*+ … */` are optimizer hints.
    if (body.startsWith('!') || /^M!/i.test(body)) refuse(REASONS.executableComment);
    if (body.startsWith('+')) checkOptimizerHints(body.slice(1));
  },
};

/** Keywords refused anywhere in the statement (outside quotes), with their reason. */
const KEYWORDS: ReadonlyMap<string, Reason> = new Map([
  ['INTO', REASONS.selectIntoMysql],
  ['OUTFILE', REASONS.intoOutfile],
  ['DUMPFILE', REASONS.intoDumpfile],
  ['UPDATE', REASONS.notAllowed],
  ['DELETE', REASONS.notAllowed],
  ['LOCK', REASONS.lockInShareMode],
  ['PROCEDURE', REASONS.procedureClause],
  ['HANDLER', REASONS.handler],
  ['CALL', REASONS.call],
  ['DO', REASONS.doStatement],
  ['LOAD', REASONS.load],
]);

/** Functions refused by name (also as quoted names followed by `(`, which the server resolves too). */
const FUNCTIONS = new Set([
  'SLEEP',
  'BENCHMARK',
  'GET_LOCK',
  'RELEASE_LOCK',
  'RELEASE_ALL_LOCKS',
  'IS_FREE_LOCK',
  'IS_USED_LOCK',
  'LOAD_FILE',
  'SYS_EXEC',
  'SYS_EVAL',
  'SYS_GET',
  'SYS_SET',
  'MASTER_POS_WAIT',
  'SOURCE_POS_WAIT',
  'MASTER_GTID_WAIT',
  'WAIT_FOR_EXECUTED_GTID_SET',
  'WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS',
  'NEXTVAL',
  'SETVAL',
  'LAST_INSERT_ID',
]);
const FUNCTION_PREFIXES = ['SPIDER_', 'SYS_'];

function deniedFunction(name: string): boolean {
  return FUNCTIONS.has(name) || FUNCTION_PREFIXES.some((p) => name.startsWith(p));
}

export function checkMysql(sql: string): void {
  checkStatementTokens(sql, LEXER, { explain: checkExplain, token: checkToken });
}

/**
 * EXPLAIN [ANALYZE] [EXTENDED | PARTITIONS | FORMAT = name] followed by a SELECT or WITH. MySQL 8's
 * EXPLAIN ANALYZE runs the SELECT (in the driver's read-only transaction and time limit, nothing a
 * plain SELECT would not do); MariaDB spells it `ANALYZE SELECT`, which does not start with
 * SELECT, WITH or EXPLAIN and is refused with the other statement kinds.
 */
function checkExplain(tokens: readonly Token[], at: number): void {
  let i = at;
  if (tokens[i]?.upper === 'ANALYZE') i++;
  if (tokens[i]?.upper === 'EXTENDED' || tokens[i]?.upper === 'PARTITIONS') i++;
  else if (tokens[i]?.upper === 'FORMAT' && tokens[i + 1]?.text === '=' && tokens[i + 2]?.kind === 'word') i += 3;
  requireExplainedRead(tokens, i);
}

function checkToken(tokens: readonly Token[], i: number): void {
  const token = tokens[i]!;
  const next = tokens[i + 1];
  const opensCall = next?.kind === 'punct' && next.text === '(';
  if (token.kind === 'punct') {
    // `@v := …` assigns a user variable, which outlives the statement.
    if (token.text === ':' && next?.text === '=' && next.start === token.end) refuse(REASONS.assignment);
    if (token.text === '.') checkQualifiedName(tokens, i);
    if (token.text === '@' && next?.text === '@') checkSystemVariable(tokens, i + 2);
    return;
  }
  if (token.kind === 'string') {
    // The pinned sql_mode reads "…" as a string; as an identifier (ANSI_QUOTES) `"sleep"(1)` would call
    // SLEEP: refused anyway, so that the check never rests on the mode alone.
    if (token.quote === '"' && opensCall && deniedFunction(nameOf(token))) refuse(REASONS.function, nameOf(token));
    return;
  }
  if (token.kind === 'quoted') {
    // `` `sleep`(1) `` calls the built-in SLEEP.
    if (opensCall && deniedFunction(token.upper)) refuse(REASONS.function, token.upper);
    return;
  }
  const word = token.upper;
  if (deniedFunction(word)) refuse(REASONS.function, word);
  if (word === 'FOR' && (next?.upper === 'UPDATE' || next?.upper === 'SHARE')) refuse(REASONS.locksRows, next.upper);
  if (word === 'NEXT' && next?.upper === 'VALUE') refuse(REASONS.nextValue);
  // INSERT(str, pos, len, new) and REPLACE(str, from, to) are string functions; anything else is a write.
  if ((word === 'INSERT' || word === 'REPLACE') && !opensCall) refuse(REASONS.notAllowed, word);
  // INTO OUTFILE / INTO DUMPFILE: the more telling reason of the two words.
  const reason = word === 'INTO' && (next?.upper === 'OUTFILE' || next?.upper === 'DUMPFILE') ? KEYWORDS.get(next.upper) : KEYWORDS.get(word);
  if (reason) refuse(reason, word);
}

/**
 * `database.table` at the `.` token `i`: refuses the credential and statistics catalogs (mysql.user,
 * `mysql`.`global_priv`, "mysql"."servers", MYSQL . /* c *\/ USER…). Names are read as identifiers
 * whether backticked, double-quoted or bare. Unqualified names are in the connection's own database.
 */
function checkQualifiedName(tokens: readonly Token[], i: number): void {
  const schema = tokens[i - 1];
  const table = tokens[i + 1];
  if (!schema || !table || !isName(schema) || !isName(table)) return;
  const reason = refusedCatalog(MYSQL_CATALOGS, nameOf(schema), nameOf(table));
  if (reason) refuse(reason, `${nameOf(schema)}.${nameOf(table)}`.toLowerCase());
}

/** `@@name`, `@@global.name`, `@@session.name` from token `i` (after the `@@`). */
function checkSystemVariable(tokens: readonly Token[], i: number): void {
  let at = i;
  if (/^(GLOBAL|SESSION|LOCAL)$/.test(tokens[at]?.upper ?? '') && tokens[at + 1]?.text === '.') at += 2;
  const name = tokens[at];
  if (name && isName(name) && SECRET_SETTINGS.mysql.has(nameOf(name).toLowerCase())) refuse(REASONS.secretSetting, nameOf(name).toLowerCase());
}

function isName(token: Token): boolean {
  return token.kind === 'word' || token.kind === 'quoted' || (token.kind === 'string' && token.quote === '"');
}

/** The name a word, quoted identifier or double-quoted string stands for, in upper case. */
function nameOf(token: Token): string {
  if (token.kind !== 'string') return token.upper;
  const q = token.quote!;
  return token.text.slice(1, -1).replaceAll(q + q, q).toUpperCase();
}
