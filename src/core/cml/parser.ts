// Recursive descent over the lexer's tokens, building the syntax tree of one file. It never throws and
// never stops at the first mistake: each error is reported at the offending token, then the parser skips
// to a place it can trust again (the start of the next line, a `}` of the current block, or, at the top
// level, the next `node` / `reveal`) so one slip yields one diagnostic, not a cascade.
import type { SourceSpan } from '../semantic/model.js';
import type { CmlDocument, ListItem, ListValue, MapEntry, MapValue, MemberDecl, MemberKind, Name, PathValue, Property, TopDecl, Value } from './ast.js';
import type { DiagnosticSink } from './diagnostics.js';
import { Lexer, type Token } from './lexer.js';
import { SQL_KEYS } from './schema.js';
import { didYouMean } from './suggest.js';

const TOP_KEYWORDS = ['node', 'reveal'] as const;
const NODE_MEMBERS: ReadonlySet<string> = new Set(['dimension', 'measure', 'join', 'data_key', 'rollup']);
const REVEAL_MEMBERS: ReadonlySet<string> = new Set(['metric']);
const NO_MEMBERS: ReadonlySet<string> = new Set();
/** A line starting with one of these inside a member block means its `}` is missing. */
const LEAF_CLOSERS: ReadonlySet<string> = new Set([...NODE_MEMBERS, ...REVEAL_MEMBERS, ...TOP_KEYWORDS]);
const TOP_CLOSERS: ReadonlySet<string> = new Set(TOP_KEYWORDS);

interface Body {
  readonly properties: Property[];
  readonly members: MemberDecl[];
  readonly end: SourceSpan;
}

export function parseDocument(file: string, text: string, sink: DiagnosticSink): CmlDocument {
  return { file, declarations: new Parser(new Lexer(text, file, sink), sink).parseDeclarations() };
}

class Parser {
  private readonly lookahead: Token[] = [];
  private previous: Token | undefined;

  constructor(
    private readonly lexer: Lexer,
    private readonly sink: DiagnosticSink,
  ) {}

