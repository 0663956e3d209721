// Derived forms of values and fields must reach them: "cancelled"/"canceled" → cancel, "rainy" →
// rain, irregular plurals ("children" → child, "analyses" → analysis), "-ed"/"-ing". Unknown derived
// words still restrict: they keep a question from being answered rather than vanish.
import { describe, expect, it } from 'vitest';
import { ask, governed } from './models.js';

describe('derived forms', () => {
  it('reach a value through -ed, British and American spelling alike', () => {
    expect(ask('clinic', 'invoices for cancelled visits')).toMatchObject(governed('billing', ['invoices'], { filters: [{ field: 'visits.outcome', value: 'cancel' }] }));
    expect(ask('clinic', 'canceled visits by clinic')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], filters: [{ field: 'outcome', value: 'cancel' }] }));
    expect(ask('clinic', 'how many visits were cancelled')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'outcome', value: 'cancel' }] }));
    expect(ask('library', 'loans renewing at Central')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'status', value: 'renewed' }, { field: 'branch', value: 'Central' }] }));
  });

  it('reach a value through an adjective in -y', () => {
    expect(ask('energy', 'consumption in rainy weather')).toMatchObject(governed('energy', ['consumption'], { filters: [{ field: 'weather', value: 'rain' }] }));
    expect(ask('energy', 'readings in sunny weather by site')).toMatchObject(governed('energy', ['readings'], { dimensions: ['meters.site'], filters: [{ field: 'weather', value: 'sun' }] }));
    expect(ask('energy', 'peak demand on snowy and windy weather')).toMatchObject(governed('energy', ['peak_demand'], { filters: [{ field: 'weather', value: ['snow', 'wind'] }] }));
  });

  it('reach a value or a dimension through an irregular plural', () => {
    expect(ask('clinic', 'visits of children')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'patients.age_group', value: 'child' }] }));
    expect(ask('library', 'loans to children by genre')).toMatchObject(governed('lending', ['loans'], { dimensions: ['genre'], filters: [{ field: 'members.member_type', value: 'child' }] }));
    expect(ask('clinic', 'visits for analyses per clinic')).toMatchObject(governed('care', ['visits'], { dimensions: ['clinic'], filters: [{ field: 'visit_type', value: 'analysis' }] }));
    expect(ask('library', 'loans by statuses')).toMatchObject(governed('lending', ['loans'], { dimensions: ['status'] }));
    expect(ask('clinic', 'patients seen by countries')).toMatchObject(governed('care', ['patients_seen'], { dimensions: ['patients.country'] }));
  });

  it('reach a dimension named in another language', () => {
    expect(ask('bakery', 'Umsatz nach Stadt')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['shops.city'] }));
    expect(ask('clinic', 'consultas por departamento')).toMatchObject(governed('care', ['visits'], { dimensions: ['department'] }));
    expect(ask('bakery', 'chiffre d\'affaires par produit')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['product'] }));
    expect(ask('bakery', 'faturamento por cidade')).toMatchObject(governed('bakery', ['takings'], { dimensions: ['shops.city'] }));
  });

  it('keep restricting words the catalog does not know', () => {
    expect(ask('energy', 'consumption in stormy weather').kind).toBe('no_match');
    expect(ask('energy', 'consumption on foggy sites').kind).toBe('no_match');
    expect(ask('library', 'cancelled loans').kind).toBe('no_match');
    expect(ask('library', 'delayed loans').kind).toBe('no_match');
    expect(ask('clinic', 'refunded visits').kind).toBe('no_match');
  });
});
