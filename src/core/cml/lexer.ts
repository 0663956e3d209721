// Turns CML text into tokens, on demand. The parser pulls one token at a time because SQL values are
// not tokens: after `sql:`, `filter:`, `on:` or `expr:` the parser asks for `readSql()` instead, which
// reads raw SQL by the rules in docs/cml.md (to the end of the line or the `}` closing a one-line block,
// or between `"""` quotes) and splits out `${...}` references. Never throws: every oddity is reported
// and skipped.
import type { SourceSpan } from '../semantic/model.js';
import type { Name, SqlChunk, SqlReference, SqlValue } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import { ALL_PROPERTY_KEYS } from './schema.js';
import { dedent, pushText, trimChunks, unescape } from './text-values.js';

export type TokenKind = 'name' | 'string' | 'number' | '{' | '}' | '[' | ']' | ':' | ',' | '.' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The name, the decoded string, the number as written, or the punctuation. */
  readonly value: string;
  readonly span: SourceSpan;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const DOLLAR = 36;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKTICK = 96;
const LBRACE = 123;
const RBRACE = 125;
const DOT = 46;
const COLON = 58;
const MINUS = 45;
const BACKSLASH = 92;

const PUNCTUATION: ReadonlyMap<number, TokenKind> = new Map<number, TokenKind>([
  [LBRACE, '{'],
  [RBRACE, '}'],
  [91, '['],
  [93, ']'],
  [COLON, ':'],
  [44, ','],
  [DOT, '.'],
]);

const FOREIGN_LETTER = /^[\p{L}\p{M}]$/u;
const isBlank = (c: number) => c === SPACE || c === TAB || c === CR;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isNamePart = (c: number) => isNameStart(c) || isDigit(c);

