// Several filters on one metric and the verbs that bind a value to its role, on the class domains'
// models: where a trip started or ended, where money was sent from or to, where a guest came from and
// where they stayed. A verb of leaving or arriving binds the value to its side; a place word binds it
// to the field that plays no role; without either the question is still declined.
import { describe, expect, it } from 'vitest';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { classCatalog } from './class-catalogs.js';

const eq = (field: string, value: string) => ({ field, operator: 'equals', value });
const sorted = (plan: AnswerPlan) => (plan.kind === 'governed' ? { metrics: plan.metrics, filters: [...plan.filters].sort((a, b) => a.field.localeCompare(b.field)) } : plan);

describe('direction verbs', () => {
  const { plan } = classCatalog('bikeshare');
  it.each([
    ['How many trips started at Harbour Front', eq('start_station.name', 'Harbour Front')],
    ['How many trips left Campus North', eq('start_station.name', 'Campus North')],
    ['trips departing from Ferry Terminal', eq('start_station.name', 'Ferry Terminal')],
    ['trips that ended at City Hall', eq('end_station.name', 'City Hall')],
    ['trips docked at Stadium Gate', eq('end_station.name', 'Stadium Gate')],
    ['How many rentals were returned to Museum Square', eq('end_station.name', 'Museum Square')],
    ['trips that finished in the Riverside district', eq('end_station.district', 'Riverside')],
  ])('"%s" binds the station to its role', (question, filter) => {
    expect(sorted(plan(question))).toEqual({ metrics: ['trips'], filters: [filter] });
  });

  it('binds two values to two roles, each by its own verb', () => {
    expect(sorted(plan('trips picked up in the Old Town district and dropped off at Central Station'))).toEqual({
      metrics: ['trips'],
      filters: [eq('end_station.name', 'Central Station'), eq('start_station.district', 'Old Town')],
    });
  });

  it('still declines a station no word binds to a role', () => {
    expect(plan('trips at Central Station')).toMatchObject({ kind: 'no_match' });
    expect(plan('How many trips passed through City Hall')).toMatchObject({ kind: 'no_match' });
  });

  it('binds money sent to and from countries, and a bare region by the other value of the pair', () => {
    const remittance = classCatalog('remittance').plan;
    expect(sorted(remittance('How many transfers were received in Spain'))).toEqual({ metrics: ['transfers'], filters: [eq('recipient_country.name', 'Spain')] });
    expect(sorted(remittance('money sent home to Nigeria'))).toEqual({ metrics: ['volume'], filters: [eq('recipient_country.name', 'Nigeria')] });
    expect(sorted(remittance('How much did senders in Europe send to Asia'))).toEqual({
      metrics: ['volume'],
      filters: [eq('recipient_country.region', 'Asia'), eq('sender_country.region', 'Europe')],
    });
    expect(remittance('transfers between Spain and France')).toMatchObject({ kind: 'no_match' });
  });
});

describe('place words', () => {
  const { plan } = classCatalog('hotels');
  it('bind a country to the hotel, and "from" to the guest', () => {
    expect(sorted(plan('room nights at hotels in Germany'))).toEqual({ metrics: ['room_nights'], filters: [eq('hotels.country', 'Germany')] });
    // "within" a place no pair of roles shares is where the thing counted happened.
    expect(sorted(plan('room nights at hotels within Germany'))).toEqual({ metrics: ['room_nights'], filters: [eq('hotels.country', 'Germany')] });
    expect(sorted(plan('room revenue from guests from Italy at hotels in France'))).toEqual({
      metrics: ['room_revenue'],
      filters: [eq('guest_country.name', 'Italy'), eq('hotels.country', 'France')],
    });
    expect(sorted(plan('How many guests visited Italy from the United Kingdom'))).toEqual({
      metrics: ['guests'],
      filters: [eq('guest_country.name', 'United Kingdom'), eq('hotels.country', 'Italy')],
    });
    expect(sorted(plan('room nights in Spain booked by guests from Spain'))).toEqual({
      metrics: ['room_nights'],
      filters: [eq('guest_country.name', 'Spain'), eq('hotels.country', 'Spain')],
    });
  });

  it('leave a country nothing places undecided', () => {
    expect(plan('bookings involving France')).toMatchObject({ kind: 'no_match' });
    expect(plan('bookings in France')).toMatchObject({ kind: 'no_match' });
    expect(plan('How many guests travelled between Spain and Portugal')).toMatchObject({ kind: 'no_match' });
  });
});

describe('several filters on one metric', () => {
  it('reads "by <value>" after a verb or before its field’s noun as a filter, and drops the nouns of filters as metrics', () => {
    expect(sorted(classCatalog('bikeshare').plan('trips on electric bikes by casual riders paying by card'))).toEqual({
      metrics: ['trips'],
      filters: [eq('bike_type', 'electric'), eq('payment', 'card'), eq('rider_type', 'casual')],
    });
    expect(sorted(classCatalog('remittance').plan('transfer volume to Latin America by mobile wallet'))).toEqual({
      metrics: ['volume'],
      filters: [eq('payout_method', 'mobile wallet'), eq('recipient_country.region', 'Latin America')],
    });
  });

  it('reads the reveal’s own things after a metric as its rows, and a guest’s noun as the guest’s filter', () => {
    expect(sorted(classCatalog('bikeshare').plan('riding time of trips departing from Ferry Terminal'))).toEqual({ metrics: ['riding_time'], filters: [eq('start_station.name', 'Ferry Terminal')] });
    expect(sorted(classCatalog('hotels').plan('How many bookings came from guests from Germany'))).toEqual({ metrics: ['bookings'], filters: [eq('guest_country.name', 'Germany')] });
  });

  it('keeps two metrics joined by "and"', () => {
    expect(classCatalog('bikeshare').plan('fare revenue and trips departing from Central Station')).toMatchObject({ kind: 'governed', metrics: ['fares', 'trips'] });
  });

  it('keeps a divisor after "per" a divisor, never words of the rows', () => {
    expect(classCatalog('remittance').plan('fee revenue per transfer sent from Spain')).toMatchObject({ kind: 'governed', metrics: ['fees'], per: { by: 'transfers' } });
  });
});
