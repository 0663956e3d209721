// DuckDB values (numbers, bigints and value objects such as DuckDBDecimalValue or
// DuckDBTimestampValue) converted to the shared JSON forms, one converter per column type.
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { WarehouseValue } from './types.js';
import {
  fallbackValue,
  fromBigInt,
  fromEpochDays,
  fromEpochMicros,
  fromNaiveTimestampText,
  fromNumericText,
} from './values.js';

type Converter = (value: DuckDBValue) => WarehouseValue;

const asText: Converter = (v) => (v === null ? null : typeof v === 'object' ? String(v) : fallbackValue(v));

/** Powers of ten a double holds exactly (10^0 … 10^22). */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * A decimal as the number its text reads as (fromNumericText), without writing the text: while the
 * scaled value and 10^scale are both exact doubles, one division rounds the exact quotient once,
 * which is the double nearest the decimal, as Number() of its text is.
 */
export function fromDecimal(decimal: DuckDBDecimalValue): number | string {
  const scaled = Number(decimal.value);
  const power = EXACT_POWERS_OF_TEN[decimal.scale];
  if (Number.isSafeInteger(scaled) && power !== undefined) return scaled / power;
  return fromNumericText(decimal.toString());
}

export function duckDbConverter(typeId: DuckDBTypeId): Converter {
  switch (typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return (v) => (typeof v === 'bigint' ? fromBigInt(v) : fallbackValue(v));
    case DuckDBTypeId.DECIMAL:
      return (v) => (v instanceof DuckDBDecimalValue ? fromDecimal(v) : fallbackValue(v));
    case DuckDBTypeId.DATE:
      return (v) => (v instanceof DuckDBDateValue ? (fromEpochDays(v.days) ?? v.toString()) : asText(v));
    case DuckDBTypeId.TIMESTAMP:
      return (v) => (v instanceof DuckDBTimestampValue ? (fromEpochMicros(v.micros, false) ?? v.toString()) : asText(v));
    case DuckDBTypeId.TIMESTAMP_TZ:
      return (v) => (v instanceof DuckDBTimestampTZValue ? (fromEpochMicros(v.micros, true) ?? v.toString()) : asText(v));
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return (v) => (v === null ? null : fromNaiveTimestampText(String(v)));
    case DuckDBTypeId.TIME_TZ:
      return asText;
    default:
      // Numbers, booleans and strings pass; value objects (lists, structs, intervals, UUIDs…) print
      // themselves in DuckDB's own text form.
      return (v) => (v !== null && typeof v === 'object' ? String(v) : fallbackValue(v));
  }
}
