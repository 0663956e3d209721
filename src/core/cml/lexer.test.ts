import { describe, expect, it } from 'vitest';
import type { SqlValue } from './ast.js';
import { DiagnosticSink } from './diagnostics.js';
import { Lexer, type Token } from './lexer.js';
import { dedent } from './text-values.js';

function tokens(text: string): { tokens: Token[]; sink: DiagnosticSink } {
  const sink = new DiagnosticSink();
  const lexer = new Lexer(text, 'f.cml', sink);
  const out: Token[] = [];
  for (let t = lexer.next(); t.kind !== 'eof'; t = lexer.next()) out.push(t);
  return { tokens: out, sink };
}

/** Lexes up to the first `:`, then reads SQL; returns the value and what the next token is. */
function sqlAfterColon(text: string): { value: SqlValue | undefined; next: Token; sink: DiagnosticSink } {
  const sink = new DiagnosticSink();
  const lexer = new Lexer(text, 'f.cml', sink);
  while (lexer.next().kind !== ':');
  const value = lexer.readSql();
  return { value, next: lexer.next(), sink };
}

const text = (value: SqlValue | undefined) => value?.chunks.map((c) => (c.kind === 'text' ? c.text : `<${c.segments.map((s) => s.name).join('.')}>`)).join('');

describe('Lexer tokens', () => {
  it('reads names, strings, numbers and punctuation with 1-based spans, skipping # comments', () => {
    const { tokens: ts, sink } = tokens('node a { # comment\n  tags: [x, "y \\"z\\""] n: -1.5 }');
    expect(ts.map((t) => [t.kind, t.value])).toEqual([
      ['name', 'node'],
      ['name', 'a'],
      ['{', '{'],
      ['name', 'tags'],
      [':', ':'],
      ['[', '['],
      ['name', 'x'],
      [',', ','],
      ['string', 'y "z"'],
      [']', ']'],
      ['name', 'n'],
      [':', ':'],
      ['number', '-1.5'],
      ['}', '}'],
    ]);
    expect(ts[3]!.span).toEqual({ file: 'f.cml', line: 2, column: 3, endLine: 2, endColumn: 7 });
    expect(sink.diagnostics).toEqual([]);
  });

  it('reads """ strings across lines, dropping blank edge lines and common indentation', () => {
    const { tokens: ts } = tokens('description: """\n    One row per order.\n      Indented.\n    """ label: "x"');
    expect(ts[2]).toMatchObject({ kind: 'string', value: 'One row per order.\n  Indented.', span: { line: 1, column: 14, endLine: 4, endColumn: 8 } });
    expect(ts[3]!.span).toMatchObject({ line: 4, column: 9 });
  });

  it('reports each run of unexpected characters once and carries on', () => {
    const { tokens: ts, sink } = tokens('a %%% b ; c');
    expect(ts.map((t) => t.value)).toEqual(['a', 'b', 'c']);
    expect(sink.diagnostics.map((d) => [d.code, d.column, d.endColumn])).toEqual([
      ['CML001', 3, 6],
      ['CML001', 9, 10],
    ]);
  });

  it('dedent keeps relative indentation and strips carriage returns', () => {
    expect(dedent('\r\n  a\r\n    b\r\n  ')).toBe('a\n  b');
  });
});

describe('Lexer SQL values', () => {
  it('one-line SQL runs to the end of the line, without trailing blanks or the comment', () => {
    const { value, next } = sqlAfterColon('sql: ${TABLE}.amount * 2   # dollars\nlabel: "x"');
    expect(text(value)).toBe('<TABLE>.amount * 2');
    expect(value!.span).toMatchObject({ line: 1, column: 6, endLine: 1, endColumn: 25 });
    expect(next).toMatchObject({ kind: 'name', value: 'label', span: { line: 2, column: 1 } });
  });

  it('stops at the } that closes a one-line block, but not at braces it opened or inside quotes', () => {
    const { value, next } = sqlAfterColon("{ sql: coalesce(${x}, '}', \"#{y}\", {fn now()}) }");
    expect(text(value)).toBe("coalesce(<x>, '}', \"#{y}\", {fn now()})");
    expect(next.kind).toBe('}');
  });

  it('keeps # and ${} alike inside SQL string literals, resolving references there too', () => {
    const { value } = sqlAfterColon("filter: ${status} = '#1 ${code}'");
    expect(text(value)).toBe("<status> = '#1 <code>'");
  });

  it('gives references the span of ${...} and their parts', () => {
    const { value } = sqlAfterColon('on: ${ orders.customer_id } = ${customers.id}');
    const [first] = value!.chunks;
    expect(first).toMatchObject({ kind: 'ref', span: { line: 1, column: 5, endColumn: 28 } });
    if (first?.kind !== 'ref') throw new Error('expected a reference');
    expect(first.segments.map((s) => [s.name, s.span.column])).toEqual([
      ['orders', 8],
      ['customer_id', 15],
    ]);
  });

  it('leaves $ without { alone (positional parameters, dollar quotes)', () => {
    expect(text(sqlAfterColon('sql: $1 || $$x$$').value)).toBe('$1 || $$x$$');
  });

  it('reads """ SQL across lines, trimmed at both ends, with references on later lines', () => {
    const { value, next } = sqlAfterColon('sql: """\n  select *\n  from ${TABLE}\n""" label: "x"');
    expect(text(value)).toBe('select *\n  from <TABLE>');
    const ref = value!.chunks[1]!;
    expect(ref).toMatchObject({ kind: 'ref', span: { line: 3, column: 8 } });
    expect(value!.span).toMatchObject({ line: 1, column: 6, endLine: 4, endColumn: 4 });
    expect(next).toMatchObject({ value: 'label', span: { line: 4, column: 5 } });
  });

  it('returns nothing when the line holds no SQL', () => {
    expect(sqlAfterColon('sql:   # nothing\n').value).toBeUndefined();
    expect(sqlAfterColon('{ sql: }').value).toBeUndefined();
  });

  it('ends one-line SQL before a property name written after it, and says so', () => {
    const { value, next, sink } = sqlAfterColon('sql: ${amount} * x::numeric  format: currency');
    expect(text(value)).toBe('<amount> * x::numeric');
    expect(next.value).toBe('format');
    expect(sink.diagnostics.map((d) => [d.code, d.column])).toEqual([['CML007', 30]]);
  });

  it('does not mistake SQL for a property: casts, words that are not properties, names inside quotes', () => {
    for (const sql of ["x::date", "case when a then 'label: b' end", 'json_col:label', 'interval: 1']) {
      const { value, sink } = sqlAfterColon(`sql: ${sql}`);
      expect(text(value)).toBe(sql);
      expect(sink.diagnostics).toEqual([]);
    }
  });
});
