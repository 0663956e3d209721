import { describe, expect, it } from 'vitest';
import {
  fallbackValue,
  fromBigInt,
  fromDateText,
  fromEpochDays,
  fromEpochMicros,
  fromNaiveTimestampText,
  fromNumericText,
  fromZonedTimestampText,
} from './values.js';

describe('warehouse value normalisation', () => {
  it('keeps integers and decimals as numbers within ±2^53 and as text beyond', () => {
    expect(fromBigInt(42n)).toBe(42);
    expect(fromBigInt(-9007199254740991n)).toBe(-9007199254740991);
    expect(fromBigInt(9007199254740993n)).toBe('9007199254740993');
    expect(fromNumericText('12.50')).toBe(12.5);
    expect(fromNumericText('-9007199254740993')).toBe('-9007199254740993');
    expect(fromNumericText('NaN')).toBe('NaN');
  });

  it('formats dates and timestamps the same way whatever the engine sent', () => {
    expect(fromDateText('2024-02-29')).toBe('2024-02-29');
    expect(fromNaiveTimestampText('2024-02-29 13:45:30')).toBe('2024-02-29T13:45:30.000');
    expect(fromNaiveTimestampText('2024-02-29 13:45:30.123456')).toBe('2024-02-29T13:45:30.123');
    expect(fromNaiveTimestampText('infinity')).toBe('infinity');
    expect(fromZonedTimestampText('2024-02-29 13:45:30.1+05:30')).toBe('2024-02-29T08:15:30.100Z');
    expect(fromZonedTimestampText('2024-02-29 13:45:30+00')).toBe('2024-02-29T13:45:30.000Z');
    expect(fromZonedTimestampText('2024-02-29T23:45:30.123-0400')).toBe('2024-03-01T03:45:30.123Z');
    expect(fromEpochMicros(1_709_214_330_123_456n, false)).toBe('2024-02-29T13:45:30.123');
    expect(fromEpochMicros(1_709_214_330_123_456n, true)).toBe('2024-02-29T13:45:30.123Z');
    expect(fromEpochMicros(-1n, false)).toBe('1969-12-31T23:59:59.999');
    expect(fromEpochDays(19_782)).toBe('2024-02-29');
  });

  it('turns anything else into JSON-ready values', () => {
    expect(fallbackValue(undefined)).toBeNull();
    expect(fallbackValue(Infinity)).toBe('Infinity');
    expect(fallbackValue({ a: 1n })).toBe('{"a":"1"}');
    expect(fallbackValue(Buffer.from('hi'))).toBe('aGk=');
  });
});
