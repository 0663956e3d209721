// The periods of a comparison over time, in wall-clock time of the query's zone (see time.ts for why a
// wall time is a Date whose UTC fields are the clock's): the current range as written, the range it is
// compared with, and how far a bucket of a time grain moves from one to the other. Month-based moves
// keep the day of the month and clamp it (a 29 February a year back is the 28th), so a bucket of a
// month, quarter or year always lands on the start of another.
import { BadRequestError } from '../errors.js';
import type { Granularity } from './model.js';
import type { CompareSpec } from './query.js';
import { parseTimeValue, startOf } from './time.js';

/** A half-open range of wall times, [from, to). */
export interface WallRange {
  readonly from: Date;
  readonly to: Date;
}

/** A move of wall times by calendar months, by days, or by an exact duration. */
export interface Shift {
  readonly unit: 'month' | 'day' | 'ms';
  readonly amount: number;
}

const MS: Partial<Record<Granularity, number>> = { second: 1000, minute: 60_000, hour: 3_600_000 };
const DAY_MS = 86_400_000;

/** `wall` moved by `shift`, forwards (1) or back (-1). */
export function shiftWall(wall: Date, shift: Shift, direction: 1 | -1): Date {
  const amount = shift.amount * direction;
  if (shift.unit === 'ms') return new Date(wall.getTime() + amount);
  if (shift.unit === 'day') return new Date(wall.getTime() + amount * DAY_MS);
  const months = wall.getUTCFullYear() * 12 + wall.getUTCMonth() + amount;
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const time = wall.getTime() - Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  return new Date(Date.UTC(year, month, Math.min(wall.getUTCDate(), lastDay)) + time);
}

/** The grain one bucket spans, as a shift. */
export function grainShift(grain: Granularity): Shift {
  const ms = MS[grain];
  if (ms !== undefined) return { unit: 'ms', amount: ms };
  if (grain === 'day') return { unit: 'day', amount: 1 };
  if (grain === 'week') return { unit: 'day', amount: 7 };
  return { unit: 'month', amount: grain === 'month' ? 1 : grain === 'quarter' ? 3 : 12 };
}

/** The start of the bucket of `grain` holding `wall` (weeks start on Monday, as the warehouses' do). */
export function bucketStart(grain: Granularity, wall: Date): Date {
  const ms = MS[grain];
  if (ms !== undefined) return new Date(Math.floor(wall.getTime() / ms) * ms);
  return startOf(grain as Exclude<Granularity, 'second' | 'minute' | 'hour'>, wall);
}

/** A comparison range read from the query: both bounds as filters read them, `from` before `to`. */
export function readRange(values: readonly string[], label: string, timezone: string): WallRange {
  const [from, to] = values.map((value, i) => {
    try {
      return parseTimeValue(value, label, timezone).wall;
    } catch {
      throw new BadRequestError(
        `${label}[${i}] needs a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm:ss, or with Z or an offset), got ${JSON.stringify(value)}`,
        'invalid_compare',
      );
    }
  }) as [Date, Date];
  if (from.getTime() >= to.getTime()) {
    throw new BadRequestError(`${label} is empty: [from, to) needs from before to, got ${JSON.stringify(values)}`, 'invalid_compare');
  }
  return { from, to };
}

export interface ComparedPeriods {
  readonly current: WallRange;
  readonly comparison: WallRange;
  /** With a grain: how far a comparison bucket moves forwards to meet the bucket it is compared with. */
  readonly shift?: Shift;
}

/**
 * The current and comparison ranges of `compare`, and with a grain of the compared dimension, the shift
 * between their buckets:
 * - previous_period with a grain: each bucket against the bucket one grain before; without, the period
 *   of the same length just before: in months when both ends start a month, else in days when both
 *   are midnight, else in exact time (so a quarter compares with the quarter before, a week with the week before);
 * - previous_year: a year before (52 weeks for weeks, so that a week still starts on a Monday);
 * - a range of its own: with a grain, the first bucket of one against the first of the other, and so on.
 */
export function comparedPeriods(compare: CompareSpec, grain: Granularity | undefined, timezone: string): ComparedPeriods {
  const current = readRange(compare.range, 'compare.range', timezone);
  const to = compare.to;
  if (typeof to === 'object') {
    const comparison = readRange(to.range, 'compare.to.range', timezone);
    return { current, comparison, ...(grain ? { shift: bucketDistance(grain, bucketStart(grain, comparison.from), bucketStart(grain, current.from)) } : {}) };
  }
  const shift = to === 'previous_year' ? (grain === 'week' ? { unit: 'day' as const, amount: 364 } : { unit: 'month' as const, amount: 12 }) : grain ? grainShift(grain) : periodLength(current);
  const comparison = { from: shiftWall(current.from, shift, -1), to: shiftWall(current.to, shift, -1) };
  return { current, comparison, ...(grain ? { shift } : {}) };
}

/** The length of a range, in the coarsest unit both its ends sit on. */
function periodLength({ from, to }: WallRange): Shift {
  const midnight = (wall: Date) => ((wall.getTime() % DAY_MS) + DAY_MS) % DAY_MS === 0;
  if (midnight(from) && midnight(to) && from.getUTCDate() === 1 && to.getUTCDate() === 1) {
    return { unit: 'month', amount: (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() };
  }
  if (midnight(from) && midnight(to)) return { unit: 'day', amount: (to.getTime() - from.getTime()) / DAY_MS };
  return { unit: 'ms', amount: to.getTime() - from.getTime() };
}

/** The shift from bucket `from` to bucket `to`, in whole buckets of `grain`. */
function bucketDistance(grain: Granularity, from: Date, to: Date): Shift {
  const unit = grainShift(grain).unit;
  if (unit === 'month') return { unit, amount: (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() };
  if (unit === 'day') return { unit, amount: Math.round((to.getTime() - from.getTime()) / DAY_MS) };
  return { unit, amount: to.getTime() - from.getTime() };
}

/** `YYYY-MM-DDTHH:mm:ss.SSS`: a wall time as filter values and answers write it. */
export function wallText(wall: Date): string {
  return wall.toISOString().slice(0, 23);
}

const BUCKET = /^(\d{4}-\d{2}-\d{2})(?:([T ])(\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?)?(Z)?$/;

/**
 * A bucket value as a warehouse answers it (`YYYY-MM-DD`, `YYYY-MM-DDTHH:mm:ss.SSS`, with Z for a
 * zoned type read in UTC) as a wall time; undefined for anything else (null).
 */
export function readBucket(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = BUCKET.exec(value);
  if (!match) return undefined;
  const wall = new Date(`${match[1]}T${match[3] ?? '00:00:00'}.${(match[4] ?? '0').slice(0, 3).padEnd(3, '0')}Z`);
  return Number.isNaN(wall.getTime()) ? undefined : wall;
}

/** `wall` written in the same form as `like`, a bucket value of the same column. */
export function writeBucketLike(wall: Date, like: string): string {
  const match = BUCKET.exec(like)!;
  const iso = wall.toISOString();
  if (!match[2]) return iso.slice(0, 10);
  const fraction = match[4] === undefined ? '' : `.${iso.slice(20, 23).padEnd(match[4].length, '0').slice(0, match[4].length)}`;
  return `${iso.slice(0, 10)}${match[2]}${iso.slice(11, 19)}${fraction}${match[5] ?? ''}`;
}
