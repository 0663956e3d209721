// Snowflake: a lexical guard (there is no Snowflake parser to run locally). The tokenizer reads
// '…' strings with backslash escapes, $$…$$ strings, "…" identifiers and --, // and /* */ comments;
// the statement must be one SELECT, WITH or EXPLAIN, with no keyword that runs code (anonymous
// procedures `WITH p AS PROCEDURE … CALL p()`, EXECUTE IMMEDIATE), touches stages (@stage, PUT, GET,
// COPY INTO, stage-URL functions), chains statements (the `->>` flow operator) or calls SYSTEM$
// functions. The role in the connection must still be minimal: this is the first line, not the last.
import { checkStatementTokens, type LexerOptions, requireExplainedRead, type Token } from './lexer.js';
import { type Reason, REASONS, refuse } from './reasons.js';

const LEXER: LexerOptions = {
  backslashEscapes: true,
  // Snowflake always reads \' as a quote; refused anyway, so that the boundary never depends on it.
  refuseEscapedQuote: true,
  doubleQuotedIsString: false,
  backticks: false,
  dollarQuotes: 'plain',
  eStrings: false,
  hashComments: false,
  slashSlashComments: true,
  nestedBlockComments: false,
  dashDashNeedsSpace: false,
};

const KEYWORDS: ReadonlyMap<string, Reason> = new Map([
  ['PROCEDURE', REASONS.anonymousProcedure],
  ['CALL', REASONS.call],
  ['EXECUTE', REASONS.execute],
  ['PUT', REASONS.put],
  ['COPY', REASONS.copy],
  ['INTO', REASONS.intoSnowflake],
  ['UPDATE', REASONS.notAllowed],
  ['DELETE', REASONS.notAllowed],
  ['MERGE', REASONS.notAllowed],
  ['TRUNCATE', REASONS.notAllowed],
  ['CREATE', REASONS.notAllowed],
  ['DROP', REASONS.notAllowed],
  ['ALTER', REASONS.notAllowed],
  ['GRANT', REASONS.notAllowed],
  ['REVOKE', REASONS.notAllowed],
  ['DECLARE', REASONS.scripting],
  ['BEGIN', REASONS.scripting],
  ['LET', REASONS.scripting],
]);

/** Functions refused by name, quoted or not. RESULT_SCAN reads earlier results of the same user. */
const FUNCTIONS = new Set([
  'RESULT_SCAN',
  'NEXTVAL',
  'INFER_SCHEMA',
  'VALIDATE',
  'VALIDATE_PIPE_LOAD',
  'BUILD_SCOPED_FILE_URL',
  'BUILD_STAGE_FILE_URL',
  'GET_PRESIGNED_URL',
  'GET_STAGE_LOCATION',
  'GET_RELATIVE_PATH',
  'GET_ABSOLUTE_PATH',
  'CORTEX',
]);

function deniedName(upper: string): boolean {
  return FUNCTIONS.has(upper) || upper.startsWith('SYSTEM$');
}

export function checkSnowflake(sql: string): void {
  checkStatementTokens(sql, LEXER, { explain: checkExplain, token: checkToken });
}

/** EXPLAIN [USING TABULAR | JSON | TEXT] followed by a SELECT or WITH. */
function checkExplain(tokens: readonly Token[], at: number): void {
  let i = at;
  if (tokens[i]?.upper === 'USING' && tokens[i + 1]?.kind === 'word') i += 2;
  requireExplainedRead(tokens, i);
}

function checkToken(tokens: readonly Token[], i: number): void {
  const token = tokens[i]!;
  const next = tokens[i + 1];
  if (token.kind === 'punct') {
    if (token.text === '@') refuse(REASONS.stage);
    // `->>` chains a further statement onto this one.
    if (token.text === '-' && next?.text === '>' && tokens[i + 2]?.text === '>' && next.start === token.end && tokens[i + 2]!.start === next.end) {
      refuse(REASONS.flowOperator);
    }
    return;
  }
  if (token.kind === 'string') return;
  if (deniedName(token.upper)) refuse(REASONS.function, token.upper);
  if (token.kind === 'quoted') return;
  const word = token.upper;
  if (word === 'FOR' && next?.upper === 'UPDATE') refuse(REASONS.locksRows, 'UPDATE');
  // INSERT(base, pos, len, text) and REPLACE(text, from, to) are string functions.
  if ((word === 'INSERT' || word === 'REPLACE') && next?.text !== '(') refuse(REASONS.notAllowed, word);
  const reason = KEYWORDS.get(word);
  if (reason) refuse(reason, word);
}
