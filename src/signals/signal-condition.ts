// Whether a signal's condition holds for a value. Percent conditions compare with the value of the
// previous evaluation that read one: without it (the first evaluation) or from zero there is no change
// to measure, and the condition does not hold.
import type { SignalCondition } from './signal-definition.js';

export function conditionHolds(condition: SignalCondition, threshold: number, value: number, previous: number | null): boolean {
  switch (condition) {
    case 'less_than':
      return value < threshold;
    case 'greater_than':
      return value > threshold;
    case 'equals':
      return value === threshold;
    case 'not_equals':
      return value !== threshold;
    default: {
      if (previous === null || previous === 0) return false;
      const change = ((value - previous) / Math.abs(previous)) * 100;
      if (condition === 'increases_by_percent') return change >= threshold;
      if (condition === 'decreases_by_percent') return -change >= threshold;
      return Math.abs(change) >= threshold;
    }
  }
}
