import { describe, expect, it } from 'vitest';
import type { IndexedDimension } from './catalog-index.js';
import { tokenise } from './text.js';
import type { QuestionWord } from './question-shape.js';
import { bindValues, dimensionRole } from './value-roles.js';
import type { ValueMatch } from './value-filters.js';

const dimension = (field: string, label: string, extra: { role?: string; node?: string } = {}): IndexedDimension =>
  ({ field, label, type: 'string', onBase: !field.includes('.'), phrases: [], valueSynonyms: new Map(), ...extra, node: extra.node ?? field.split('.')[0]! });

function words(question: string): QuestionWord[] {
  return tokenise(question).map((token, position) => ({ position, raw: token.raw, stem: token.stem, stop: token.stop, corrected: false }));
}

/** The value at `start` (length `length`) as found in `fields`. */
function match(start: number, length: number, value: string, fields: readonly string[]): ValueMatch {
  const stems = tokenise(value).map((t) => t.stem);
  return { positions: Array.from({ length }, (_, k) => start + k), candidates: fields.map((field) => ({ field, value, stems, grammar: false })), near: false };
}

describe('dimensionRole', () => {
  it.each([
    ['ship_from_city', 'Ship-from city', 'from', 'ship city'],
    ['ship_to_city', 'Ship-to city', 'to', 'ship city'],
    ['ship_from.city', 'City', 'from', 'ship city'],
    ['ship_to.city', 'City', 'to', 'ship city'],
    ['sender_country', 'Sender country', 'from', 'country'],
    ['recipient_country', 'Recipient country', 'to', 'country'],
    ['seller', 'Vendedor', 'from', ''],
    ['buyer', 'Comprador', 'to', ''],
    ['pickup_zone', 'Pickup zone', 'from', 'zone'],
    ['dropoff_zone', 'Drop-off zone', 'to', 'zone'],
    ['visitor_team', 'Visitor', 'away', 'team'],
    ['host_team', 'Host', 'home', 'team'],
    ['start_station', 'Start station', 'from', 'station'],
    ['end_station', 'End station', 'to', 'station'],
    ['exporter_country', 'Exporter', 'from', 'country'],
    ['importer_country', 'Importer', 'to', 'country'],
  ])('%s (%s) plays %s', (field, label, side, rest) => {
    expect(dimensionRole(dimension(field, label))).toEqual({ side, rest });
  });

  it('reads a role-playing join by its role name, and leaves dimensions without one alone', () => {
    expect(dimensionRole(dimension('a.city', 'City', { role: 'pickup', node: 'places' }))).toEqual({ side: 'from', rest: 'city' });
    expect(dimensionRole(dimension('b.city', 'City', { role: 'delivery', node: 'places' }))).toEqual({ side: 'to', rest: 'city' });
    expect(dimensionRole(dimension('carrier', 'Carrier'))).toBeUndefined();
    // Both sides named: no role can be read.
    expect(dimensionRole(dimension('from_to_pair', 'Route'))).toBeUndefined();
  });
});

describe('bindValues on a node joined twice under two roles', () => {
  const dims = [dimension('ship_from.city', 'City'), dimension('ship_to.city', 'City'), dimension('carrier', 'Carrier')];

  it('binds "from A to B" to the two role fields', () => {
    const question = words('parcels from Austin to Dallas');
    const bound = bindValues([match(2, 1, 'Austin', ['ship_from.city', 'ship_to.city']), match(4, 1, 'Dallas', ['ship_from.city', 'ship_to.city'])], question, dims);
    expect(bound).toMatchObject({ kind: 'bound', values: [{ field: 'ship_from.city', value: 'Austin' }, { field: 'ship_to.city', value: 'Dallas' }] });
  });

  it('declines without a cue, naming both fields', () => {
    const bound = bindValues([match(2, 1, 'Austin', ['ship_from.city', 'ship_to.city'])], words('parcels in Austin'), dims);
    expect(bound).toEqual({ kind: 'undecided', reason: `"austin" could be the city (ship_from.city) or the city (ship_to.city); say 'from' or 'to'.` });
  });

  it('declines a value held by a field with a role and a plain one, unless a cue names the role', () => {
    const mixed = [dimension('origin_city', 'Origin city'), dimension('customers.city', 'City')];
    const found = match(2, 1, 'Austin', ['origin_city', 'customers.city']);
    expect(bindValues([found], words('parcels in Austin'), mixed)).toEqual({ kind: 'undecided', reason: `"austin" could be the origin city or the city; say 'from' or 'to'.` });
    expect(bindValues([found], words('parcels from Austin'), mixed)).toMatchObject({ kind: 'bound', values: [{ field: 'origin_city', value: 'Austin' }] });
  });
});
