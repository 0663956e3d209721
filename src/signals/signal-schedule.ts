// When a signal runs next: croner reads the cron expression in the signal's time zone (daylight-saving
// changes included); an interval simply adds up. A cron expression must not run more often than the
// shortest interval (MIN_INTERVAL_SECONDS), which a six-field expression (seconds first) could.
import { Cron } from 'croner';
import { BadRequestError } from '../core/errors.js';
import { MIN_INTERVAL_SECONDS } from './signal-definition.js';

export interface ScheduleFields {
  cron: string | null;
  timezone: string | null;
  interval_seconds: number | null;
}

/** Throws 400 naming the problem when the expression or the zone is not valid. */
export function assertSchedule(schedule: ScheduleFields): void {
  if (schedule.cron === null) return;
  try {
    new Cron(schedule.cron, { paused: true, ...(schedule.timezone ? { timezone: schedule.timezone } : {}) }).nextRun();
  } catch (error) {
    throw new BadRequestError(`schedule.cron "${schedule.cron}" (time zone ${schedule.timezone ?? 'UTC'}) is not valid: ${(error as Error).message}`, 'invalid_schedule');
  }
  assertCronSpacing(schedule.cron, schedule.timezone);
  if (schedule.timezone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: schedule.timezone });
    } catch {
      throw new BadRequestError(`schedule.timezone "${schedule.timezone}" is not a known time zone`, 'invalid_schedule');
    }
  }
}

/** A fixed instant to look at runs from: the check must not depend on when a signal is saved. */
const SPACING_FROM = new Date('2001-01-01T00:00:00Z');

/**
 * Refuses an expression with two runs less than MIN_INTERVAL_SECONDS apart. Only the seconds field can
 * bring runs that close (the other fields count whole minutes), and every minute that matches runs at
 * every second the field names: so if the field names two seconds, two of any three consecutive runs
 * fall in one minute. Three runs from any instant therefore decide it.
 */
function assertCronSpacing(expression: string, timezone: string | null): void {
  const runs = new Cron(expression, { paused: true, ...(timezone ? { timezone } : {}) }).nextRuns(3, SPACING_FROM);
  for (let i = 1; i < runs.length; i++) {
    const seconds = (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000;
    if (seconds < MIN_INTERVAL_SECONDS) {
      throw new BadRequestError(
        `schedule.cron "${expression}" runs ${seconds} s apart; signals run at most once a minute (give the seconds field one value, e.g. "0 * * * * *", or use five fields)`,
        'invalid_schedule',
      );
    }
  }
}

/** The first run strictly after `after`, or null when a cron expression has no further run. */
export function nextRunAfter(schedule: ScheduleFields, after: Date): Date | null {
  if (schedule.interval_seconds !== null) return new Date(after.getTime() + schedule.interval_seconds * 1000);
  const cron = new Cron(schedule.cron!, { paused: true, ...(schedule.timezone ? { timezone: schedule.timezone } : {}) });
  return cron.nextRun(after);
}
