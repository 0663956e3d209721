// `rollup` blocks from text to the linked model: how they parse, and the rollup each links to, with the
// columns its stored table needs and how each measure is read back. The mistakes are in
// rollup-diagnostics.test.ts.
import { describe, expect, it } from 'vitest';
import type { Rollup } from '../semantic/rollup-model.js';
import { DiagnosticSink } from './diagnostics.js';
import { compileModel } from './index.js';
import { parseDocument } from './parser.js';
import { at, diagnosticsOf, positions, shop } from './test-helpers.js';

const MEASURES = `measure avg_amount { type: avg  sql: \${amount} }
  measure buyers { type: count_distinct  sql: \${customer_id} }
  measure per_buyer { type: ratio  numerator: revenue  denominator: buyers }
  measure aov { type: number  sql: \${revenue} / nullif(\${order_count}, 0) }
  measure latest { type: max  sql: \${created_at} }
  `;

function rollupsOf(inOrders: string): readonly Rollup[] {
  const result = compileModel([{ path: 'model.cml', content: shop(MEASURES + inOrders) }]);
  expect(result.diagnostics).toEqual([]);
  return result.model!.nodes.get('orders')!.rollups;
}

describe('rollup blocks', () => {
  it('parse as members of a node, over any number of lines', () => {
    const sink = new DiagnosticSink();
    const text = 'node orders {\n  rollup daily {\n    measures: [revenue, order_count]\n    time: created_at  grain: day\n  }\n}\n';
    const [node] = parseDocument('f.cml', text, sink).declarations;
    expect(sink.diagnostics).toEqual([]);
    expect(node!.members).toMatchObject([{ kind: 'rollup', name: { name: 'daily' }, span: { line: 2, column: 3, endLine: 5, endColumn: 4 } }]);
    expect(node!.members[0]!.properties.map((p) => p.key.name)).toEqual(['measures', 'time', 'grain']);
  });

  it('belong in a node, and a rollup left open ends at the next member', () => {
    const inReveal = shop('', 'reveal r { domain: d  base: orders\n  rollup x { measures: [revenue] } }');
    expect(positions(diagnosticsOf(inReveal))).toEqual([{ code: 'CML004', ...at(inReveal, 'rollup x') }]);
    expect(diagnosticsOf(inReveal)[0]!.message).toBe('`rollup` is declared in a node, not in reveal `r`');
    const open = shop('rollup a { measures: [revenue]  refresh: on_deploy\n  rollup b { measures: [revenue]  refresh: on_deploy }');
    expect(positions(diagnosticsOf(open))).toEqual([{ code: 'CML005', ...at(open, 'rollup a |{') }]);
  });

  it('link with the columns of their stored table and how each measure is read back from them', () => {
    const [daily] = rollupsOf(`rollup daily {
    dimensions: [status]
    measures: [aov, avg_amount, per_buyer, revenue, latest]
    time: created_at  grain: day  partition: month
    timezone: "Europe/Paris"
    refresh: "0 3 * * *"
    build_range: "last 24 months"
  }`);
    expect(daily).toEqual({
      node: 'orders',
      name: 'daily',
      dimensions: ['status'],
      time: { dimension: 'created_at', grain: 'day' },
      partition: 'month',
      timezone: 'Europe/Paris',
      refresh: { kind: 'cron', expression: '0 3 * * *' },
      buildRange: { kind: 'last', amount: 24, unit: 'month' },
      // Listed in the order written, then the inputs only stored for the formulas.
      measures: [
        { name: 'aov', listed: true, exactGrainOnly: false, read: { kind: 'derived', inputs: ['revenue', 'order_count'] } },
        { name: 'avg_amount', listed: true, exactGrainOnly: false, read: { kind: 'average', sum: 'avg_amount__sum', count: 'avg_amount__count' } },
        { name: 'per_buyer', listed: true, exactGrainOnly: true, read: { kind: 'derived', inputs: ['revenue', 'buyers'] } },
        { name: 'revenue', listed: true, exactGrainOnly: false, read: { kind: 'column', column: 'revenue' } },
        { name: 'latest', listed: true, exactGrainOnly: false, read: { kind: 'column', column: 'latest' } },
        { name: 'order_count', listed: false, exactGrainOnly: false, read: { kind: 'column', column: 'order_count' } },
        { name: 'buyers', listed: false, exactGrainOnly: true, read: { kind: 'column', column: 'buyers' } },
      ],
      columns: [
        { kind: 'dimension', name: 'status', dimension: 'status' },
        { kind: 'time', name: 'created_at__day', dimension: 'created_at', grain: 'day' },
        { kind: 'measure', name: 'revenue', measure: 'revenue', aggregate: 'sum', reaggregate: 'sum' },
        { kind: 'measure', name: 'order_count', measure: 'order_count', aggregate: 'count', reaggregate: 'sum' },
        { kind: 'measure', name: 'avg_amount__sum', measure: 'avg_amount', aggregate: 'sum', reaggregate: 'sum' },
        { kind: 'measure', name: 'avg_amount__count', measure: 'avg_amount', aggregate: 'count', reaggregate: 'sum' },
        { kind: 'measure', name: 'buyers', measure: 'buyers', aggregate: 'count_distinct', reaggregate: 'none' },
        { kind: 'measure', name: 'latest', measure: 'latest', aggregate: 'max', reaggregate: 'max' },
        { kind: 'latest', name: '__source_max_time', dimension: 'created_at' },
      ],
      span: expect.objectContaining({ file: 'model.cml', line: 26, column: 3 }),
    });
  });

  it('default to UTC, every row, no partition and no time; keep their order; nodes without any have none', () => {
    const rollups = rollupsOf('rollup totals { measures: [order_count]  refresh: on_deploy }\n  rollup hourly { measures: [revenue]  refresh: "15 minutes"  time: created_at  grain: hour }');
    expect(rollups.map((r) => r.name)).toEqual(['totals', 'hourly']);
    expect(rollups[0]).toMatchObject({ dimensions: [], timezone: 'UTC', refresh: { kind: 'deploy' }, buildRange: { kind: 'all' } });
    expect(rollups[0]!.time).toBeUndefined();
    expect(rollups[0]!.partition).toBeUndefined();
    expect(rollups[0]!.columns).toEqual([{ kind: 'measure', name: 'order_count', measure: 'order_count', aggregate: 'count', reaggregate: 'sum' }]);
    expect(rollups[1]).toMatchObject({ refresh: { kind: 'interval', seconds: 900, text: '15 minutes' }, time: { dimension: 'created_at', grain: 'hour' } });
    expect(rollupsOf('rollup r { measures: [revenue]  refresh: on_deploy  time: created_at  grain: day  build_range: "from 2024-02-29" }')[0]!.buildRange).toEqual({ kind: 'from', date: '2024-02-29' });
    const model = compileModel([{ path: 'model.cml', content: shop() }]).model!;
    expect(model.nodes.get('customers')!.rollups).toEqual([]);
  });

  it('store a measure used by two listed ones once', () => {
    const [r] = rollupsOf('rollup r { measures: [per_buyer, aov, buyers]  refresh: on_deploy }');
    expect(r!.measures.map((m) => [m.name, m.listed])).toEqual([
      ['per_buyer', true],
      ['aov', true],
      ['buyers', true],
      ['revenue', false],
      ['order_count', false],
    ]);
    expect(r!.columns.map((c) => c.name)).toEqual(['revenue', 'buyers', 'order_count']);
  });
});
