import type { Clock } from '../../src/clock.js';

/**
 * The instant test time starts at unless a test names another: a Wednesday, mid-morning UTC and
 * mid-month, hours from a day's end and days from a week's, month's, quarter's or year's end or a
 * daylight-saving change, so that no test's "now" depends on the machine's date, hour or time zone.
 * `TEST_NOW=<ISO instant>` moves it, to run test files at another instant (README, Development).
 */
export const TEST_NOW: Date = testNowFrom(process.env['TEST_NOW']);

function testNowFrom(value: string | undefined): Date {
  if (value === undefined || value === '') return new Date('2026-06-17T10:00:00.000Z');
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || !/(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    throw new Error(`TEST_NOW must be an ISO instant with its offset, such as 2026-11-30T10:00:00Z, got ${JSON.stringify(value)}`);
  }
  return at;
}

// Test time runs from TEST_NOW at the pace of the monotonic clock, counted from when this file was loaded:
// every clock of one test file reads the same time until one is moved, and no clock reads the machine's
// date (which setting or faking the machine's time would move).
const loadedAt = performance.now();
const elapsedMs = () => Math.floor(performance.now() - loadedAt);

/**
 * A clock that tests move by hand: time-based rules are checked without waiting, and never on the
 * machine's date. It reads TEST_NOW (or `start`) plus the time elapsed since, so that leases, windows
 * and timeouts still pass on their own.
 */
export class TestClock implements Clock {
  private offsetMs: number;

  constructor(start?: Date) {
    this.offsetMs = start ? start.getTime() - TEST_NOW.getTime() - elapsedMs() : 0;
  }

  now(): Date {
    return new Date(TEST_NOW.getTime() + elapsedMs() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Moves the clock to `at` (forwards or back), from where it runs on. */
  set(at: Date): void {
    this.offsetMs = at.getTime() - TEST_NOW.getTime() - elapsedMs();
  }
}
