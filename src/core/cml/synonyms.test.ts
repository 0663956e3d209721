// Synonyms of dimensions, of their values and of join roles: the map syntax, what the linked model
// carries, and the diagnostics of a malformed map at their line and column.
import { describe, expect, it } from 'vitest';
import { compileModel } from './index.js';
import { at, diagnosticsOf, positions, shop } from './test-helpers.js';

const STATES = `dimension state {
    type: string
    synonyms: [province, "Bundesland", "estado"]
    values: {
      TX: [Texas, "Tejas"]
      CA: [California, "Kalifornien"],   # commas between entries are optional
      "New York": NY
      1: ["one"]
    }
  }
  dimension channel { type: string  values: { web: [online, "en ligne"]  mobile: [app] } }`;

describe('dimension synonyms and value synonyms', () => {
  it('carry into the linked model, in any language, over several lines or one', () => {
    const result = compileModel([{ path: 'model.cml', content: shop(STATES) }]);
    expect(result.diagnostics).toEqual([]);
    const orders = result.model!.nodes.get('orders')!;
    const state = orders.dimensions.get('state')!;
    expect(state.synonyms).toEqual(['province', 'Bundesland', 'estado']);
    expect(state.valueSynonyms).toEqual(
      new Map([
        ['TX', ['Texas', 'Tejas']],
        ['CA', ['California', 'Kalifornien']],
        ['New York', ['NY']],
        ['1', ['one']],
      ]),
    );
    expect(orders.dimensions.get('channel')!.valueSynonyms).toEqual(new Map([['web', ['online', 'en ligne']], ['mobile', ['app']]]));
    // A dimension without them carries none.
    expect(orders.dimensions.get('status')!.synonyms).toBeUndefined();
    expect(orders.dimensions.get('status')!.valueSynonyms).toBeUndefined();
  });

  it('report a value listed twice, at the second key', () => {
    const source = shop('dimension state { type: string  values: { TX: [Texas]\n    TX: [Tejas] } }');
    expect(positions(diagnosticsOf(source))).toEqual([{ code: 'CML106', ...at(source, 'TX', 2) }]);
  });

  it('report an entry without its colon, and keep reading the next entry', () => {
    const source = shop('dimension state { type: string  values: {\n    TX [Texas]\n    CA: [California]\n  } }');
    expect(positions(diagnosticsOf(source))).toEqual([{ code: 'CML004', ...at(source, 'TX |[Texas]') }]);
  });

  it('report an unclosed map at its brace when the next block starts', () => {
    const source = shop('dimension state { type: string  values: { TX: [Texas]\n  dimension other { type: string }');
    // The map stops there, and so does the dimension around it, each reported at its own brace.
    expect(positions(diagnosticsOf(source))).toEqual([
      { code: 'CML005', ...at(source, 'state |{') },
      { code: 'CML005', ...at(source, 'values: |{') },
    ]);
  });

  it('want lists of words as values, and a map where a map is wanted', () => {
    const nested = shop('dimension state { type: string  values: { TX: [a.b] } }');
    expect(positions(diagnosticsOf(nested))).toEqual([{ code: 'CML102', ...at(nested, 'a.b') }]);
    const listed = shop('dimension state { type: string  values: [TX, Texas] }');
    expect(positions(diagnosticsOf(listed))).toEqual([{ code: 'CML102', ...at(listed, '[TX, Texas]') }]);
    const elsewhere = shop('measure m { type: count  values: { a: [b] } }');
    expect(positions(diagnosticsOf(elsewhere))).toEqual([{ code: 'CML101', ...at(elsewhere, 'values') }]);
  });
});

describe('join role synonyms', () => {
  it('carry into the linked join', () => {
    const result = compileModel([
      { path: 'model.cml', content: shop('join buyer: customers {\n    relationship: many_to_one\n    synonyms: [purchaser, "Käufer"]\n    on: ${customer_id} = ${buyer.id}\n  }') },
    ]);
    expect(result.diagnostics).toEqual([]);
    const buyer = result.model!.nodes.get('orders')!.joins.find((j) => j.alias === 'buyer')!;
    expect(buyer).toMatchObject({ to: 'customers', alias: 'buyer', synonyms: ['purchaser', 'Käufer'] });
  });
});
