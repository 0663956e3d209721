// The planner-vocabulary warnings of `svc model validate`: colliding metric words, metric words that
// read like a dimension, and declared languages without synonyms, each at the word written.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { at, positions, shop } from '../cml/test-helpers.js';
import { vocabularyWarnings } from './vocabulary-check.js';

function warnings(source: string) {
  const files = [{ path: 'model.cml', content: source }];
  const result = compileModel(files);
  expect(result.diagnostics).toEqual([]);
  return vocabularyWarnings(result.model!, files);
}

describe('vocabulary warnings', () => {
  it('CML602: a synonym of one metric reads like a phrase of another, in any inflection or case', () => {
    const source = shop(
      'measure completed { type: count  filter: ${status} = \'completed\' }',
      `reveal sales { domain: d  base: orders
  metric orders { measure: order_count  synonyms: [bookings] }
  metric completed_orders { measure: completed  label: "Finished orders"  synonyms: ["Booking", sales] }
}`,
    );
    const found = warnings(source);
    expect(positions(found)).toEqual([{ code: 'CML602', ...at(source, '"Booking"') }]);
    expect(found[0]!.severity).toBe('warning');
    expect(found[0]!.message).toMatch(/synonym "Booking" of metric `sales.completed_orders` reads like synonym "bookings" of metric `sales.orders`/);
  });

  it('CML602: across reveals too, against a label, and a bare synonym is found after `synonyms:`', () => {
    const source = shop(
      '',
      `reveal a { domain: d  base: orders
  metric volume { measure: order_count  label: "Order volume" }
}
reveal b { domain: d  base: orders
  metric volume_b {
    measure: order_count
    synonyms: [volume_b, orders_volume]
  }
}`,
    );
    expect(positions(warnings(source))).toEqual([{ code: 'CML602', ...at(source, 'volume_b, |orders_volume') }]);
  });

  it('CML603: a metric label or synonym that reads like a dimension its reveal reaches', () => {
    const source = shop(
      '',
      `reveal sales { domain: d  base: orders
  metric revenue { measure: revenue  synonyms: [sales, "Region"] }
  metric customers { measure: customers.customer_count  label: "Status" }
}`,
    );
    expect(positions(warnings(source))).toEqual([
      { code: 'CML603', ...at(source, '"Region"') },
      { code: 'CML603', ...at(source, '"Status"') },
    ]);
  });

  it('CML604: a declared language without synonyms; untagged synonyms are in the first language', () => {
    const source = shop(
      '',
      `reveal sales { domain: d  base: orders
  languages: [en, de, fr]
  metric revenue { measure: revenue  synonyms: [turnover] }
  metric orders { measure: order_count  synonyms: { de: [Bestellungen]  es: [pedidos] } }
}`,
    );
    const found = warnings(source);
    expect(positions(found)).toEqual([{ code: 'CML604', ...at(source, 'de, |fr]') }]);
    expect(found[0]!.message).toMatch(/`fr`/);
  });

  it('CML605: one value word for two stored values, or a stored value used as a word for another', () => {
    const source = shop(
      `dimension state {
    type: string
    values: {
      GA: [Georgia]
      GE: ["georgia", Tbilisi]
      CA: [California]
      TX: [Texas, ca]
    }
  }`,
    );
    expect(positions(warnings(source))).toEqual([
      { code: 'CML605', ...at(source, '"georgia"') },
      { code: 'CML605', ...at(source, 'Texas, |ca]') },
    ]);
  });

  it('say nothing for a model whose words are apart', () => {
    const source = shop('', 'reveal sales { domain: d  base: orders  languages: [en]\n  metric revenue { measure: revenue  synonyms: [turnover] } }');
    expect(warnings(source)).toEqual([]);
  });

  it('keep synonyms per language in the model, and all of them as the metric synonyms', () => {
    const source = shop('', 'reveal sales { domain: d  base: orders\n  metric orders { measure: order_count  synonyms: { en: [purchases]  de: [Bestellungen, "Aufträge"] } } }');
    const metric = compileModel([{ path: 'model.cml', content: source }]).model!.reveals.get('sales')!.metrics.get('orders')!;
    expect(metric.synonyms).toEqual(['purchases', 'Bestellungen', 'Aufträge']);
    expect(metric.synonymsByLanguage).toEqual(new Map([['en', ['purchases']], ['de', ['Bestellungen', 'Aufträge']]]));
  });
});
