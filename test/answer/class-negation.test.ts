// Values the question leaves out become negated filters (notEquals, notIn), which keep the rows
// without a value: "excluding", "except", "other than", "not", "without", "outside", in the class
// domains' models. A negation that reaches no value, or a value whose role nothing decides, is
// declined; a value left out of another takes that one's role.
import { describe, expect, it } from 'vitest';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { classCatalog } from './class-catalogs.js';

const not = (field: string, value: string) => ({ field, operator: 'notEquals', value });
const filters = (plan: AnswerPlan) => (plan.kind === 'governed' ? [...plan.filters].sort((a, b) => a.field.localeCompare(b.field)) : plan);

describe('negation', () => {
  it.each([
    ['bikeshare', 'trips excluding electric bikes', [not('bike_type', 'electric')]],
    ['bikeshare', 'fare revenue except card payments', [not('payment', 'card')]],
    ['bikeshare', 'How many trips did not start at Central Station?', [not('start_station.name', 'Central Station')]],
    ['bikeshare', 'fare revenue excluding trips that started in the Harbour district', [not('start_station.district', 'Harbour')]],
    ['bikeshare', 'distance ridden on bikes other than classic ones', [not('bike_type', 'classic')]],
    ['bikeshare', 'trips without a pass', [not('payment', 'pass')]],
    ['hotels', 'How many bookings were not cancelled?', [not('status', 'cancelled')]],
    ['hotels', 'guests from countries other than Germany', [not('guest_country.name', 'Germany')]],
    ['hotels', 'bookings at hotels outside Spain', [not('hotels.country', 'Spain')]],
    ['hotels', 'cancellations excluding travel agents', [not('channel', 'travel agent')]],
    ['remittance', 'transfer volume not sent to Mexico', [not('recipient_country.name', 'Mexico')]],
    ['remittance', 'How many transfers were not for family support?', [not('purpose', 'family support')]],
  ] as const)('%s: "%s"', (domain, question, expected) => {
    expect(filters(classCatalog(domain).plan(question))).toEqual(expected);
  });

  it('leaves several values out together, and keeps a value it does not reach', () => {
    expect(filters(classCatalog('hotels').plan('bookings excluding OTA and corporate'))).toEqual([{ field: 'channel', operator: 'notIn', value: ['OTA', 'corporate'] }]);
    expect(filters(classCatalog('remittance').plan('money sent to Africa except Morocco'))).toEqual([
      not('recipient_country.name', 'Morocco'),
      { field: 'recipient_country.region', operator: 'equals', value: 'Africa' },
    ]);
  });

  it('never reads a value spelt in grammar words as a negation ("no-show")', () => {
    const plan = classCatalog('hotels').plan('no-show OTA bookings in Madrid');
    expect(plan.kind === 'governed' ? plan.filters.filter((filter) => filter.operator === 'notEquals' || filter.operator === 'notIn') : []).toEqual([]);
  });

  it('declines a negation of nothing the model holds, or of a value no role is decided for', () => {
    for (const [domain, question] of [
      ['hotels', 'room revenue excluding breakfast'],
      ['bikeshare', 'trips excluding rainy days'],
      ['bikeshare', 'trips excluding the Harbour district'],
      ['remittance', 'transfers excluding Spain'],
    ] as const) {
      expect(classCatalog(domain).plan(question), question).toMatchObject({ kind: 'no_match' });
    }
  });
});
