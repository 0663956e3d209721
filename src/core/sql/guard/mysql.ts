// MySQL / MariaDB: a lexical guard. No JavaScript parser reads MySQL the way the server does:
// node-sql-parser treats `/*! … */` as a comment (the server executes it), and it rejects ordinary
// reads (CAST … CHARACTER SET, USE INDEX, SQL_NO_CACHE, named windows on MariaDB) while costing about
// 1 ms a statement. So the tokenizer is the authority: it reads quotes, comments and escapes as the
// server does and refuses every ambiguous spelling; the token stream is then checked against the
// statement shape (SELECT / WITH / EXPLAIN, one statement) and denylists of keywords and functions.
import { checkStatementTokens, type LexerOptions, requireExplainedRead, type Token } from './lexer.js';
import { refuse } from './violation.js';

const LEXER: LexerOptions = {
  backslashEscapes: true,
  refuseEscapedQuote: true,
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
    if (body.startsWith('!') || /^M!/i.test(body)) refuse('an executable comment (/*! … */)');
    if (body.startsWith('+')) refuse('an optimizer hint comment (/*+ … */)');
  },
};

/** Keywords refused anywhere in the statement (outside quotes), with their reason. */
const KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['INTO', 'SELECT … INTO writes a file, a variable or a table'],
  ['OUTFILE', 'INTO OUTFILE writes a file on the server'],
  ['DUMPFILE', 'INTO DUMPFILE writes a file on the server'],
  ['UPDATE', 'UPDATE is not allowed'],
  ['DELETE', 'DELETE is not allowed'],
  ['LOCK', 'LOCK IN SHARE MODE locks rows'],
  ['PROCEDURE', 'PROCEDURE runs a procedure'],
  ['ANALYZE', 'ANALYZE runs the statement'],
  ['HANDLER', 'HANDLER statements are not allowed'],
  ['CALL', 'CALL runs a procedure'],
  ['DO', 'DO statements are not allowed'],
  ['LOAD', 'LOAD reads files'],
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

/** EXPLAIN [EXTENDED | PARTITIONS | FORMAT = name] followed by a SELECT or WITH. */
function checkExplain(tokens: readonly Token[], at: number): void {
  let i = at;
  if (tokens[i]?.upper === 'ANALYZE') refuse('EXPLAIN ANALYZE runs the statement');
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
    if (token.text === ':' && next?.text === '=' && next.start === token.end) refuse('assigning a variable (:=)');
    return;
  }
  if (token.kind === 'string') {
    // A double-quoted name is an identifier under ANSI_QUOTES: `"sleep"(1)` would call SLEEP.
    if (token.quote === '"' && opensCall && deniedFunction(unquote(token).toUpperCase())) {
      refuse(`function ${unquote(token).toUpperCase()} is not allowed`);
    }
    return;
  }
  if (token.kind === 'quoted') {
    // `` `sleep`(1) `` calls the built-in SLEEP.
    if (opensCall && deniedFunction(token.upper)) refuse(`function ${token.upper} is not allowed`);
    return;
  }
  const word = token.upper;
  if (deniedFunction(word)) refuse(`function ${word} is not allowed`);
  if (word === 'FOR' && (next?.upper === 'UPDATE' || next?.upper === 'SHARE')) refuse(`FOR ${next.upper} locks rows`);
  if (word === 'NEXT' && next?.upper === 'VALUE') refuse('NEXT VALUE FOR advances a sequence');
  // INSERT(str, pos, len, new) and REPLACE(str, from, to) are string functions; anything else is a write.
  if ((word === 'INSERT' || word === 'REPLACE') && !opensCall) refuse(`${word} is not allowed`);
  const reason = KEYWORDS.get(word);
  if (reason) refuse(reason);
}

function unquote(token: Token): string {
  const q = token.quote!;
  return token.text.slice(1, -1).replaceAll(q + q, q);
}
