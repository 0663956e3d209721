// A governed result as PostgreSQL sends it: each column typed as the catalog mirror declares it and each
// value in PostgreSQL's text format. Warehouse values arrive JSON-ready and engine-neutral (see
// WarehouseValue): numbers, booleans, `YYYY-MM-DD` dates, `YYYY-MM-DDTHH:mm:ss.SSS` timestamps (with `Z`
// when they carry a time zone).
import type { GovernedColumn } from '../core/sqlapi/translate.js';
import type { WarehouseRow, WarehouseValue } from '../core/warehouse/types.js';
import type { FieldDescription } from './protocol/backend-messages.js';
import { mirrorColumnType } from './catalog/mirror-schema.js';
import { field } from './type-oids.js';

export function fieldsOf(columns: readonly GovernedColumn[]): FieldDescription[] {
  // Typed as the catalog mirror declares the column, so that a client's metadata and its rows agree.
  return columns.map((c) => field(c.name, mirrorColumnType(c).oid));
}

/** One value in text format: `t`/`f`, a space between date and time, `+00` for a UTC instant. */
export function textValue(value: WarehouseValue | undefined): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return Buffer.from(value ? 't' : 'f');
  if (typeof value === 'number') return Buffer.from(String(value));
  const timestamp = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z?)$/.exec(value);
  if (timestamp) {
    // As PostgreSQL prints them: fractional seconds without trailing zeros, none when whole.
    const fraction = (timestamp[3] ?? '').replace(/0+$/, '');
    return Buffer.from(`${timestamp[1]} ${timestamp[2]}${fraction ? `.${fraction}` : ''}${timestamp[4] ? '+00' : ''}`);
  }
  return Buffer.from(value, 'utf8');
}

export function rowsOf(columns: readonly GovernedColumn[], rows: readonly WarehouseRow[]): Array<Array<Buffer | null>> {
  return rows.map((row) => columns.map((c) => textValue(row[c.field])));
}