  parseDeclarations(): TopDecl[] {
    const declarations: TopDecl[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === 'eof') return declarations;
      if (token.kind === 'name' && (token.value === 'node' || token.value === 'reveal')) {
        const declaration = this.parseTop();
        if (declaration) declarations.push(declaration);
        continue;
      }
      const hint = token.kind === 'name' ? didYouMean(token.value, TOP_KEYWORDS) : '';
      this.sink.report('CML004', token.span, `expected \`node\` or \`reveal\`, found ${describe(token)}${hint}`);
      this.skipToNextDeclaration();
    }
  }

  private parseTop(): TopDecl | undefined {
    const keyword = this.take();
    const kind = keyword.value as 'node' | 'reveal';
    const name = this.parseDeclName(keyword);
    const open = this.peek();
    if (open.kind !== '{') {
      this.sink.report('CML004', open.span, `expected \`{\` after \`${kind}${name ? ` ${name.name}` : ''}\`, found ${describe(open)}`);
      this.skipToNextDeclaration();
      return undefined;
    }
    this.take();
    const what = `${kind} \`${name?.name ?? '?'}\``;
    const body = this.parseBody(kind === 'node' ? NODE_MEMBERS : REVEAL_MEMBERS, TOP_CLOSERS, open, what);
    if (!name) return undefined;
    return { kind, name, properties: body.properties, members: body.members, span: join(keyword.span, body.end) };
  }

  private parseDeclName(keyword: Token): Name | undefined {
    const token = this.peek();
    if (token.kind === 'name') {
      this.take();
      return { name: token.value, span: token.span };
    }
    this.sink.report('CML004', token.span, `expected a name after \`${keyword.value}\`, found ${describe(token)}`);
    return undefined;
  }

  /** The inside of `{ ... }` after `open`, through the closing `}`. */
  private parseBody(members: ReadonlySet<string>, closers: ReadonlySet<string>, open: Token, what: string): Body {
    const properties: Property[] = [];
    const parsedMembers: MemberDecl[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === '}') {
        this.take();
        return { properties, members: parsedMembers, end: token.span };
      }
      if (token.kind === 'eof') {
        this.sink.report('CML005', open.span, `\`{\` of ${what} is never closed`);
        return { properties, members: parsedMembers, end: this.previous?.span ?? open.span };
      }
      if (token.kind === 'name') {
        const next = this.peek(1);
        if (next.kind === ':') {
          properties.push(this.parseProperty());
          continue;
        }
        if (members.has(token.value) && (next.kind === 'name' || next.kind === '{')) {
          const member = this.parseMember();
          if (member) parsedMembers.push(member);
          continue;
        }
        const misplaced = members === NODE_MEMBERS ? REVEAL_MEMBERS : members === REVEAL_MEMBERS ? NODE_MEMBERS : NO_MEMBERS;
        if (misplaced.has(token.value) && next.kind === 'name') {
          const home = members === NODE_MEMBERS ? 'a reveal' : 'a node';
          this.sink.report('CML004', token.span, `\`${token.value}\` is declared in ${home}, not in ${what}`);
          this.skipInBlock();
          continue;
        }
        if (closers.has(token.value) && next.kind === 'name' && this.startsLine(token)) {
          this.sink.report('CML005', open.span, `\`{\` of ${what} is never closed (\`${token.value} ${next.value}\` on line ${token.span.line} starts a new block)`);
          return { properties, members: parsedMembers, end: this.previous?.span ?? open.span };
        }
        const expected = members.size > 0 ? `a property (\`${token.value}: value\`) or one of ${[...members].map((m) => `\`${m}\``).join(', ')}` : `\`:\` after \`${token.value}\``;
        const sameLine = next.kind !== 'eof' && next.span.line === token.span.endLine;
        if (sameLine) this.sink.report('CML004', next.span, `expected ${expected}, found ${describe(next)}`);
        else this.sink.report('CML004', token.span, `expected ${expected}`);
        this.skipInBlock();
        continue;
      }
      this.sink.report('CML004', token.span, `expected a property or \`}\` in ${what}, found ${describe(token)}`);
      this.skipInBlock();
    }
  }

  private parseMember(): MemberDecl | undefined {
    const keyword = this.take();
    const kind = keyword.value as MemberKind;
    const name = this.parseDeclName(keyword);
    const target = name && this.peek().kind === ':' ? this.parseJoinTarget(kind, name) : undefined;
    if (target === null) {
      this.skipInBlock();
      return undefined;
    }
    const open = this.peek();
    if (open.kind !== '{') {
      this.sink.report('CML004', open.span, `expected \`{\` after \`${kind} ${name?.name ?? ''}${target ? `: ${target.name}` : ''}\`, found ${describe(open)}`);
      this.skipInBlock();
      return undefined;
    }
    this.take();
    const body = this.parseBody(NO_MEMBERS, LEAF_CLOSERS, open, `${kind} \`${name?.name ?? '?'}\``);
    if (!name) return undefined;
    return { kind, name, ...(target ? { target } : {}), properties: body.properties, span: join(keyword.span, body.end) };
  }

  /**
   * At `:` after `join alias`: the node the role joins. Null (reported) when it is not there or the
   * member is not a join; only a join plays a role.
   */
  private parseJoinTarget(kind: MemberKind, alias: Name): Name | null {
    const colon = this.take();
    if (kind !== 'join') {
      this.sink.report('CML004', colon.span, `only a join takes a role name (\`join ${alias.name}: node\`); write \`${kind} ${alias.name} { ... }\``);
      return null;
    }
    const token = this.peek();
    if (token.kind !== 'name' || token.span.line !== colon.span.line) {
      this.sink.report('CML004', token.span, `expected the node joined in role \`${alias.name}\` after \`:\`, found ${describe(token)}`);
      return null;
    }
    this.take();
    return { name: token.value, span: token.span };
  }

  /** At `key :`. SQL keys hand over to the lexer's SQL rules; the rest are values on the same line. */
  private parseProperty(): Property {
    const keyToken = this.take();
    const colon = this.take();
    const key: Name = { name: keyToken.value, span: keyToken.span };
    if (SQL_KEYS.has(key.name)) {
      const value = this.lexer.readSql(); // nothing is buffered: the lexer stands right after the `:`
      if (!value) this.sink.report('CML006', key.span, `\`${key.name}:\` needs SQL on the same line (or between \`"""\` quotes)`);
      return { key, value };
    }
    const skippedBefore = this.lexer.unexpectedRuns;
    const token = this.peek();
    const startsValue = token.kind === 'name' || token.kind === 'string' || token.kind === 'number' || token.kind === '[' || token.kind === '{';
    if (!startsValue || token.span.line !== colon.span.endLine) {
      // A value of unexpected characters (`label: 'x'`) was reported by the lexer already.
      if (this.lexer.unexpectedRuns === skippedBefore) this.sink.report('CML006', key.span, `\`${key.name}:\` needs a value on the same line`);
      return { key, value: undefined };
    }
    return { key, value: this.parseValue() };
  }

  private parseValue(): Value {
    const token = this.peek();
    if (token.kind === '[') return this.parseList();
    if (token.kind === '{') return this.parseMap();
    return this.parseItem();
  }

  /**
   * `{ key: value ... }` over any number of lines; entries are separated by blanks, new lines or
   * commas. A line starting a new block (`dimension x`, `node y`) means the `}` is missing.
   */
  private parseMap(): MapValue {
    const open = this.take();
    const entries: MapEntry[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === '}') {
        this.take();
        return { kind: 'map', entries, span: join(open.span, token.span) };
      }
      const startsBlock = token.kind === 'name' && LEAF_CLOSERS.has(token.value) && this.peek(1).kind === 'name' && this.startsLine(token);
      if (token.kind === 'eof' || startsBlock) {
        this.sink.report('CML005', open.span, '`{` of this map is never closed by `}`');
        return { kind: 'map', entries, span: join(open.span, this.previous?.span ?? open.span) };
      }
      if (token.kind === ',') {
        this.take();
        continue;
      }
      const isKey = token.kind === 'name' || token.kind === 'string' || token.kind === 'number';
      if (!isKey || this.peek(1).kind !== ':') {
        const at = isKey ? this.peek(1) : token;
        this.sink.report('CML004', at.span, `expected \`key: [words]\` in the map, found ${describe(at)}`);
        this.take();
        if (isKey) this.skipToLineEnd(token);
        continue;
      }
      this.take();
      const colon = this.take();
      const value = this.peek();
      const startsValue = value.kind === 'name' || value.kind === 'string' || value.kind === 'number' || value.kind === '[';
      if (!startsValue || value.span.line !== colon.span.endLine) {
        this.sink.report('CML006', token.span, `\`${token.value}:\` needs a value on the same line`);
        continue;
      }
      entries.push({ key: { value: token.value, span: token.span }, value: value.kind === '[' ? this.parseList() : this.parseItem() });
    }
  }

  /** Skips the rest of the line of `from`, stopping before a `}`. */
  private skipToLineEnd(from: Token): void {
    for (let token = this.peek(); token.kind !== 'eof' && token.kind !== '}' && token.span.line === from.span.line; token = this.peek()) this.take();
  }

  private parseItem(): ListItem {
    const token = this.take();
    if (token.kind === 'string') return { kind: 'string', value: token.value, span: token.span };
    if (token.kind === 'number') return { kind: 'number', value: token.value, span: token.span };
    return this.parsePathFrom(token);
  }

  private parsePathFrom(first: Token): PathValue {
    const segments: Name[] = [{ name: first.value, span: first.span }];
    while (this.peek().kind === '.') {
      const dot = this.take();
      const next = this.peek();
      if (next.kind !== 'name' || next.span.line !== dot.span.line) {
        this.sink.report('CML004', next.span, `expected a name after \`.\`, found ${describe(next)}`);
        break;
      }
      this.take();
      segments.push({ name: next.value, span: next.span });
    }
    return { kind: 'path', segments, span: join(first.span, segments[segments.length - 1]!.span) };
  }

  private parseList(): ListValue {
    const open = this.take();
    const items: ListItem[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === ']') {
        this.take();
        return { kind: 'list', items, span: join(open.span, token.span) };
      }
      const nextLineProperty = token.kind === 'name' && this.startsLine(token) && this.peek(1).kind === ':';
      if (token.kind === 'eof' || token.kind === '}' || nextLineProperty) {
        this.sink.report('CML005', open.span, '`[` is never closed by `]`');
        return { kind: 'list', items, span: join(open.span, this.previous?.span ?? open.span) };
      }
      if (token.kind === 'name' || token.kind === 'string' || token.kind === 'number') items.push(this.parseItem());
      else {
        this.sink.report('CML004', token.span, `expected a name or a "string" in the list, found ${describe(token)}`);
        this.take();
        continue;
      }
      const separator = this.peek();
      if (separator.kind === ',') this.take();
      else if (separator.kind === 'name' || separator.kind === 'string' || separator.kind === 'number') {
        if (!(separator.kind === 'name' && this.startsLine(separator) && this.peek(1).kind === ':')) {
          this.sink.report('CML004', separator.span, 'expected `,` between list items');
        }
      }
    }
  }

  /**
   * Skips the rest of a broken line inside a block: through the next token, then up to a token
   * that starts a line, a `name:` that starts a property, or a `}` of this block. Braces in between
   * are skipped as pairs.
   */
  private skipInBlock(): void {
    let depth = 0;
    let first = true;
    for (;;) {
      const token = this.peek();
      if (token.kind === 'eof') return;
      if (depth === 0 && (token.kind === '}' || (!first && this.startsLine(token)))) return;
      // `type: sum, sql: x`: resume at the next property of the same line.
      if (depth === 0 && !first && token.kind === 'name' && this.peek(1).kind === ':') return;
      this.take();
      if (token.kind === '{') depth++;
      else if (token.kind === '}' && depth > 0) depth--;
      first = false;
    }
  }

  /** Skips to the next `node` or `reveal` that starts a line outside any braces. */
  private skipToNextDeclaration(): void {
    let depth = 0;
    let first = true;
    for (;;) {
      const token = this.peek();
      if (token.kind === 'eof') return;
      const startsDeclaration = token.kind === 'name' && (token.value === 'node' || token.value === 'reveal') && this.startsLine(token);
      if (!first && depth === 0 && startsDeclaration) return;
      this.take();
      if (token.kind === '{') depth++;
      else if (token.kind === '}' && depth > 0) depth--;
      first = false;
    }
  }

  private startsLine(token: Token): boolean {
    return this.previous === undefined || token.span.line > this.previous.span.endLine;
  }

  private peek(offset = 0): Token {
    while (this.lookahead.length <= offset) this.lookahead.push(this.lexer.next());
    return this.lookahead[offset]!;
  }

  private take(): Token {
    const token = this.peek();
    this.lookahead.shift();
    this.previous = token;
    return token;
  }
}

function describe(token: Token): string {
  if (token.kind === 'eof') return 'the end of the file';
  if (token.kind === 'name') return `\`${token.value}\``;
  if (token.kind === 'string') return 'a string';
  if (token.kind === 'number') return `\`${token.value}\``;
  return `\`${token.kind}\``;
}

function join(start: SourceSpan, end: SourceSpan): SourceSpan {
  return { file: start.file, line: start.line, column: start.column, endLine: end.endLine, endColumn: end.endColumn };
}
