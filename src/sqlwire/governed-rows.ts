// A governed result as PostgreSQL sends it: each column typed as the catalog mirror declares it and each
// value in PostgreSQL's text format for that type. Warehouse values arrive JSON-ready and engine-neutral
// (see WarehouseValue): numbers, booleans, `YYYY-MM-DD` dates, `YYYY-MM-DDTHH:mm:ss.SSS` timestamps (with
// `Z` when they carry a time zone). A time grain is a timestamp in the warehouse's answer even where the
// column is a date (`created_at::date`), so a value is printed as its column's type, not as it arrived.
import type { GovernedColumn } from '../core/sqlapi/translate.js';
import type { WarehouseRow, WarehouseValue } from '../core/warehouse/types.js';
import type { FieldDescription } from './protocol/backend-messages.js';
import { mirrorColumnType } from './catalog/mirror-schema.js';
import { field } from './type-oids.js';

export function fieldsOf(columns: readonly GovernedColumn[]): FieldDescription[] {
  // Typed as the catalog mirror declares the column, so that a client's metadata and its rows agree.
  return columns.map((c) => field(c.name, mirrorColumnType(c).oid));
}

/**
 * One value in text format, as a column of `type` prints it: `t`/`f`; numbers in positional notation;
 * a date as `YYYY-MM-DD`; a timestamp with a space between date and time, `+00` for a UTC instant.
 */
export function textValue(value: WarehouseValue | undefined, type?: GovernedColumn['type']): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return Buffer.from(value ? 't' : 'f');
  if (typeof value === 'number') return Buffer.from(positional(value));
  const day = /^\d{4}-\d{2}-\d{2}(?=$|T)/.exec(value);
  // A date column holds the day of whatever instant the warehouse answered (a grain's start).
  if (type === 'date' && day) return Buffer.from(day[0]);
  if (type === 'timestamp' && day && value.length === day[0].length) return Buffer.from(`${value} 00:00:00`);
  const timestamp = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z?)$/.exec(value);
  if (timestamp) {
    // As PostgreSQL prints them: fractional seconds without trailing zeros, none when whole.
    const fraction = (timestamp[3] ?? '').replace(/0+$/, '');
    return Buffer.from(`${timestamp[1]} ${timestamp[2]}${fraction ? `.${fraction}` : ''}${timestamp[4] ? '+00' : ''}`);
  }
  return Buffer.from(value, 'utf8');
}

/**
 * A number as PostgreSQL prints numeric: JavaScript's shortest digits that read back as the same double,
 * without the exponent it uses below 1e-6 and from 1e21 (`1e-7` is `0.0000001`), which numeric's text
 * never has and its binary layout cannot be made from.
 */
function positional(value: number): string {
  const text = String(value);
  const parts = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!parts) return text;
  const [, sign, first, rest = '', exponent] = parts;
  const digits = `${first}${rest}`;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.padEnd(point, '0')}`;
}

export function rowsOf(columns: readonly GovernedColumn[], rows: readonly WarehouseRow[]): Array<Array<Buffer | null>> {
  return rows.map((row) => columns.map((c) => textValue(row[c.field], c.type)));
}