export class Lexer {
  /** How many runs of unexpected characters were reported: lets the parser avoid a second report. */
  unexpectedRuns = 0;
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly sink: DiagnosticSink,
  ) {}

  next(): Token {
    for (;;) {
      this.skipTrivia();
      const line = this.line;
      const column = this.column();
      if (this.pos >= this.text.length) return this.token('eof', '', line, column);
      const c = this.code(this.pos);
      if (isNameStart(c) || this.atForeignLetter()) return this.readName(line, column);
      if (isDigit(c) || (c === MINUS && isDigit(this.code(this.pos + 1)))) return this.readNumber(line, column);
      if (c === DOUBLE_QUOTE) return this.text.startsWith('"""', this.pos) ? this.readTripleString(line, column) : this.readString(line, column);
      const punctuation = PUNCTUATION.get(c);
      if (punctuation) {
        this.pos++;
        return this.token(punctuation, punctuation, line, column);
      }
      this.skipUnexpected(line, column);
    }
  }

  /**
   * Reads a SQL value right after `key:`. Undefined when there is none on this line (the caller reports
   * it). A one-line value ends at the end of the line, at a `#` comment, or at a `}` that closes the
   * enclosing block (braces inside the SQL pair up; quotes protect everything).
   */
  readSql(): SqlValue | undefined {
    while (this.pos < this.text.length && isBlank(this.code(this.pos))) this.pos++;
    if (this.text.startsWith('"""', this.pos)) return this.readTripleSql();
    return this.readLineSql();
  }

  private readLineSql(): SqlValue | undefined {
    const start = this.pos;
    const line = this.line;
    const column = this.column();
    const chunks: SqlChunk[] = [];
    let textStart = start;
    let lastEnd = start; // just after the last non-blank character: trailing blanks are not SQL
    let quote = 0;
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.code(this.pos);
      if (c === NL) break;
      if (c === DOLLAR && this.code(this.pos + 1) === LBRACE) {
        pushText(chunks, this.text.slice(textStart, this.pos));
        const ref = this.readReference();
        if (ref) chunks.push(ref);
        textStart = lastEnd = this.pos;
        continue;
      }
      if (quote !== 0) {
        if (c === quote) quote = 0;
        this.pos++;
        lastEnd = this.pos;
        continue;
      }
      if (c === HASH) break;
      if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE || c === BACKTICK) quote = c;
      else if (c === LBRACE) depth++;
      else if (c === RBRACE) {
        if (depth === 0) break;
        depth--;
      } else if (isNameStart(c) && this.pos > start && isBlank(this.code(this.pos - 1))) {
        const wordStart = this.pos;
        while (isNamePart(this.code(this.pos))) this.pos++;
        if (this.looksLikeProperty(wordStart)) {
          const word = this.text.slice(wordStart, this.pos);
          this.sink.report(
            'CML007',
            this.spanAt(line, wordStart, this.pos),
            `\`${word}:\` inside one-line SQL: one-line SQL runs to the end of the line, so put \`${word}:\` on its own line or before the SQL property`,
          );
          // Stop the SQL here so `word: value` still parses as the property the author meant.
          this.pos = wordStart;
          break;
        }
        lastEnd = this.pos;
        continue;
      }
      this.pos++;
      if (!isBlank(c)) lastEnd = this.pos;
    }
    pushText(chunks, this.text.slice(textStart, lastEnd));
    if (lastEnd === start) return undefined; // nothing at all; a broken `${...}` still counts as written
    return { kind: 'sql', chunks, span: { file: this.file, line, column, endLine: line, endColumn: column + (lastEnd - start) } };
  }

  /** After the name at `wordStart`: `word:` followed by a blank, and `word` is a CML property. */
  private looksLikeProperty(wordStart: number): boolean {
    if (this.code(this.pos) !== COLON) return false;
    const after = this.code(this.pos + 1);
    if (!(this.pos + 1 >= this.text.length || isBlank(after) || after === NL)) return false;
    return ALL_PROPERTY_KEYS.has(this.text.slice(wordStart, this.pos));
  }

  private readTripleSql(): SqlValue {
    const line = this.line;
    const column = this.column();
    this.pos += 3;
    const chunks: SqlChunk[] = [];
    let textStart = this.pos;
    let closed = false;
    while (this.pos < this.text.length) {
      if (this.text.startsWith('"""', this.pos)) {
        closed = true;
        break;
      }
      const c = this.code(this.pos);
      if (c === DOLLAR && this.code(this.pos + 1) === LBRACE) {
        pushText(chunks, this.text.slice(textStart, this.pos));
        const ref = this.readReference();
        if (ref) chunks.push(ref);
        textStart = this.pos;
      } else if (c === NL) this.newline();
      else this.pos++;
    }
    pushText(chunks, this.text.slice(textStart, this.pos));
    if (closed) this.pos += 3;
    else this.sink.report('CML002', { file: this.file, line, column, endLine: line, endColumn: column + 3 }, '`"""` is never closed');
    return { kind: 'sql', chunks: trimChunks(chunks), span: { file: this.file, line, column, endLine: this.line, endColumn: this.column() } };
  }

  /** At `${`: reads `${name}` or `${node.name}`; on anything else reports and skips to the `}`. */
  private readReference(): SqlReference | undefined {
    const line = this.line;
    const start = this.pos;
    this.pos += 2;
    const segments: Name[] = [];
    let wellFormed = true;
    for (;;) {
      this.skipBlanks();
      if (!isNameStart(this.code(this.pos))) {
        wellFormed = false;
        break;
      }
      const nameStart = this.pos;
      while (isNamePart(this.code(this.pos))) this.pos++;
      segments.push({ name: this.text.slice(nameStart, this.pos), span: this.spanAt(line, nameStart, this.pos) });
      this.skipBlanks();
      if (this.code(this.pos) !== DOT) break;
      this.pos++;
    }
    if (wellFormed && this.code(this.pos) === RBRACE && segments.length <= 2) {
      this.pos++;
      return { kind: 'ref', segments, span: this.spanAt(line, start, this.pos) };
    }
    while (this.pos < this.text.length && this.code(this.pos) !== RBRACE && this.code(this.pos) !== NL) this.pos++;
    const closed = this.code(this.pos) === RBRACE;
    if (closed) this.pos++;
    const message = !closed
      ? '`${` is not closed by `}` on the same line'
      : segments.length > 2
        ? 'a reference has one or two parts: `${field}`, `${TABLE}`, `${node.field}` or `${node.TABLE}`'
        : 'expected a name inside `${...}`, such as `${TABLE}`, `${field}` or `${node.field}`';
    this.sink.report('CML003', this.spanAt(line, start, this.pos), message);
    return undefined;
  }

  private readString(line: number, column: number): Token {
    this.pos++;
    let value = '';
    let chunkStart = this.pos;
    for (;;) {
      const c = this.code(this.pos);
      if (this.pos >= this.text.length || c === NL) {
        value += this.text.slice(chunkStart, this.pos);
        this.sink.report('CML002', this.spanAt(line, this.lineStart + column - 1, this.pos), 'string is not closed by `"` on the same line');
        return this.token('string', value, line, column);
      }
      if (c === DOUBLE_QUOTE) {
        value += this.text.slice(chunkStart, this.pos);
        this.pos++;
        return this.token('string', value, line, column);
      }
      if (c === BACKSLASH && this.pos + 1 < this.text.length && this.code(this.pos + 1) !== NL) {
        value += this.text.slice(chunkStart, this.pos) + unescape(this.text[this.pos + 1]!);
        this.pos += 2;
        chunkStart = this.pos;
        continue;
      }
      this.pos++;
    }
  }

  private readTripleString(line: number, column: number): Token {
    const close = this.text.indexOf('"""', this.pos + 3);
    const end = close < 0 ? this.text.length : close;
    const raw = this.text.slice(this.pos + 3, end);
    this.moveTo(close < 0 ? end : end + 3);
    if (close < 0) this.sink.report('CML002', { file: this.file, line, column, endLine: line, endColumn: column + 3 }, '`"""` is never closed');
    return this.token('string', dedent(raw), line, column);
  }

  /**
   * Names are ASCII (they end up in SQL aliases and URLs). A word with other letters is still read as
   * one name, so `Käufer` costs one diagnostic rather than a cascade; quoting it is the fix.
   */
  private readName(line: number, column: number): Token {
    const start = this.pos;
    let foreign = -1;
    for (;;) {
      if (isNamePart(this.code(this.pos))) this.pos++;
      else if (this.atForeignLetter()) {
        if (foreign < 0) foreign = this.pos;
        this.pos += this.code(this.pos) >= 0xd800 && this.code(this.pos) <= 0xdbff ? 2 : 1;
      } else break;
    }
    const name = this.text.slice(start, this.pos);
    if (foreign >= 0) {
      const char = String.fromCodePoint(this.text.codePointAt(foreign)!);
      this.sink.report('CML001', this.spanAt(line, foreign, foreign + char.length), `unexpected character \`${char}\` in \`${name}\`: names use the letters a-z, digits and \`_\`; write other text in double quotes`);
    }
    return this.token('name', name, line, column);
  }

  private atForeignLetter(): boolean {
    return this.code(this.pos) > 127 && FOREIGN_LETTER.test(String.fromCodePoint(this.text.codePointAt(this.pos)!));
  }

  private readNumber(line: number, column: number): Token {
    const start = this.pos;
    if (this.code(this.pos) === MINUS) this.pos++;
    while (isDigit(this.code(this.pos))) this.pos++;
    if (this.code(this.pos) === DOT && isDigit(this.code(this.pos + 1))) {
      this.pos++;
      while (isDigit(this.code(this.pos))) this.pos++;
    }
    return this.token('number', this.text.slice(start, this.pos), line, column);
  }

  /**
   * Consumes a run of characters no token starts with, and reports it once. A `${...}` outside SQL and
   * a 'single-quoted string' are one run each, so their insides do not read as tokens.
   */
  private skipUnexpected(line: number, column: number): void {
    const start = this.pos;
    const first = this.text.codePointAt(this.pos)!;
    const closer = first === SINGLE_QUOTE ? "'" : first === DOLLAR && this.code(this.pos + 1) === LBRACE ? '}' : undefined;
    if (closer) {
      const close = this.text.indexOf(closer, this.pos + 1);
      const newline = this.text.indexOf('\n', this.pos);
      this.pos = close >= 0 && (newline < 0 || close < newline) ? close + 1 : this.pos + 1;
    } else {
      do this.pos += this.code(this.pos) >= 0xd800 && this.code(this.pos) <= 0xdbff ? 2 : 1;
      while (this.pos < this.text.length && !this.startsToken(this.code(this.pos)));
      this.pos = Math.min(this.pos, this.text.length);
    }
    this.unexpectedRuns++;
    const char = String.fromCodePoint(first);
    const message =
      first === DOLLAR
        ? '`$` only means something inside SQL values (`sql:`, `filter:`, `on:`, `expr:`)'
        : first === SINGLE_QUOTE
          ? "strings use double quotes: \"like this\""
          : first > 127
            ? `unexpected character \`${char}\`: names use the letters a-z, digits and \`_\`; write other text in double quotes`
            : `unexpected character \`${char}\``;
    this.sink.report('CML001', this.spanAt(line, start, this.pos, column), message);
  }

  private startsToken(c: number): boolean {
    return isBlank(c) || c === NL || c === HASH || isNamePart(c) || c === DOUBLE_QUOTE || PUNCTUATION.has(c) || this.atForeignLetter();
  }

  private skipTrivia(): void {
    while (this.pos < this.text.length) {
      const c = this.code(this.pos);
      if (isBlank(c)) this.pos++;
      else if (c === NL) this.newline();
      else if (c === HASH) {
        while (this.pos < this.text.length && this.code(this.pos) !== NL) this.pos++;
      } else return;
    }
  }

  private skipBlanks(): void {
    while (isBlank(this.code(this.pos))) this.pos++;
  }

  private newline(): void {
    this.pos++;
    this.line++;
    this.lineStart = this.pos;
  }

  private moveTo(target: number): void {
    while (this.pos < target) {
      if (this.code(this.pos) === NL) this.newline();
      else this.pos++;
    }
  }

  private code(pos: number): number {
    return this.text.charCodeAt(pos); // NaN past the end: compares false with everything
  }

  private column(): number {
    return this.pos - this.lineStart + 1;
  }

  /** A span on the current line from offset `start` to offset `end`. */
  private spanAt(line: number, start: number, end: number, column = start - this.lineStart + 1): SourceSpan {
    return { file: this.file, line, column, endLine: line, endColumn: column + (end - start) };
  }

  private token(kind: TokenKind, value: string, line: number, column: number): Token {
    return { kind, value, span: { file: this.file, line, column, endLine: this.line, endColumn: this.column() } };
  }
}
