// When a delivery schedule runs: croner reads the cron expression in the schedule's IANA time zone, so
// a daily 09:00 stays 09:00 local across daylight-saving changes (a run in a skipped hour moves to the
// first valid time, a repeated hour runs once). Every instant comes from the injected clock.
import { Cron } from 'croner';
import { BadRequestError } from '../core/errors.js';
import { nextRunAfter as nextSignalRunAfter } from '../signals/signal-schedule.js';

/** Deliveries run at most once a minute: a six-field expression (seconds first) could ask for more. */
const MIN_GAP_SECONDS = 60;
/** A fixed instant to look at runs from: the check must not depend on when a schedule is saved. */
const SPACING_FROM = new Date('2001-01-01T00:00:00Z');

export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new BadRequestError(`Unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`, 'invalid_timezone');
  }
}

/** Throws 400 naming the problem when the zone is unknown, the expression does not parse or runs too often. */
export function assertCron(cron: string, timezone: string): void {
  assertTimezone(timezone);
  let runs: Date[];
  try {
    runs = new Cron(cron, { paused: true, timezone }).nextRuns(3, SPACING_FROM);
  } catch (error) {
    throw new BadRequestError(`cron "${cron}" is not a valid cron expression: ${(error as Error).message}`, 'invalid_cron');
  }
  if (runs.length === 0) throw new BadRequestError(`cron "${cron}" never runs`, 'invalid_cron');
  // Only the seconds field brings runs closer than a minute, and then two of any three runs show it.
  for (let i = 1; i < runs.length; i++) {
    const seconds = (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000;
    if (seconds < MIN_GAP_SECONDS) throw new BadRequestError(`cron "${cron}" runs ${seconds} s apart; deliveries run at most once a minute`, 'invalid_cron');
  }
}

/** The first run strictly after `after`, or null when the expression has no further run. */
export function nextRunAfter(schedule: { cron: string; timezone: string }, after: Date): Date | null {
  return nextSignalRunAfter({ cron: schedule.cron, timezone: schedule.timezone, interval_seconds: null }, after);
}
