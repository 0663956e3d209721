import { describe, expect, it } from 'vitest';
import { conditionHolds, percentChange } from './signal-condition.js';

describe('equals and not_equals', () => {
  it.each<[number, number, boolean]>([
    [0.1 + 0.2, 0.3, true],
    [2.9999999999999996, 3, true],
    [1234567.8900000001, 1234567.89, true],
    [1e-12, 0, true],
    [0.3001, 0.3, false],
    [100, 101, false],
    // Whole numbers (counts) compare exactly, however large.
    [1e12, 1e12 + 1, false],
    [648, 648, true],
    [-0.1 - 0.2, -0.3, true],
  ])('%d against the threshold %d: equal %s', (value, threshold, equal) => {
    expect(conditionHolds('equals', threshold, value, null)).toBe(equal);
    expect(conditionHolds('not_equals', threshold, value, null)).toBe(!equal);
  });
});

describe('percent conditions', () => {
  it('need a previous value', () => {
    for (const condition of ['increases_by_percent', 'decreases_by_percent', 'changes_by_percent'] as const) expect(conditionHolds(condition, 0, 10, null)).toBe(false);
  });

  it('from zero: a rise is an unbounded increase, a fall an unbounded decrease, zero again no change', () => {
    expect(percentChange(0, 5)).toBe(Infinity);
    expect(percentChange(0, -5)).toBe(-Infinity);
    expect(percentChange(0, 0)).toBe(0);
    expect(conditionHolds('increases_by_percent', 1000, 5, 0)).toBe(true);
    expect(conditionHolds('changes_by_percent', 1000, 5, 0)).toBe(true);
    expect(conditionHolds('decreases_by_percent', 10, 5, 0)).toBe(false);
    expect(conditionHolds('decreases_by_percent', 10, -5, 0)).toBe(true);
    expect(conditionHolds('changes_by_percent', 10, -5, 0)).toBe(true);
    expect(conditionHolds('changes_by_percent', 10, 0, 0)).toBe(false);
  });

  it('compare with the size of the previous value, whatever its sign', () => {
    expect(percentChange(200, 150)).toBe(-25);
    expect(percentChange(-200, -150)).toBe(25);
    expect(conditionHolds('decreases_by_percent', 25, 150, 200)).toBe(true);
    expect(conditionHolds('decreases_by_percent', 26, 150, 200)).toBe(false);
    expect(conditionHolds('increases_by_percent', 25, -150, -200)).toBe(true);
  });
});
