// When a signal runs next: croner reads the cron expression in the signal's time zone (daylight-saving
// changes included); an interval simply adds up.
import { Cron } from 'croner';
import { BadRequestError } from '../core/errors.js';

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
  if (schedule.timezone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: schedule.timezone });
    } catch {
      throw new BadRequestError(`schedule.timezone "${schedule.timezone}" is not a known time zone`, 'invalid_schedule');
    }
  }
}

/** The first run strictly after `after`, or null when a cron expression has no further run. */
export function nextRunAfter(schedule: ScheduleFields, after: Date): Date | null {
  if (schedule.interval_seconds !== null) return new Date(after.getTime() + schedule.interval_seconds * 1000);
  const cron = new Cron(schedule.cron!, { paused: true, ...(schedule.timezone ? { timezone: schedule.timezone } : {}) });
  return cron.nextRun(after);
}
