// Wrong governed answers the class sets found, each a class of mistake: a breakdown by a dimension two
// roles reach, a metric's own word read as a time grain, and a count under a question that asks how
// much. Each is declined (or answered with the metric asked for), never answered for a guess.
import { describe, expect, it } from 'vitest';
import { fitHeadline } from '../../src/core/answer/headline-fit.js';
import { classCatalog } from './class-catalogs.js';

describe('a breakdown by a dimension two roles reach', () => {
  it('is declined naming both roles unless the question names one', () => {
    const { plan } = classCatalog('bikeshare');
    const ambiguous = plan('fare revenue by station');
    expect(ambiguous).toMatchObject({ kind: 'no_match' });
    expect(ambiguous.kind === 'no_match' && ambiguous.reason).toContain('start_station.name');
    expect(ambiguous.kind === 'no_match' && ambiguous.reason).toContain('end_station.name');
    expect(plan('fare revenue by start station')).toMatchObject({ kind: 'governed', dimensions: ['start_station.name'] });
    expect(plan('trips by destination station')).toMatchObject({ kind: 'governed', dimensions: ['end_station.name'] });
  });

  it('keeps the base node winning over a joined node of the same words', () => {
    const { plan } = classCatalog('hotels');
    expect(plan('bookings by channel')).toMatchObject({ kind: 'governed', dimensions: ['channel'] });
  });
});

describe('a grain adverb inside a metric name', () => {
  it('is the metric’s word, not a daily breakdown', () => {
    const { plan } = classCatalog('hotels');
    expect(plan('average daily rate per hotel')).toMatchObject({ kind: 'governed', metrics: ['average_daily_rate'], dimensions: ['hotels.name'] });
    expect(plan('average daily rate')).toMatchObject({ kind: 'governed', metrics: ['average_daily_rate'], dimensions: [] });
    // Outside the metric's name it still asks for days.
    expect(plan('daily room revenue')).toMatchObject({ kind: 'governed', metrics: ['room_revenue'], dimensions: ['check_in.day'] });
  });
});

describe('"how much" against a count', () => {
  const senders = { name: 'senders', label: 'Senders', counts: true };
  const volume = { name: 'volume', label: 'Transfer volume', counts: false };

  it('puts the amount first when the plan has one', () => {
    expect(fitHeadline('How much did senders in Europe send to Asia?', [senders, volume])).toEqual({ kind: 'fits', metrics: ['volume', 'senders'] });
    expect(fitHeadline('¿Cuánto dinero enviaron?', [senders, volume])).toEqual({ kind: 'fits', metrics: ['volume', 'senders'] });
  });

  it('declines a plan of counts only', () => {
    expect(fitHeadline('How much did senders send?', [senders])).toMatchObject({ kind: 'mismatch' });
    expect(fitHeadline('wie viel haben Absender gesendet?', [senders])).toMatchObject({ kind: 'mismatch' });
  });

  it('leaves "how many" and amounts alone', () => {
    expect(fitHeadline('How many senders sent money?', [senders, volume])).toEqual({ kind: 'fits', metrics: ['senders', 'volume'] });
    expect(fitHeadline('wie viele Absender?', [senders])).toEqual({ kind: 'fits', metrics: ['senders'] });
    expect(fitHeadline('How much money was sent?', [volume])).toEqual({ kind: 'fits', metrics: ['volume'] });
  });
});
