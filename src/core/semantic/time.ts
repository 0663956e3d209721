// Wall-clock arithmetic in a time zone, for relative date filters (inThePast, inTheCurrent) and for
// reading filter values. A "wall time" is kept as a Date whose UTC fields are the wall-clock fields, so
// that day and month arithmetic never trips over daylight-saving changes.
import { BadRequestError } from '../errors.js';

export const PERIOD_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

// Building a formatter costs tens of microseconds: remember the zones already checked.
const knownZones = new Set<string>(['UTC']);

/**
 * Refuses a zone that is not an IANA name. Newer JavaScript engines also accept UTC offsets (`+02:00`)
 * as time zones, which the warehouses do not (DuckDB, MySQL's time zone tables): those are refused here
 * too, rather than by the warehouse.
 */
export function assertTimeZone(timezone: string): void {
  if (knownZones.has(timezone)) return;
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    resolved = undefined;
  }
  if (!resolved || /^[+-]/.test(resolved)) {
    throw new BadRequestError(`Unknown time zone "${timezone}"; use an IANA name such as UTC or Europe/Paris`, 'invalid_timezone');
  }
  if (knownZones.size < 1000) knownZones.add(timezone);
}

/** The wall time in `timezone` at the instant `now`. */
export function wallClock(now: Date, timezone: string): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return new Date(Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'), now.getUTCMilliseconds()));
}

export function startOf(unit: PeriodUnit, wall: Date): Date {
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  switch (unit) {
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'week': {
      const isoDay = (wall.getUTCDay() + 6) % 7; // Monday 0
      return new Date(Date.UTC(y, m, d - isoDay));
    }
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
  }
}

export function addUnits(unit: PeriodUnit, wall: Date, amount: number): Date {
  const next = new Date(wall);
  if (unit === 'day') next.setUTCDate(next.getUTCDate() + amount);
  if (unit === 'week') next.setUTCDate(next.getUTCDate() + 7 * amount);
  if (unit === 'month') next.setUTCMonth(next.getUTCMonth() + amount);
  if (unit === 'quarter') next.setUTCMonth(next.getUTCMonth() + 3 * amount);
  if (unit === 'year') next.setUTCFullYear(next.getUTCFullYear() + amount);
  return next;
}

/** `YYYY-MM-DD HH:mm:ss.SSS`, the form every engine casts to a timestamp. */
export function formatWall(wall: Date): string {
  return wall.toISOString().replace('T', ' ').replace('Z', '');
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const ZONED_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A filter value for a time dimension, as wall time in `timezone`. Dates and local date-times are taken
 * as written (wall time); a value with Z or an offset is an instant, converted to wall time there.
 */
export function parseTimeValue(value: unknown, field: string, timezone: string): { wall: Date; dateOnly: boolean } {
  if (typeof value === 'string') {
    if (DATE_ONLY.test(value) || LOCAL_DATETIME.test(value)) {
      const wall = new Date(`${value.replace(' ', 'T')}${DATE_ONLY.test(value) ? 'T00:00:00' : ''}Z`);
      if (!Number.isNaN(wall.getTime()) && wall.toISOString().slice(0, 10) === value.slice(0, 10)) {
        return { wall, dateOnly: DATE_ONLY.test(value) };
      }
    } else if (ZONED_DATETIME.test(value)) {
      const instant = new Date(value);
      if (!Number.isNaN(instant.getTime())) return { wall: wallClock(instant, timezone), dateOnly: false };
    }
  }
  throw new BadRequestError(
    `Filter on ${field} needs a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm:ss), got ${JSON.stringify(value)}`,
    'invalid_filter_value',
  );
}

/** "7 days", "1 month", "week" → amount and unit. */
export function parsePeriod(value: unknown, field: string, allowAmount: boolean): { amount: number; unit: PeriodUnit } {
  const match = typeof value === 'string' ? /^\s*(?:(\d{1,4})\s+)?([a-z]+?)s?\s*$/i.exec(value) : null;
  const unit = match?.[2]?.toLowerCase();
  if (match && unit && (PERIOD_UNITS as readonly string[]).includes(unit) && (allowAmount || !match[1])) {
    return { amount: match[1] ? Number(match[1]) : 1, unit: unit as PeriodUnit };
  }
  const example = allowAmount ? '"7 days", "3 months" or "year"' : '"day", "week", "month", "quarter" or "year"';
  throw new BadRequestError(`Filter on ${field} needs a period such as ${example}, got ${JSON.stringify(value)}`, 'invalid_filter_value');
}
