import { describe, expect, it } from 'vitest';
import { DiagnosticSink } from './diagnostics.js';
import { parseDocument } from './parser.js';
import { at, positions } from './test-helpers.js';

function parse(text: string) {
  const sink = new DiagnosticSink();
  const document = parseDocument('f.cml', text, sink);
  return { document, diagnostics: sink.sorted() };
}

describe('parseDocument', () => {
  it('builds declarations, members and properties, several to a line', () => {
    const { document, diagnostics } = parse(
      'node orders {\n  connection: warehouse  table: shop.orders\n  tags: [a, "b c",]\n  dimension id { type: number  primary_key: true }\n}\nreveal sales { base: orders\n  metric m { measure: orders.revenue } }\n',
    );
    expect(diagnostics).toEqual([]);
    const [node, reveal] = document.declarations;
    expect(node).toMatchObject({ kind: 'node', name: { name: 'orders' }, span: { line: 1, column: 1, endLine: 5, endColumn: 2 } });
    expect(node!.properties.map((p) => p.key.name)).toEqual(['connection', 'table', 'tags']);
    expect(node!.properties[1]!.value).toMatchObject({ kind: 'path', segments: [{ name: 'shop' }, { name: 'orders' }] });
    expect(node!.properties[2]!.value).toMatchObject({ kind: 'list', items: [{ kind: 'path' }, { kind: 'string', value: 'b c' }] });
    expect(node!.members[0]).toMatchObject({ kind: 'dimension', name: { name: 'id' }, properties: [{ key: { name: 'type' } }, { key: { name: 'primary_key' } }] });
    expect(reveal).toMatchObject({ kind: 'reveal', members: [{ kind: 'metric', name: { name: 'm' } }] });
  });

  it('reports every mistake of a file at its own position and keeps the good declarations', () => {
    const text = [
      'node a {',
      '  connection: w',
      '  table t', // missing colon
      '  dimension x { type: string }',
      '  measure { type: count }', // missing name
      '}',
      'nodes b { }', // misspelled keyword
      'node c {',
      '  dimension y { type: string  label: }', // missing value
      '  dimension z { type: string  hidden: true }',
      '}',
    ].join('\n');
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([
      { code: 'CML004', ...at(text, 'table |t') },
      { code: 'CML004', ...at(text, 'measure |{') },
      { code: 'CML004', ...at(text, 'nodes') },
      { code: 'CML006', ...at(text, 'label: }') },
    ]);
    expect(document.declarations.map((d) => d.name.name)).toEqual(['a', 'c']);
    expect(document.declarations[0]!.members.map((m) => m.name.name)).toEqual(['x']);
    expect(document.declarations[1]!.members.map((m) => m.name.name)).toEqual(['y', 'z']);
  });

  it('reports a block left open at the end of the file at its `{`', () => {
    const text = 'node a {\n  connection: w\n  dimension x { type: string }\n';
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([{ code: 'CML005', ...at(text, 'a |{') }]);
    expect(document.declarations[0]!.members).toHaveLength(1);
  });

  it('closes a node whose `}` is missing when the next node starts, and parses that node', () => {
    const text = 'node a {\n  connection: w\n\nnode b {\n  connection: w\n}\n';
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([{ code: 'CML005', ...at(text, 'a |{') }]);
    expect(document.declarations.map((d) => d.name.name)).toEqual(['a', 'b']);
  });

  it('skips a stray `}` at the top level with one diagnostic', () => {
    const text = 'node a { connection: w }\n}\nnode b { connection: w }\n';
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([{ code: 'CML004', line: 2, column: 1 }]);
    expect(document.declarations.map((d) => d.name.name)).toEqual(['a', 'b']);
  });

  it('wants a value on the same line as its key', () => {
    const text = 'node a {\n  label:\n    "A"\n}\n';
    const { diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([
      { code: 'CML006', ...at(text, 'label') },
      { code: 'CML004', ...at(text, '"A"') },
    ]);
  });

  it('resumes at the next property of a broken line', () => {
    const text = 'node a {\n  measure m { type: sum, sql: ${x} }\n}';
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([{ code: 'CML004', ...at(text, ',') }]);
    expect(document.declarations[0]!.members[0]!.properties.map((p) => p.key.name)).toEqual(['type', 'sql']);
  });

  it('reports a value made of unexpected characters once', () => {
    for (const value of ["'Orders'", '${x}']) {
      const text = `node a {\n  label: ${value}\n  connection: w\n}`;
      const { document, diagnostics } = parse(text);
      expect(positions(diagnostics)).toEqual([{ code: 'CML001', ...at(text, value) }]);
      expect(document.declarations[0]!.properties.map((p) => p.key.name)).toEqual(['label', 'connection']);
    }
  });

  it('says where a member belongs when it is declared in the wrong kind of block', () => {
    const text = 'reveal r {\n  dimension d { type: string }\n  metric m { measure: x }\n}\nnode n {\n  metric k { measure: x }\n}';
    const { document, diagnostics } = parse(text);
    expect(positions(diagnostics)).toEqual([
      { code: 'CML004', ...at(text, 'dimension') },
      { code: 'CML004', ...at(text, 'metric k') },
    ]);
    expect(diagnostics[0]!.message).toBe('`dimension` is declared in a node, not in reveal `r`');
    expect(document.declarations[0]!.members.map((m) => m.name.name)).toEqual(['m']);
  });

  it('asks for commas between list items', () => {
    const text = 'node a { tags: [x y] }';
    expect(positions(parse(text).diagnostics)).toEqual([{ code: 'CML004', ...at(text, 'y]') }]);
  });
});
