// What a question asks beyond metric totals, as the offline planner reads it on the class domains'
// models: one metric per another ("fare revenue per trip": `per`) and a part over its whole ("what
// share of trips ended at Central Station": `share`). The server turns these into the semantic
// layer's `per` and `shares` (or the ratio metric the model declares); here, the plans.
import { describe, expect, it } from 'vitest';
import { classCatalog } from './class-catalogs.js';

describe('"X per Y"', () => {
  it.each([
    ['bikeshare', 'riding time per trip', 'riding_time', 'trips'],
    ['bikeshare', 'trips per bike', 'trips', 'bikes_used'],
    ['bikeshare', 'minutes ridden per kilometre', 'riding_time', 'distance'],
    ['hotels', 'room revenue per room night', 'room_revenue', 'room_nights'],
    ['remittance', 'transfer volume per sender', 'volume', 'senders'],
  ] as const)('%s: "%s" is %s per %s', (domain, question, metric, by) => {
    expect(classCatalog(domain).plan(question)).toMatchObject({ kind: 'governed', metrics: [metric], per: { by } });
  });

  it('keeps "per <dimension>" a breakdown, and a metric whose own name says "per" that metric', () => {
    expect(classCatalog('hotels').plan('average daily rate per hotel')).toMatchObject({ kind: 'governed', metrics: ['average_daily_rate'], dimensions: ['hotels.name'] });
    expect(classCatalog('hotels').plan('rate per night by room type')).toMatchObject({ kind: 'governed', metrics: ['average_daily_rate'], dimensions: ['room_type'] });
    const perStation = classCatalog('bikeshare').plan('fare revenue per station');
    expect(perStation).toMatchObject({ kind: 'no_match' });
  });

  it('reads "per <unit> <words>" as the metric of that unit the words name', () => {
    expect(classCatalog('remittance').plan('fees per dollar sent')).toMatchObject({ kind: 'governed', metrics: ['fees'], per: { by: 'volume' } });
  });

  it('keeps a breakdown beside the ratio', () => {
    expect(classCatalog('remittance').plan('transfer volume per sender by sending country')).toMatchObject({
      kind: 'governed',
      metrics: ['volume'],
      dimensions: ['sender_country.name'],
      per: { by: 'senders' },
    });
  });

  it('declines a divisor nothing names, and a ranking by a ratio', () => {
    expect(classCatalog('bikeshare').plan('trips per resident')).toMatchObject({ kind: 'no_match' });
    expect(classCatalog('remittance').plan('fees per dollar')).toMatchObject({ kind: 'no_match' });
    expect(classCatalog('remittance').plan('top 3 channels by fee revenue per transfer')).toMatchObject({ kind: 'no_match' });
  });
});

describe('shares', () => {
  it.each([
    ['bikeshare', 'What share of trips ended at Central Station?', 'trips', 'end_station.name', 'Central Station'],
    ['hotels', 'What percentage of room revenue came from corporate bookings?', 'room_revenue', 'channel', 'corporate'],
    ['remittance', 'percentage of transfers sent from Spain', 'transfers', 'sender_country.name', 'Spain'],
    ['remittance', 'What share of transfers used cash pickup?', 'transfers', 'payout_method', 'cash pickup'],
  ] as const)('%s: "%s" is the share of %s where %s is %s', (domain, question, metric, field, value) => {
    expect(classCatalog(domain).plan(question)).toMatchObject({ kind: 'governed', metrics: [metric], filters: [], share: { part: { field, value } } });
  });

  it('takes the value named last as the part, the others keeping the whole', () => {
    expect(classCatalog('remittance').plan('What share of transfers to Mexico were refunded?')).toMatchObject({
      kind: 'governed',
      metrics: ['transfers'],
      filters: [{ field: 'recipient_country.name', value: 'Mexico' }],
      share: { part: { field: 'status', value: 'refunded' } },
    });
  });

  it('gives each group its share of a breakdown', () => {
    expect(classCatalog('bikeshare').plan('share of each rider type in fare revenue')).toMatchObject({ kind: 'governed', metrics: ['fares'], dimensions: ['rider_type'], share: {} });
    expect(classCatalog('hotels').plan('share of room revenue by hotel')).toMatchObject({ kind: 'governed', metrics: ['room_revenue'], dimensions: ['hotels.name'], share: {} });
  });

  it('declines a share with no part, of a metric that does not say which, or one the model describes itself', () => {
    expect(classCatalog('bikeshare').plan('share of trips')).toMatchObject({ kind: 'no_match' });
    expect(classCatalog('bikeshare').plan('share of trips longer than 30 minutes')).toMatchObject({ kind: 'no_match' });
    // The model's "Electric share" (electric trips over trips) is this very share: it answers.
    expect(classCatalog('bikeshare').plan('What share of trips were made on electric bikes?')).toMatchObject({ kind: 'governed', metrics: ['electric_share'], filters: [] });
    expect(classCatalog('bikeshare').plan('share of electric trips')).toMatchObject({ kind: 'governed', metrics: ['electric_share'] });
    // Of another whole it is not the share asked for, and the question is declined naming it.
    const declared = classCatalog('bikeshare').plan('What share of riding time was electric?');
    expect(declared.kind === 'no_match' && declared.reason).toContain('Electric share');
  });
});
