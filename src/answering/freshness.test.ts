import { describe, expect, it } from 'vitest';
import { freshnessDate } from './freshness.js';

describe('freshnessDate', () => {
  it.each([
    ['a date', '2026-10-31', 'Asia/Tokyo', '2026-10-31'],
    ['a naive timestamp, taken as UTC like the compiler does', '2026-10-31T23:30:00.000', 'Asia/Tokyo', '2026-11-01'],
    ['a naive timestamp with a space', '2026-10-31 23:30:00', 'UTC', '2026-10-31'],
    ['an instant, read in Tokyo', '2026-10-31T23:30:00.000Z', 'Asia/Tokyo', '2026-11-01'],
    ['an instant, read in Los Angeles', '2026-11-01T03:00:00.000Z', 'America/Los_Angeles', '2026-10-31'],
    ['an instant with an offset', '2026-10-31T23:30:00+02:00', 'UTC', '2026-10-31'],
    ['an instant in UTC', '2026-10-31T23:30:00.000Z', 'UTC', '2026-10-31'],
  ])('reads %s', (_what, value, timezone, expected) => {
    expect(freshnessDate(value, timezone)).toBe(expected);
  });

  it.each([null, undefined, 42, 'not a date'])('has no date for %j', (value) => {
    expect(freshnessDate(value, 'UTC')).toBeNull();
  });
});
