// PostgreSQL's type OIDs (pg_type) for the types this interface sends, and field descriptions of them.
import type { FieldDescription } from './protocol/backend-messages.js';

export const BOOL_OID = 16;
export const INT8_OID = 20;
export const TEXT_OID = 25;
export const JSON_OID = 114;
export const FLOAT8_OID = 701;
export const DATE_OID = 1082;
export const TIMESTAMP_OID = 1114;
export const TIMESTAMPTZ_OID = 1184;
export const NUMERIC_OID = 1700;

const SIZES: Record<number, number> = { [BOOL_OID]: 1, [INT8_OID]: 8, [TEXT_OID]: -1, [FLOAT8_OID]: 8, [DATE_OID]: 4, [TIMESTAMP_OID]: 8, [TIMESTAMPTZ_OID]: 8, [NUMERIC_OID]: -1 };

/** A result column that is not a table's, of the given type. */
export function field(name: string, dataTypeID: number): FieldDescription {
  return { name, tableID: 0, columnID: 0, dataTypeID, dataTypeSize: SIZES[dataTypeID] ?? -1, dataTypeModifier: -1 };
}

export const textField = (name: string) => field(name, TEXT_OID);
