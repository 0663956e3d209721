// When a delivery schedule runs next: the cron read in the schedule's time zone across daylight-saving
// changes, from fixed instants (nothing here reads the machine's date or zone), and the 4xx for a bad
// expression or an unknown zone.
import { describe, expect, it } from 'vitest';
import { assertCron, nextRunAfter } from '../../src/deliveries/schedule-timing.js';

const at = (iso: string) => new Date(iso);

describe('delivery schedule timing', () => {
  it('keeps 09:00 local in Berlin across the autumn change: 07:00Z in summer, 08:00Z in winter', () => {
    const daily = { cron: '0 9 * * *', timezone: 'Europe/Berlin' };
    expect(nextRunAfter(daily, at('2026-10-24T07:00:00Z'))!.toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(nextRunAfter(daily, at('2026-10-23T07:30:00Z'))!.toISOString()).toBe('2026-10-24T07:00:00.000Z');
  });

  it('keeps 09:00 local in New York across the spring change: 14:00Z before, 13:00Z after', () => {
    const daily = { cron: '0 9 * * *', timezone: 'America/New_York' };
    expect(nextRunAfter(daily, at('2026-03-07T15:00:00Z'))!.toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextRunAfter(daily, at('2026-03-06T15:00:00Z'))!.toISOString()).toBe('2026-03-07T14:00:00.000Z');
  });

  it('a run in the hour a spring change skips happens once that day, and the repeated autumn hour runs once', () => {
    // 02:30 does not exist in Berlin on 2026-03-29 (02:00 → 03:00).
    const skipped = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    const spring = nextRunAfter(skipped, at('2026-03-28T02:00:00Z'))!;
    expect(spring.getTime()).toBeGreaterThan(at('2026-03-28T23:00:00Z').getTime());
    expect(spring.getTime()).toBeLessThan(at('2026-03-29T22:00:00Z').getTime());
    const after = nextRunAfter(skipped, spring)!;
    expect(after.toISOString()).toBe('2026-03-30T00:30:00.000Z');
    // 02:30 happens twice in Berlin on 2026-10-25 (03:00 → 02:00): one run that day.
    const repeated = nextRunAfter(skipped, at('2026-10-24T12:00:00Z'))!;
    const next = nextRunAfter(skipped, repeated)!;
    expect(next.getTime() - repeated.getTime()).toBeGreaterThan(22 * 3_600_000);
  });

  it('refuses a bad expression, one that runs more than once a minute, and an unknown zone, naming each', () => {
    expect(() => assertCron('not a cron', 'UTC')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_cron' }));
    expect(() => assertCron('* * * * * *', 'UTC')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_cron' }));
    expect(() => assertCron('0 9 * * *', 'Mars/Olympus')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_timezone' }));
    expect(() => assertCron('0 9 * * 1-5', 'Asia/Kolkata')).not.toThrow();
  });
});
