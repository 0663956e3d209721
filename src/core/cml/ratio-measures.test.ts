// Ratio measures in CML: what the linker makes of `type: ratio` (a `number` measure of the model with
// its two measures), and the unit a ratio takes. The diagnostics are in diagnostic-codes.test.ts.
import { describe, expect, it } from 'vitest';
import type { SemanticModel } from '../semantic/model.js';
import { compileModel } from './index.js';
import { parseDocument } from './parser.js';
import { DiagnosticSink } from './diagnostics.js';
import { shop } from './test-helpers.js';

function compileOk(source: string): SemanticModel {
  const result = compileModel([{ path: 'model.cml', content: source }]);
  expect(result.diagnostics).toEqual([]);
  return result.model!;
}

const measureOf = (model: SemanticModel, name: string) => model.nodes.get('orders')!.measures.get(name)!;

describe('ratio measures', () => {
  it('parse as any measure: numerator and denominator are plain properties, several to a line', () => {
    const sink = new DiagnosticSink();
    const document = parseDocument('f.cml', 'node n {\n  measure share { type: ratio  numerator: a  denominator: n.b  format: percent }\n}\n', sink);
    expect(sink.sorted()).toEqual([]);
    const share = document.declarations[0]!.members[0]!;
    expect(share.properties.map((p) => p.key.name)).toEqual(['type', 'numerator', 'denominator', 'format']);
    expect(share.properties[2]!.value).toMatchObject({ kind: 'path', segments: [{ name: 'n' }, { name: 'b' }] });
  });

  it('link into a number measure of the node holding its two measures, written by name or node.name', () => {
    const model = compileOk(
      shop(`measure completed { type: count  filter: \${status} = 'completed' }
  measure completed_share {
    type: ratio
    label: "Completed share"
    numerator: completed
    denominator: orders.order_count
    format: percent
  }`),
    );
    const share = measureOf(model, 'completed_share');
    expect(share).toMatchObject({ node: 'orders', label: 'Completed share', type: 'number', format: 'percent', unit: 'percent', ratio: { numerator: 'completed', denominator: 'order_count' } });
    expect(share.sql).toEqual([
      { kind: 'measure', node: 'orders', name: 'completed' },
      { kind: 'text', text: ' / ' },
      { kind: 'measure', node: 'orders', name: 'order_count' },
    ]);
    expect(share.filter).toBeUndefined();
  });

  it('may divide other ratios and number measures, declared in any order', () => {
    const model = compileOk(
      shop(`measure per_item_per_order { type: ratio  numerator: per_item  denominator: order_count }
  measure per_item { type: ratio  numerator: revenue  denominator: items }
  measure items { type: number  sql: \${order_count} * 3 }`),
    );
    expect(measureOf(model, 'per_item_per_order').ratio).toEqual({ numerator: 'per_item', denominator: 'order_count' });
  });

  describe('take a unit when they write none', () => {
    const units = (measures: string) => {
      const orders = compileOk(shop(measures)).nodes.get('orders')!;
      return Object.fromEntries([...orders.measures.values()].filter((m) => m.ratio).map((m) => [m.name, m.unit]));
    };

    it("the numerator's over the denominator's, the second in words after `per`", () => {
      expect(
        units(`measure money { type: sum  unit: usd  sql: \${amount} }
  measure items { type: sum  unit: items  sql: \${amount} }
  measure km { type: sum  unit: kilometers  sql: \${amount} }
  measure per_item { type: ratio  numerator: money  denominator: items }
  measure orders_per_km { type: ratio  numerator: order_count  denominator: km }`),
      ).toEqual({ per_item: 'usd per item', orders_per_km: 'per km' });
    });

    it('a count (or no unit) drops out, equal units cancel, and a ratio of a ratio follows', () => {
      expect(
        units(`measure money { type: sum  unit: dollars  sql: \${amount} }
  measure refunds { type: sum  unit: usd  sql: \${amount} }
  measure items { type: sum  unit: items  sql: \${amount} }
  measure aov { type: ratio  numerator: money  denominator: order_count }
  measure refund_rate { type: ratio  numerator: refunds  denominator: money }
  measure counts { type: ratio  numerator: order_count  denominator: order_count }
  measure per_item { type: ratio  numerator: money  denominator: items }
  measure per_item_per_order { type: ratio  numerator: per_item  denominator: order_count }`),
      ).toEqual({ aov: 'usd', refund_rate: undefined, counts: undefined, per_item: 'usd per item', per_item_per_order: 'usd per item' });
    });

    it('unless a format or a unit says otherwise', () => {
      expect(
        units(`measure money { type: sum  unit: usd  sql: \${amount} }
  measure share { type: ratio  numerator: money  denominator: money  format: percent }
  measure plain { type: ratio  numerator: money  denominator: order_count  format: number }
  measure money_per_order { type: ratio  numerator: money  denominator: order_count  format: currency }
  measure written { type: ratio  numerator: money  denominator: order_count  unit: eur }`),
      ).toEqual({ share: 'percent', plain: undefined, money_per_order: 'usd', written: 'eur' });
    });

    it('which the metrics of the ratio take, with its format', () => {
      const model = compileOk(
        shop(
          `measure money { type: sum  unit: usd  sql: \${amount} }
  measure aov { type: ratio  numerator: money  denominator: order_count  format: currency }
  measure share { type: ratio  numerator: money  denominator: money  format: percent }`,
          'reveal r { domain: d  base: orders\n  metric aov { measure: aov }\n  metric share { measure: share }\n  metric own { measure: aov  unit: eur } }',
        ),
      );
      const metrics = model.reveals.get('r')!.metrics;
      expect(metrics.get('aov')).toMatchObject({ unit: 'usd', format: 'currency' });
      expect(metrics.get('share')).toMatchObject({ unit: 'percent', format: 'percent' });
      expect(metrics.get('own')!.unit).toBe('eur');
    });
  });

  it('leave no model behind a cycle, and report it once', () => {
    const result = compileModel([{ path: 'model.cml', content: shop('measure a { type: ratio  numerator: b  denominator: order_count }\n  measure b { type: ratio  numerator: a  denominator: order_count }') }]);
    expect(result.model).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CML306']);
  });
});
