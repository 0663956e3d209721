// A conservative SQL tokenizer for the engines whose parser the guard cannot run (MySQL/MariaDB,
// Snowflake) and for the leading keywords on DuckDB. It knows quotes, comments and dollar quotes as
// the engine does, and refuses (rather than guesses) wherever two readings of the text are possible:
// an unterminated quote or comment, a nested comment, `--` not followed by a space on MySQL, a
// backslash-escaped quote where the engine's reading of it is not pinned (Snowflake), a stray
// carriage return inside a line comment, or a Unicode space outside quotes.
import { AMBIGUOUS_CHARACTER } from './input.js';
import { type Reason, REASONS, refuse } from './reasons.js';

export interface LexerOptions {
  /** Backslash escapes inside string literals. */
  readonly backslashEscapes: boolean;
  /** Refuse `\'` (and `\"` in a double-quoted string): the boundary moves when escapes are off. */
  readonly refuseEscapedQuote: boolean;
  /** `"…"` is a string literal (MySQL's default) rather than an identifier. */
  readonly doubleQuotedIsString: boolean;
  /** `` `…` `` is a quoted identifier. */
  readonly backticks: boolean;
  /** `$$…$$` only (Snowflake), `$tag$…$tag$` (PostgreSQL family) or none. */
  readonly dollarQuotes: 'none' | 'plain' | 'tagged';
  /** `E'…'` strings with backslash escapes (PostgreSQL family). */
  readonly eStrings: boolean;
  readonly hashComments: boolean;
  readonly slashSlashComments: boolean;
  /** Block comments nest (PostgreSQL family); otherwise a `/*` inside one is refused. */
  readonly nestedBlockComments: boolean;
  /** MySQL: `--` starts a comment only when a space or control character follows. */
  readonly dashDashNeedsSpace: boolean;
  /** Inspects a block comment's body (between the delimiters); may refuse. */
  readonly checkBlockComment?: (body: string) => void;
}

export type TokenKind = 'word' | 'string' | 'quoted' | 'punct';

export interface Token {
  readonly kind: TokenKind;
  /** Words and punctuation: the text; strings and quoted identifiers: the raw text with quotes. */
  readonly text: string;
  /** Words: upper case; quoted identifiers: the unquoted name in upper case; others: the text. */
  readonly upper: string;
  /** The quote character of strings and quoted identifiers. */
  readonly quote?: string;
  readonly start: number;
  readonly end: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);

function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 95 || // _
    code === 36 || // $
    code >= 0x80 // letters of other scripts (ambiguous spaces are refused before)
  );
}

/**
 * Splits `sql` into tokens, skipping whitespace and comments. Stops after `maxTokens` tokens (the
 * rest of the text is then not examined). Refuses anything it cannot read unambiguously.
 */
export function lex(sql: string, options: LexerOptions, maxTokens = Number.POSITIVE_INFINITY): Token[] {
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n && tokens.length < maxTokens) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (WHITESPACE.has(ch)) {
      i++;
      continue;
    }
    // Line comments.
    if ((ch === '-' && next === '-') || (options.hashComments && ch === '#') || (options.slashSlashComments && ch === '/' && next === '/')) {
      if (ch === '-' && options.dashDashNeedsSpace) {
        const after = sql[i + 2];
        if (after !== undefined && !WHITESPACE.has(after)) refuse(REASONS.dashDash);
      }
      let end = sql.indexOf('\n', i);
      if (end === -1) end = n;
      const body = sql.slice(i, end);
      // A lone carriage return ends a comment for some engines and not for others.
      if (/\r(?!\n)/.test(body.endsWith('\r') ? body.slice(0, -1) : body)) refuse(REASONS.carriageReturn);
      i = end;
      continue;
    }
    // Block comments.
    if (ch === '/' && next === '*') {
      i = skipBlockComment(sql, i, options);
      continue;
    }
    // Strings.
    if (ch === "'" || (ch === '"' && options.doubleQuotedIsString)) {
      const end = scanQuoted(sql, i, ch, options.backslashEscapes, options.refuseEscapedQuote, REASONS.unterminatedText);
      tokens.push({ kind: 'string', text: sql.slice(i, end), upper: sql.slice(i, end), quote: ch, start: i, end });
      i = end;
      continue;
    }
    // Quoted identifiers.
    if (ch === '"' || (ch === '`' && options.backticks)) {
      const end = scanQuoted(sql, i, ch, false, false, REASONS.unterminatedIdentifier);
      const name = sql.slice(i + 1, end - 1).replaceAll(ch + ch, ch);
      tokens.push({ kind: 'quoted', text: sql.slice(i, end), upper: name.toUpperCase(), quote: ch, start: i, end });
      i = end;
      continue;
    }
    // Dollar-quoted strings.
    if (ch === '$' && options.dollarQuotes !== 'none') {
      const tag = dollarTag(sql, i, options.dollarQuotes);
      if (tag !== undefined) {
        const close = sql.indexOf(tag, i + tag.length);
        if (close === -1) refuse(REASONS.unterminatedDollar);
        const end = close + tag.length;
        tokens.push({ kind: 'string', text: sql.slice(i, end), upper: sql.slice(i, end), quote: '$', start: i, end });
        i = end;
        continue;
      }
    }
    // Words (keywords, identifiers, numbers).
    if (isWordChar(ch)) {
      if (AMBIGUOUS_CHARACTER.test(ch)) refuse(REASONS.invisibleSpace);
      let end = i + 1;
      while (end < n && isWordChar(sql[end]!)) {
        if (AMBIGUOUS_CHARACTER.test(sql[end]!)) refuse(REASONS.invisibleSpace);
        end++;
      }
      const text = sql.slice(i, end);
      if (options.dollarQuotes === 'plain' && text.includes('$$')) refuse(REASONS.dollarInName);
      // E'…': an escape string (PostgreSQL family).
      if (options.eStrings && (text === 'E' || text === 'e') && sql[end] === "'") {
        const close = scanQuoted(sql, end, "'", true, false, REASONS.unterminatedText);
        tokens.push({ kind: 'string', text: sql.slice(i, close), upper: sql.slice(i, close), quote: "'", start: i, end: close });
        i = close;
        continue;
      }
      tokens.push({ kind: 'word', text, upper: text.toUpperCase(), start: i, end });
      i = end;
      continue;
    }
    if (AMBIGUOUS_CHARACTER.test(ch)) refuse(REASONS.controlCharacter);
    tokens.push({ kind: 'punct', text: ch, upper: ch, start: i, end: i + 1 });
    i++;
  }
  return tokens;
}

