// Column types and values of the MySQL/MariaDB driver. The pool reads BIGINT and DECIMAL as text
// (bigNumberStrings) and dates as text (dateStrings), so nothing goes through a JS Date in the
// process's local time zone; the session time zone is UTC, which makes TIMESTAMP text an instant.
import type { FieldPacket } from 'mysql2';
import type { WarehouseValue } from './types.js';
import { fallbackValue, fromDateText, fromNaiveTimestampText, fromNumber, fromNumericText, fromZonedTimestampText } from './values.js';

const BINARY_CHARSET = 63;
const UNSIGNED_FLAG = 32;

// Protocol type codes (mysql2's Types) and the SQL names they stand for.
const TYPE_NAMES: Record<number, string> = {
  0: 'DECIMAL',
  1: 'TINYINT',
  2: 'SMALLINT',
  3: 'INT',
  4: 'FLOAT',
  5: 'DOUBLE',
  6: 'NULL',
  7: 'TIMESTAMP',
  8: 'BIGINT',
  9: 'MEDIUMINT',
  10: 'DATE',
  11: 'TIME',
  12: 'DATETIME',
  13: 'YEAR',
  14: 'DATE',
  15: 'VARCHAR',
  16: 'BIT',
  245: 'JSON',
  246: 'DECIMAL',
  247: 'ENUM',
  248: 'SET',
  249: 'TINYBLOB',
  250: 'MEDIUMBLOB',
  251: 'LONGBLOB',
  252: 'BLOB',
  253: 'VARCHAR',
  254: 'CHAR',
  255: 'GEOMETRY',
};

const TEXT_FOR_BLOB: Record<number, string> = { 249: 'TINYTEXT', 250: 'MEDIUMTEXT', 251: 'LONGTEXT', 252: 'TEXT' };

/** MySQL has no boolean type: BOOLEAN is TINYINT(1), which is read as a boolean. */
export function isBooleanColumn(field: FieldPacket): boolean {
  return field.columnType === 1 && field.columnLength === 1;
}

export function mysqlTypeName(field: FieldPacket): string {
  const code = field.columnType ?? -1;
  if (isBooleanColumn(field)) return 'BOOLEAN';
  if (code in TEXT_FOR_BLOB && field.characterSet !== BINARY_CHARSET) return TEXT_FOR_BLOB[code]!;
  if ((code === 253 || code === 254) && field.characterSet === BINARY_CHARSET) return code === 253 ? 'VARBINARY' : 'BINARY';
  const name = TYPE_NAMES[code] ?? field.typeName?.toUpperCase() ?? 'UNKNOWN';
  const unsigned = typeof field.flags === 'number' && (field.flags & UNSIGNED_FLAG) !== 0 && /INT|DECIMAL|FLOAT|DOUBLE/.test(name);
  return unsigned ? `${name} UNSIGNED` : name;
}

/** A converter per column, chosen once from its metadata and applied to every row. */
export function mysqlConverter(field: FieldPacket): (value: unknown) => WarehouseValue {
  if (isBooleanColumn(field)) return (v) => (v === null || v === undefined ? null : Number(v) !== 0);
  switch (field.columnType) {
    case 8: // BIGINT
    case 0: // DECIMAL
    case 246: // NEWDECIMAL
      return (v) => (typeof v === 'string' ? fromNumericText(v) : fallbackValue(v));
    case 4: // FLOAT
    case 5: // DOUBLE
      return (v) => (typeof v === 'number' ? fromNumber(v) : fallbackValue(v));
    case 10: // DATE
    case 14:
      return (v) => (typeof v === 'string' ? fromDateText(v) : fallbackValue(v));
    case 12: // DATETIME: no time zone
      return (v) => (typeof v === 'string' ? fromNaiveTimestampText(v) : fallbackValue(v));
    case 7: // TIMESTAMP: shown in the session time zone, which is UTC
      return (v) => (typeof v === 'string' ? fromZonedTimestampText(`${v}Z`) : fallbackValue(v));
    default:
      return fallbackValue;
  }
}
