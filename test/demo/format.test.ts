// The exact text forms the loaders send: cents as two-decimal strings, instants as zone-less UTC.
import { describe, expect, it } from 'vitest';
import { formatCents, formatUtcTimestamp } from '../../src/core/demo/index.js';

describe('formatCents', () => {
  it('writes integer cents with exactly two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(10)).toBe('0.10');
    expect(formatCents(100)).toBe('1.00');
    expect(formatCents(123_456)).toBe('1234.56');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(-123_456)).toBe('-1234.56');
    expect(formatCents(9_999_999_999)).toBe('99999999.99');
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
});

describe('formatUtcTimestamp', () => {
  it('writes UTC wall-clock time with milliseconds and no zone', () => {
    expect(formatUtcTimestamp(Date.parse('2024-02-29T23:59:59.007Z'))).toBe('2024-02-29 23:59:59.007');
    expect(formatUtcTimestamp(0)).toBe('1970-01-01 00:00:00.000');
  });
});
