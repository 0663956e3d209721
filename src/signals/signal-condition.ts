// Whether a signal's condition holds for a value.
// - `equals` / `not_equals` compare as numbers read from a warehouse are: two whole numbers (counts)
//   exactly; otherwise a sum or an average carries float rounding (0.1 + 0.2 is 0.30000000000000004),
//   so they are equal when they differ by at most one part in 10^9 of the larger (10^-9 near zero).
// - Percent conditions compare with the value of the previous evaluation that read one: without it
//   (the first evaluation) there is nothing to compare with and the condition does not hold. From zero,
//   any rise is an unbounded increase and any fall an unbounded decrease (so they hold, whatever the
//   threshold); zero again is no change.
import type { SignalCondition } from './signal-definition.js';

const RELATIVE_TOLERANCE = 1e-9;

export function nearlyEqual(a: number, b: number): boolean {
  if (Number.isInteger(a) && Number.isInteger(b)) return a === b;
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The change from `previous` to `value` in percent of |previous|; ±Infinity from zero, 0 for no change. */
export function percentChange(previous: number, value: number): number {
  if (value === previous) return 0;
  if (previous === 0) return value > 0 ? Infinity : -Infinity;
  return ((value - previous) / Math.abs(previous)) * 100;
}

export function conditionHolds(condition: SignalCondition, threshold: number, value: number, previous: number | null): boolean {
  switch (condition) {
    case 'less_than':
      return value < threshold;
    case 'greater_than':
      return value > threshold;
    case 'equals':
      return nearlyEqual(value, threshold);
    case 'not_equals':
      return !nearlyEqual(value, threshold);
    default: {
      if (previous === null) return false;
      const change = percentChange(previous, value);
      if (condition === 'increases_by_percent') return change >= threshold;
      if (condition === 'decreases_by_percent') return -change >= threshold;
      return Math.abs(change) >= threshold;
    }
  }
}
