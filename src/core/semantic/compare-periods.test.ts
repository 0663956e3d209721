// The periods a comparison reads, worked out by hand: what "the period before" and "a year before" are
// for ranges of months, days and exact times, with and without a grain, and how buckets move.
import { describe, expect, it } from 'vitest';
import { comparedPeriods, readBucket, shiftWall, wallText, writeBucketLike } from './compare-periods.js';
import type { CompareSpec } from './query.js';

const wall = (text: string) => new Date(`${text}Z`);
const texts = (periods: ReturnType<typeof comparedPeriods>) => [wallText(periods.comparison.from), wallText(periods.comparison.to)];
const spec = (range: [string, string], to: CompareSpec['to'] = 'previous_period'): CompareSpec => ({ dimension: 'created_at', range, to });

describe('comparedPeriods', () => {
  it.each<[string, [string, string], string[]]>([
    ['a quarter: the quarter before', ['2026-01-01', '2026-04-01'], ['2025-10-01T00:00:00.000', '2026-01-01T00:00:00.000']],
    ['two months from a month start: the two months before', ['2026-03-01', '2026-05-01'], ['2026-01-01T00:00:00.000', '2026-03-01T00:00:00.000']],
    ['a week of days: the seven days before', ['2026-03-02', '2026-03-09'], ['2026-02-23T00:00:00.000', '2026-03-02T00:00:00.000']],
    ['days not on month starts: as many days before', ['2026-03-15', '2026-04-15'], ['2026-02-12T00:00:00.000', '2026-03-15T00:00:00.000']],
    ['exact times: the same duration before', ['2026-03-15T06:00:00', '2026-03-15T18:30:00'], ['2026-03-14T17:30:00.000', '2026-03-15T06:00:00.000']],
  ])('previous_period of %s', (_name, range, expected) => {
    const periods = comparedPeriods(spec(range), undefined, 'UTC');
    expect(texts(periods)).toEqual(expected);
    expect(periods.shift).toBeUndefined();
  });

  it('previous_period with a grain moves the range, and each bucket, one bucket back', () => {
    const periods = comparedPeriods(spec(['2026-01-01', '2026-04-01']), 'month', 'UTC');
    expect(texts(periods)).toEqual(['2025-12-01T00:00:00.000', '2026-03-01T00:00:00.000']);
    expect(periods.shift).toEqual({ unit: 'month', amount: 1 });
    expect(comparedPeriods(spec(['2026-03-02', '2026-03-30']), 'week', 'UTC').shift).toEqual({ unit: 'day', amount: 7 });
    expect(comparedPeriods(spec(['2026-03-02T00:00', '2026-03-02T12:00']), 'hour', 'UTC').shift).toEqual({ unit: 'ms', amount: 3_600_000 });
  });

  it('previous_year: twelve months back, 29 February to the 28th; weeks 52 weeks back, still Mondays', () => {
    expect(texts(comparedPeriods(spec(['2028-02-29', '2028-03-01'], 'previous_year'), undefined, 'UTC'))).toEqual(['2027-02-28T00:00:00.000', '2027-03-01T00:00:00.000']);
    const weeks = comparedPeriods(spec(['2026-03-02', '2026-03-16'], 'previous_year'), 'week', 'UTC');
    expect(texts(weeks)).toEqual(['2025-03-03T00:00:00.000', '2025-03-17T00:00:00.000']);
    expect(wall('2025-03-03T00:00:00').getUTCDay()).toBe(1);
  });

  it('a range of its own: with a grain, buckets meet in order from each range’s first', () => {
    const periods = comparedPeriods(spec(['2026-01-15', '2026-04-01'], { range: ['2024-07-01', '2024-10-01'] }), 'month', 'UTC');
    expect(texts(periods)).toEqual(['2024-07-01T00:00:00.000', '2024-10-01T00:00:00.000']);
    expect(periods.shift).toEqual({ unit: 'month', amount: 18 });
  });

  it('reads instants in the query’s zone, and refuses empty ranges and values that are no time', () => {
    const periods = comparedPeriods(spec(['2026-01-01T00:00:00+01:00', '2026-01-02T00:00:00+01:00']), undefined, 'America/New_York');
    expect(wallText(periods.current.from)).toBe('2025-12-31T18:00:00.000');
    expect(() => comparedPeriods(spec(['2026-01-02', '2026-01-01']), undefined, 'UTC')).toThrow(/compare\.range is empty/);
    expect(() => comparedPeriods(spec(['2026-01-01', '2026-02-30']), undefined, 'UTC')).toThrow(/compare\.range\[1\] needs a date/);
    expect(() => comparedPeriods(spec(['2026-01-01', '2026-02-01'], { range: ['2025-01-01', '2025-01-01'] }), undefined, 'UTC')).toThrow(/compare\.to\.range is empty/);
  });
});

describe('buckets', () => {
  it('month moves clamp the day and keep the time', () => {
    expect(wallText(shiftWall(wall('2024-02-29T13:45:00'), { unit: 'month', amount: 12 }, 1))).toBe('2025-02-28T13:45:00.000');
    expect(wallText(shiftWall(wall('2026-03-31T00:00:00'), { unit: 'month', amount: 1 }, -1))).toBe('2026-02-28T00:00:00.000');
    expect(wallText(shiftWall(wall('2026-01-01T00:00:00'), { unit: 'month', amount: 3 }, -1))).toBe('2025-10-01T00:00:00.000');
  });

  it('are written back in the form the warehouse gave', () => {
    const moved = wall('2026-05-01T00:00:00');
    expect(writeBucketLike(moved, '2025-05-01T00:00:00.000')).toBe('2026-05-01T00:00:00.000');
    expect(writeBucketLike(moved, '2025-05-01')).toBe('2026-05-01');
    expect(writeBucketLike(moved, '2025-05-01T00:00:00.000Z')).toBe('2026-05-01T00:00:00.000Z');
    expect(writeBucketLike(moved, '2025-05-01 00:00:00')).toBe('2026-05-01 00:00:00');
    expect(readBucket('2025-05-01T10:20:30.123Z')?.toISOString()).toBe('2025-05-01T10:20:30.123Z');
    expect([readBucket(null), readBucket('May 2025'), readBucket(20250501)]).toEqual([undefined, undefined, undefined]);
  });
});
