import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../demo-setup.js';
import { buildCatalogIndex, type CatalogIndex } from './catalog-index.js';
import { planOffline } from './offline-planner.js';
import { ValueStore } from './value-index.js';

// The planner reading values from a store, as the answer service hands it one per data-key scope.
const SALES = ValueStore.build([
  { field: 'status', values: ['completed', 'pending', 'cancelled', 'refunded'] },
  { field: 'channel', values: ['web', 'mobile', 'marketplace'] },
  { field: 'ship_region', values: ['North America', 'Europe', 'New York'] },
  { field: 'customers.segment', values: ['Consumer', 'Small Business', 'Enterprise'] },
  { field: 'customers.country', values: ['Germany', 'Switzerland', 'Netherlands', 'Côte d’Ivoire'] },
  { field: 'customers.name', values: Array.from({ length: 20_000 }, (_, i) => `Customer ${i}`).concat(['Zyxwater Holdings']) },
]);
const lookup = (reveal: string) => (reveal === 'sales' ? SALES : undefined);

describe('planOffline with a value store', () => {
  let index: CatalogIndex;
  beforeAll(async () => {
    index = buildCatalogIndex(compileModel(await readModelDir(DEMO_MODEL_DIR)).model!);
  });

  it('filters on a value of a joined node', () => {
    expect(planOffline('revenue in the enterprise segment', index, { lookup })).toMatchObject({
      kind: 'governed',
      metrics: ['revenue'],
      filters: [{ field: 'customers.segment', operator: 'equals', value: 'Enterprise' }],
    });
    expect(planOffline('revenue in Switzerland', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.country', value: 'Switzerland' }] });
  });

  it('finds values as stored whatever the case and accents of the question', () => {
    expect(planOffline('revenue in new york', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'ship_region', value: 'New York' }] });
    expect(planOffline('REVENUE IN NORTH AMERICA', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'ship_region', value: 'North America' }] });
    expect(planOffline('revenue in cote d ivoire', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.country', value: 'Côte d’Ivoire' }] });
  });

  it('finds a value far beyond the first two hundred of its field', () => {
    expect(planOffline('revenue from customer 19999', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.name', value: 'Customer 19999' }] });
    expect(planOffline('revenue from zyxwater holdings', index, { lookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.name', value: 'Zyxwater Holdings' }] });
  });

  it('corrects a typo in a long value word and marks the filter as near', () => {
    const one = planOffline('revenue in Swizterland', index, { lookup });
    expect(one).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.country', value: 'Switzerland', near: true }] });
    const two = planOffline('revenue in Netherlnads', index, { lookup });
    expect(two).toMatchObject({ kind: 'governed', filters: [{ field: 'customers.country', value: 'Netherlands', near: true }] });
    const exact = planOffline('revenue in Germany', index, { lookup });
    expect(exact).toMatchObject({ kind: 'governed' });
    if (exact.kind === 'governed') expect(exact.filters[0]!.near).toBeUndefined();
  });

  it('leaves the field undecided when one value is in two joined fields of one level, and a base field beats a joined one', () => {
    const roles = ValueStore.build([
      { field: 'origin_states.name', values: ['Texas', 'Ohio'] },
      { field: 'destination_states.name', values: ['Texas', 'Utah'] },
      { field: 'ship_region', values: ['Europe'] },
      { field: 'customers.region', values: ['Europe'] },
    ]);
    const rolesLookup = (reveal: string) => (reveal === 'sales' ? roles : undefined);
    expect(planOffline('revenue to Texas', index, { lookup: rolesLookup })).toMatchObject({ kind: 'no_match' });
    expect(planOffline('revenue in Ohio', index, { lookup: rolesLookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'origin_states.name', value: 'Ohio' }] });
    expect(planOffline('revenue in Europe', index, { lookup: rolesLookup })).toMatchObject({ kind: 'governed', filters: [{ field: 'ship_region', value: 'Europe' }] });
  });

  it('does not correct a short word to a value, nor a word too far from any value', () => {
    expect(planOffline('revenue in Wbe', index, { lookup })).toMatchObject({ kind: 'no_match' });
    expect(planOffline('revenue in Gremny', index, { lookup })).toMatchObject({ kind: 'no_match' }); // two edits in six letters
    expect(planOffline('revenue in Swtzrlnd', index, { lookup })).toMatchObject({ kind: 'no_match' });
  });
});
