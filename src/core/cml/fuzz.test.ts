// Property tests: whatever the input, compiling never throws, every diagnostic has a sane position
// inside the file, and the model is there exactly when no diagnostic is an error.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileModel, type CmlFile } from './index.js';

const DEMO_DIR = path.resolve(import.meta.dirname, '../../../demo/model');
const DEMO: CmlFile[] = readdirSync(DEMO_DIR)
  .filter((f) => f.endsWith('.cml'))
  .sort()
  .map((f) => ({ path: f, content: readFileSync(path.join(DEMO_DIR, f), 'utf8') }));
const DEMO_TEXT = DEMO.map((f) => f.content).join('\n');

function checkCompiles(files: CmlFile[]): void {
  const { model, diagnostics } = compileModel(files);
  const lineCounts = new Map(files.map((f) => [f.path, f.content.split('\n').length]));
  for (const d of diagnostics) {
    expect(lineCounts.has(d.file)).toBe(true);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.endLine).toBeLessThanOrEqual(lineCounts.get(d.file)!);
    expect(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column)).toBe(true);
    expect(d.code).toMatch(/^CML\d{3}$/);
  }
  expect(model === undefined).toBe(diagnostics.some((d) => d.severity === 'error'));
}

/** Pieces of CML, so random sequences reach deep into the grammar rather than failing at byte one. */
const FRAGMENTS = [
  'node', 'reveal', 'dimension', 'measure', 'join', 'data_key', 'metric', 'orders', 'customers', 'x',
  '{', '}', '[', ']', ':', ',', '.', '\n', ' ', '  ', '#', '"', '"""', '${', '${TABLE}', '${x}', '${orders.id}',
  'type: string', 'type: sum', 'type: number', 'sql:', 'sql: ${x} + 1', 'filter:', 'on:', 'expr: ${a} / ${b}',
  'connection: warehouse', 'table: shop.orders', 'label: "L"', 'base: orders', 'domain: d', 'time: orders.x',
  'relationship: one_to_many', 'measure: orders.x', 'tags: [a, "b"]', 'hidden: true', "'", '`', 'é', '\u{1F600}', '\r\n', '\t',
  'rollup', 'measures: [x]', 'dimensions: [x, y]', 'grain: day', 'partition: month', 'refresh: on_deploy', 'refresh: "1 hour"',
  'refresh: "0 3 * * *"', 'build_range: "last 2 months"', 'timezone: "Europe/Paris"', 'time: x',
];

describe('compileModel never throws', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => checkCompiles([{ path: 'a.cml', content: text }])),
      { numRuns: 500 },
    );
  });

  it('on random sequences of CML fragments', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 }), (parts) => checkCompiles([{ path: 'a.cml', content: parts.join(' ') }])),
      { numRuns: 1000 },
    );
  });

  it('on the demo model cut off anywhere', () => {
    fc.assert(
      fc.property(fc.nat({ max: DEMO_TEXT.length }), (end) => checkCompiles([{ path: 'demo.cml', content: DEMO_TEXT.slice(0, end) }])),
      { numRuns: 300 },
    );
  });

  it('on the demo model with a few characters deleted or inserted', () => {
    const edit = fc.record({ at: fc.nat({ max: DEMO_TEXT.length }), remove: fc.nat({ max: 5 }), insert: fc.constantFrom('', '{', '}', '"', '${', ':', '\n', '#', 'x') });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        let text = DEMO_TEXT;
        for (const e of edits) text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.remove);
        checkCompiles([{ path: 'demo.cml', content: text }]);
      }),
      { numRuns: 300 },
    );
  });

  it('reports a truncated model as errors, never as a silently smaller model', () => {
    const cut = DEMO_TEXT.indexOf('metric orders');
    const { model, diagnostics } = compileModel([{ path: 'demo.cml', content: DEMO_TEXT.slice(0, cut + 'metric orders {'.length) }]);
    expect(model).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toContain('CML005');
  });
});
