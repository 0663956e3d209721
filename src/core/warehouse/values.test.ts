import fc from 'fast-check';
import { DuckDBDecimalValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { fromDecimal } from './duckdb-values.js';
import {
  fallbackValue,
  fromBigInt,
  fromDateText,
  fromEpochDays,
  fromEpochMicros,
  fromNaiveTimestampText,
  fromNumericText,
  fromZonedTimestampText,
  isoOfEpochMillis,
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

  it('writes epoch times exactly as Date does, in and out of the range a double counts exactly', () => {
    const viaDate = (micros: bigint, zoned: boolean) => {
      const date = new Date(Number(micros / 1000n) - (micros % 1000n < 0n ? 1 : 0));
      if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) return null;
      return zoned ? date.toISOString() : date.toISOString().slice(0, -1);
    };
    const safe = 9_007_199_254_740_991n;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -70_000_000_000_000_000n, max: 260_000_000_000_000_000n }),
          fc.bigInt({ min: safe - 5000n, max: safe + 5000n }),
          fc.bigInt({ min: -safe - 5000n, max: -safe + 5000n }),
          fc.bigInt({ min: -5000n, max: 5000n }),
        ),
        fc.boolean(),
        (micros, zoned) => {
          expect(fromEpochMicros(micros, zoned)).toBe(viaDate(micros, zoned));
        },
      ),
      { numRuns: 20_000 },
    );
    expect(fromEpochMicros(253_402_300_800_000_000n, true)).toBeNull(); // year 10000
    expect(isoOfEpochMillis(-62_167_219_200_001)).toBeNull(); // the last millisecond of year -1
    expect(isoOfEpochMillis(-62_167_219_200_000)).toBe('0000-01-01T00:00:00.000Z');
  });

  it('reads a DuckDB decimal as the number its text reads as, whatever its width and scale', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }), fc.bigInt({ min: -100_000n, max: 100_000n })),
        fc.integer({ min: 0, max: 38 }),
        (value, scale) => {
          const decimal = new DuckDBDecimalValue(value, 38, scale);
          expect(Object.is(fromDecimal(decimal), fromNumericText(decimal.toString()))).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
    expect(fromDecimal(new DuckDBDecimalValue(12345n, 18, 2))).toBe(123.45);
    expect(fromDecimal(new DuckDBDecimalValue(10n ** 30n, 38, 2))).toBe('10000000000000000000000000000.00');
  });

  it('turns anything else into JSON-ready values', () => {
    expect(fallbackValue(undefined)).toBeNull();
    expect(fallbackValue(Infinity)).toBe('Infinity');
    expect(fallbackValue({ a: 1n })).toBe('{"a":"1"}');
    expect(fallbackValue(Buffer.from('hi'))).toBe('aGk=');
  });
});