/** End (exclusive) of the quoted text starting at `start` with `quote`; doubled quotes are literal. */
function scanQuoted(
  sql: string,
  start: number,
  quote: string,
  backslashEscapes: boolean,
  refuseEscapedQuote: boolean,
  unterminated: Reason,
): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (backslashEscapes && ch === '\\') {
      if (refuseEscapedQuote && (sql[i + 1] === "'" || sql[i + 1] === '"')) {
        refuse(REASONS.escapedQuote);
      }
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return refuse(unterminated);
}

function skipBlockComment(sql: string, start: number, options: LexerOptions): number {
  let depth = 1;
  let i = start + 2;
  while (i < sql.length) {
    if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) {
        options.checkBlockComment?.(sql.slice(start + 2, i - 2));
        return i;
      }
      continue;
    }
    if (sql[i] === '/' && sql[i + 1] === '*') {
      if (!options.nestedBlockComments) refuse(REASONS.nestedComment);
      depth++;
      i += 2;
      continue;
    }
    i++;
  }
  return refuse(REASONS.unterminatedComment);
}

/** The opening `$$` / `$tag$` at `start`, or undefined when `$` starts something else (`$1`). */
function dollarTag(sql: string, start: number, mode: 'plain' | 'tagged'): string | undefined {
  if (sql[start + 1] === '$') return '$$';
  if (mode === 'plain') return undefined;
  const match = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)\$/.exec(sql.slice(start, start + 200));
  return match ? match[0] : undefined;
}

/**
 * Accepts one final `;` and refuses any other: returns the tokens without it. Statements hidden
 * after a separator are the classic stacked-statement attack.
 */
export function singleStatement(tokens: readonly Token[]): Token[] {
  const last = tokens.length - 1;
  const body = tokens[last]?.text === ';' && tokens[last]!.kind === 'punct' ? tokens.slice(0, last) : [...tokens];
  if (body.some((t) => t.kind === 'punct' && t.text === ';')) refuse(REASONS.severalStatements);
  if (body.length === 0) refuse(REASONS.empty);
  return body;
}

/** Index of the first token that is not an opening parenthesis. */
export function firstKeywordIndex(tokens: readonly Token[]): number {
  let i = 0;
  while (tokens[i]?.kind === 'punct' && tokens[i]!.text === '(') i++;
  return i;
}

/** A refusal for a statement that starts with something else than the allowed keywords. */
export function refuseStart(token: Token | undefined): never {
  if (token?.kind === 'word' && /^[A-Z_]+$/.test(token.upper)) refuse(REASONS.statementKind, token.upper);
  return refuse(REASONS.notReadStart);
}

const READ_STARTS = new Set(['SELECT', 'WITH', 'EXPLAIN']);

/**
 * The check both token-level guards (MySQL, Snowflake) make: one statement, starting with SELECT, WITH
 * or EXPLAIN; the engine's own rules for what follows EXPLAIN and for every token.
 */
export function checkStatementTokens(
  sql: string,
  lexer: LexerOptions,
  rules: { explain(tokens: readonly Token[], at: number): void; token(tokens: readonly Token[], index: number): void },
): void {
  const tokens = singleStatement(lex(sql, lexer));
  const first = firstKeywordIndex(tokens);
  const start = tokens[first];
  if (start?.kind !== 'word' || !READ_STARTS.has(start.upper)) refuseStart(start);
  if (start.upper === 'EXPLAIN') rules.explain(tokens, first + 1);
  for (let i = 0; i < tokens.length; i++) rules.token(tokens, i);
}

/** What follows EXPLAIN (after the engine's own options, from `at`) must be a SELECT or WITH. */
export function requireExplainedRead(tokens: readonly Token[], at: number): void {
  const target = tokens[firstKeywordIndex(tokens.slice(at)) + at];
  if (target?.kind !== 'word' || (target.upper !== 'SELECT' && target.upper !== 'WITH')) {
    refuse(REASONS.explainOther);
  }
}
