// The catalog index over a model with role-playing joins and synonyms: one entry per role, named by
// the role's words and the join's synonyms, dimension synonyms as phrases, and value synonyms kept for
// the value matcher.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { buildCatalogIndex, type IndexedDimension } from './catalog-index.js';
import { contentStems } from './text.js';

const CML = `
node shipments {
  connection: warehouse
  table: freight.shipments
  dimension id { type: number  primary_key: true  hidden: true }
  dimension from_region_id { type: number  hidden: true }
  dimension to_region_id { type: number  hidden: true }
  dimension carrier_id { type: number  hidden: true }
  dimension mode { type: string  synonyms: ["transport mode", "Verkehrsträger"]  values: { air: [plane, "Flugzeug"]  sea: [ship, boat] } }
  dimension shipped_at { type: timestamp }
  measure shipment_count { type: count }
  join ship_from: regions { relationship: many_to_one  synonyms: [origin]  on: \${from_region_id} = \${ship_from.id} }
  join ship_to: regions { relationship: many_to_one  synonyms: [destination, "Ziel"]  on: \${to_region_id} = \${ship_to.id} }
  join carriers { relationship: many_to_one  on: \${carrier_id} = \${carriers.id} }
}
node regions {
  connection: warehouse
  table: freight.regions
  dimension id { type: number  primary_key: true  hidden: true }
  dimension code { type: string  synonyms: [state]  values: { TX: [Texas]  CA: [California, "Kalifornien"] } }
  dimension city { type: string }
  dimension country_id { type: number  hidden: true }
  dimension opened_at { type: date }
  join countries { relationship: many_to_one  on: \${country_id} = \${countries.id} }
}
node countries {
  connection: warehouse
  table: freight.countries
  dimension id { type: number  primary_key: true  hidden: true }
  dimension name { type: string }
}
node carriers {
  connection: warehouse
  table: freight.carriers
  dimension id { type: number  primary_key: true  hidden: true }
  dimension name { type: string }
}
reveal freight {
  domain: logistics
  base: shipments
  time: ship_to.opened_at
  metric shipments { measure: shipment_count }
}
`;

function index() {
  const result = compileModel([{ path: 'freight.cml', content: CML }]);
  expect(result.diagnostics).toEqual([]);
  return buildCatalogIndex(result.model!).reveals[0]!;
}

function dimension(field: string): IndexedDimension {
  const found = index().dimensions.find((d) => d.field === field);
  if (!found) throw new Error(`no indexed dimension ${field}`);
  return found;
}

describe('catalog index: role-playing joins', () => {
  it('lists a role node once per role, by role field ids, with its role and node', () => {
    const fields = index().dimensions.map((d) => [d.field, d.role, d.node]);
    expect(fields).toEqual([
      ['mode', undefined, 'shipments'],
      ['ship_from.code', 'ship_from', 'regions'],
      ['ship_from.city', 'ship_from', 'regions'],
      ['ship_to.code', 'ship_to', 'regions'],
      ['ship_to.city', 'ship_to', 'regions'],
      ['carriers.name', undefined, 'carriers'],
    ]);
  });

  it('leaves out a node both roles reach at one distance: which role it belongs to cannot be told', () => {
    expect(index().dimensions.some((d) => d.node === 'countries')).toBe(false);
  });

  it('names a role dimension by the role words and the join synonyms, not by the node', () => {
    const phrases = dimension('ship_to.city').phrases;
    for (const words of ['city', 'ship to city', 'destination city', 'Ziel city']) expect(phrases).toContainEqual(contentStems(words));
    expect(phrases).not.toContainEqual(contentStems('regions city'));
    expect(dimension('ship_from.city').phrases).toContainEqual(contentStems('origin city'));
    expect(dimension('ship_from.city').phrases).not.toContainEqual(contentStems('destination city'));
    // A join without a role is named by its node, as before.
    expect(dimension('carriers.name').phrases).toContainEqual(contentStems('carriers name'));
  });

  it('gives the time field through its role', () => {
    expect(index().timeField).toBe('ship_to.opened_at');
  });
});

describe('catalog index: synonyms', () => {
  it('adds dimension synonyms, in any language, to its phrases, also qualified by the role', () => {
    expect(dimension('mode').phrases).toContainEqual(contentStems('transport mode'));
    expect(dimension('mode').phrases).toContainEqual(contentStems('Verkehrsträger'));
    expect(dimension('ship_to.code').phrases).toContainEqual(contentStems('state'));
    expect(dimension('ship_to.code').phrases).toContainEqual(contentStems('destination state'));
    expect(index().dimensionStems).toContain(contentStems('Verkehrsträger')[0]);
  });

  it('keeps value synonyms by stored value, for every role', () => {
    expect(dimension('mode').valueSynonyms).toEqual(new Map([['air', ['plane', 'Flugzeug']], ['sea', ['ship', 'boat']]]));
    for (const field of ['ship_from.code', 'ship_to.code']) expect(dimension(field).valueSynonyms.get('CA')).toEqual(['California', 'Kalifornien']);
    expect(dimension('carriers.name').valueSynonyms.size).toBe(0);
  });
});
