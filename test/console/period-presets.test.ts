// The console's comparison periods, computed in the browser: calendar months, quarters and years in the
// workspace's time zone (the date there, not the machine's), as half-open [from, to) dates.
import { describe, expect, it } from 'vitest';
import { customRange, dateIn, presetRange, rangeText } from '../../web/src/components/period-presets.js';

describe('presetRange', () => {
  it('gives this and the last month, quarter and year around a mid-month instant', () => {
    const at = new Date('2026-06-17T10:00:00Z');
    expect(presetRange('this_month', at, 'UTC')).toEqual(['2026-06-01', '2026-07-01']);
    expect(presetRange('last_month', at, 'UTC')).toEqual(['2026-05-01', '2026-06-01']);
    expect(presetRange('this_quarter', at, 'UTC')).toEqual(['2026-04-01', '2026-07-01']);
    expect(presetRange('last_quarter', at, 'UTC')).toEqual(['2026-01-01', '2026-04-01']);
    expect(presetRange('this_year', at, 'UTC')).toEqual(['2026-01-01', '2027-01-01']);
    expect(presetRange('last_year', at, 'UTC')).toEqual(['2025-01-01', '2026-01-01']);
  });

  it('crosses into the year before from January', () => {
    const at = new Date('2026-01-15T12:00:00Z');
    expect(presetRange('last_month', at, 'UTC')).toEqual(['2025-12-01', '2026-01-01']);
    expect(presetRange('last_quarter', at, 'UTC')).toEqual(['2025-10-01', '2026-01-01']);
    expect(presetRange('this_quarter', new Date('2026-12-31T12:00:00Z'), 'UTC')).toEqual(['2026-10-01', '2027-01-01']);
  });

  it("counts from the date in the workspace's zone, which may be a day ahead of or behind UTC", () => {
    const lastEveningOfMarchUtc = new Date('2026-03-31T23:30:00Z');
    expect(dateIn(lastEveningOfMarchUtc, 'Pacific/Auckland')).toEqual({ year: 2026, month: 4, day: 1 });
    expect(presetRange('this_month', lastEveningOfMarchUtc, 'Pacific/Auckland')).toEqual(['2026-04-01', '2026-05-01']);
    expect(presetRange('this_quarter', lastEveningOfMarchUtc, 'Pacific/Auckland')).toEqual(['2026-04-01', '2026-07-01']);
    expect(presetRange('this_month', lastEveningOfMarchUtc, 'UTC')).toEqual(['2026-03-01', '2026-04-01']);
    const earlyAprilUtc = new Date('2026-04-01T03:00:00Z');
    expect(presetRange('this_month', earlyAprilUtc, 'America/Los_Angeles')).toEqual(['2026-03-01', '2026-04-01']);
    expect(presetRange('last_year', new Date('2027-01-01T02:00:00Z'), 'America/New_York')).toEqual(['2025-01-01', '2026-01-01']);
  });
});

describe('customRange', () => {
  it('takes the first and last days, both included, as [first, day after last)', () => {
    expect(customRange('2026-02-01', '2026-02-28')).toEqual(['2026-02-01', '2026-03-01']);
    expect(customRange('2024-02-29', '2024-02-29')).toEqual(['2024-02-29', '2024-03-01']);
    expect(customRange('2025-12-01', '2025-12-31')).toEqual(['2025-12-01', '2026-01-01']);
  });

  it('says what is missing or reversed', () => {
    expect(customRange('', '2026-02-28')).toBe('Give the first and the last day of the period.');
    expect(customRange('2026-03-01', '2026-02-28')).toBe('The last day comes before the first.');
  });
});

describe('rangeText', () => {
  it('names the first and the last day of a half-open range, and a single day once', () => {
    expect(rangeText(['2026-05-01T00:00:00.000', '2026-06-01T00:00:00.000'])).toBe('1 May 2026 – 31 May 2026');
    expect(rangeText(['2026-05-01', '2026-05-02'])).toBe('1 May 2026');
    expect(rangeText(['2026-05-01T08:00:00.000', '2026-05-01T17:00:00.000'])).toBe('2026-05-01T08:00:00.000 – 2026-05-01T17:00:00.000 (end excluded)');
  });
});
