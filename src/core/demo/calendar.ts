// When things happen: the two-year window ending at `now`, cut at UTC midnights into day slots, each
// weighted by growth, season, weekday, shopping holidays and a little day-to-day noise; and how counts
// are spread over slots and times drawn inside one.
import type { Rng } from './prng.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface ActivityWindow {
  /** Inclusive. */
  readonly startMs: number;
  /** Exclusive: nothing happens at `now` itself. */
  readonly endMs: number;
}

export interface DaySlot {
  readonly startMs: number;
  readonly endMs: number;
  /** Relative activity of the slot; a partial day at either end counts only its covered hours. */
  readonly weight: number;
}

/** Two calendar years back from `now` (Feb 29 falls back to Mar 1). */
export function activityWindow(now: Date): ActivityWindow {
  const endMs = now.getTime();
  if (!Number.isFinite(endMs)) throw new RangeError('now must be a valid Date');
  const start = new Date(endMs);
  start.setUTCFullYear(start.getUTCFullYear() - 2);
  return { startMs: start.getTime(), endMs };
}

// Orders by UTC hour: quiet nights, a lunch bump and an evening peak.
const HOUR_WEIGHTS = [
  0.35, 0.25, 0.2, 0.18, 0.2, 0.3, 0.5, 0.8, 1.0, 1.1, 1.15, 1.25,
  1.35, 1.3, 1.2, 1.15, 1.15, 1.25, 1.45, 1.6, 1.65, 1.45, 1.0, 0.6,
];
const HOUR_WEIGHT_SUM = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
// Sunday first, as Date#getUTCDay counts.
const WEEKDAY_FACTORS = [0.88, 1.08, 1.06, 1.02, 1.0, 0.96, 0.82];
// January lull, a soft summer, the run-up to the holidays.
const MONTH_FACTORS = [0.82, 0.84, 0.95, 0.97, 1.0, 0.95, 0.9, 0.93, 1.0, 1.05, 1.28, 1.42];
/** Activity at the end of the window relative to its start. */
const TWO_YEAR_GROWTH = 2.1;

/** Day slots covering the window, with their weights. `rng` only adds day-to-day noise. */
export function daySlots(window: ActivityWindow, rng: Rng): DaySlot[] {
  const slots: DaySlot[] = [];
  const span = window.endMs - window.startMs;
  let startMs = window.startMs;
  while (startMs < window.endMs) {
    const midnight = Math.floor(startMs / DAY_MS) * DAY_MS;
    const endMs = Math.min(midnight + DAY_MS, window.endMs);
    const progress = (startMs - window.startMs) / span;
    const growth = Math.pow(TWO_YEAR_GROWTH, progress);
    const noise = 0.88 + 0.24 * rng();
    const weight = growth * dayFactor(new Date(midnight)) * noise * (hourWeightBetween(startMs, endMs) / HOUR_WEIGHT_SUM);
    slots.push({ startMs, endMs, weight });
    startMs = endMs;
  }
  return slots;
}

/** Season, weekday and the big shopping days (US Thanksgiving weekend, Christmas). */
function dayFactor(day: Date): number {
  const month = day.getUTCMonth();
  const date = day.getUTCDate();
  let factor = MONTH_FACTORS[month]! * WEEKDAY_FACTORS[day.getUTCDay()]!;
  if (month === 11) {
    if (date === 25) factor *= 0.45;
    else if (date > 25) factor *= 0.7;
    else if (date >= 23) factor *= 0.85;
  }
  if (month === 10 || month === 11) {
    const blackFriday = blackFridayOf(day.getUTCFullYear());
    const offsetDays = Math.round((day.getTime() - blackFriday) / DAY_MS);
    if (offsetDays === 0) factor *= 2.6;
    else if (offsetDays === 3) factor *= 2.1; // Cyber Monday
    else if (offsetDays === 1 || offsetDays === 2) factor *= 1.5;
  }
  return factor;
}

/** The day after the fourth Thursday of November, at UTC midnight. */
function blackFridayOf(year: number): number {
  const firstOfNovember = new Date(Date.UTC(year, 10, 1));
  const firstThursday = 1 + ((4 - firstOfNovember.getUTCDay() + 7) % 7);
  return Date.UTC(year, 10, firstThursday + 21 + 1);
}

/** Each UTC hour of [startMs, endMs) within one day, with how much of it is covered (ms). */
function hourOverlaps(startMs: number, endMs: number): Array<{ hour: number; fromMs: number; toMs: number }> {
  const midnight = Math.floor(startMs / DAY_MS) * DAY_MS;
  const overlaps = [];
  for (let hour = 0; hour < 24; hour++) {
    const fromMs = Math.max(startMs, midnight + hour * HOUR_MS);
    const toMs = Math.min(endMs, midnight + (hour + 1) * HOUR_MS);
    if (toMs > fromMs) overlaps.push({ hour, fromMs, toMs });
  }
  return overlaps;
}

function hourWeightBetween(startMs: number, endMs: number): number {
  return hourOverlaps(startMs, endMs).reduce((sum, o) => sum + (HOUR_WEIGHTS[o.hour]! * (o.toMs - o.fromMs)) / HOUR_MS, 0);
}

/**
 * Splits `total` into integer counts proportional to `weights` (largest remainder), so the counts add
 * up to `total` exactly whatever the rounding.
 */
export function allocate(total: number, weights: readonly number[]): Int32Array {
  const counts = new Int32Array(weights.length);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return counts;
  const remainders: Array<{ index: number; remainder: number }> = [];
  let assigned = 0;
  weights.forEach((w, index) => {
    const exact = (total * w) / sum;
    counts[index] = Math.floor(exact);
    assigned += counts[index]!;
    remainders.push({ index, remainder: exact - counts[index]! });
  });
  // Ties broken by index keep the split deterministic.
  remainders.sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (let i = 0; i < total - assigned; i++) counts[remainders[i % remainders.length]!.index]!++;
  return counts;
}

/** `count` instants in [slot.startMs, slot.endMs), following the hourly profile, in ascending order. */
export function timesInSlot(rng: Rng, slot: DaySlot, count: number): Float64Array {
  const overlaps = hourOverlaps(slot.startMs, slot.endMs);
  const cumulative: number[] = [];
  let sum = 0;
  for (const o of overlaps) {
    sum += HOUR_WEIGHTS[o.hour]! * (o.toMs - o.fromMs);
    cumulative.push(sum);
  }
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const target = rng() * sum;
    let k = 0;
    while (k < cumulative.length - 1 && cumulative[k]! <= target) k++;
    const o = overlaps[k]!;
    times[i] = o.fromMs + Math.floor(rng() * (o.toMs - o.fromMs));
  }
  return times.sort();
}
