// Snowflake column types and values. With fetchAsString for numbers, dates and JSON, and the output
// formats of snowflakeSessionSql, values arrive as text in known shapes.
import type { WarehouseValue } from './types.js';
import { fallbackValue, fromDateText, fromNaiveTimestampText, fromNumericText, fromZonedTimestampText } from './values.js';

/** The SDK's lower-case type codes, with the names Snowflake itself uses where they differ. */
const TYPE_NAMES: Record<string, string> = { fixed: 'NUMBER', real: 'FLOAT', text: 'VARCHAR' };

export function snowflakeTypeName(sdkType: string, precision?: number, scale?: number): string {
  const name = TYPE_NAMES[sdkType] ?? sdkType.toUpperCase();
  return sdkType === 'fixed' && precision !== undefined && scale !== undefined ? `${name}(${precision},${scale})` : name;
}

export function snowflakeConverter(sdkType: string): (value: unknown) => WarehouseValue {
  switch (sdkType) {
    case 'fixed':
    case 'real':
      return (v) => (typeof v === 'string' ? fromNumericText(v) : fallbackValue(v));
    case 'boolean':
      return (v) => (typeof v === 'string' ? v.toLowerCase() === 'true' : fallbackValue(v));
    case 'date':
      return (v) => (typeof v === 'string' ? fromDateText(v) : fallbackValue(v));
    case 'timestamp_ntz':
      return (v) => (typeof v === 'string' ? fromNaiveTimestampText(v) : fallbackValue(v));
    case 'timestamp_ltz':
    case 'timestamp_tz':
      return (v) => (typeof v === 'string' ? fromZonedTimestampText(v) : fallbackValue(v));
    default:
      return fallbackValue;
  }
}
