// A result as CSV (RFC 4180): a header row of the column names, CRLF line ends, a field quoted when it
// holds a comma, a double quote, CR or LF (its quotes doubled), null as an empty field. Yielded in
// chunks of rows so that an HTTP answer can stream them instead of holding the whole file as one string.
import type { ColumnInfo, WarehouseRow, WarehouseValue } from '../core/warehouse/types.js';

const NEEDS_QUOTES = /[",\r\n]/;
/** Rows per yielded chunk: large enough to keep writes few, small enough to keep each chunk small. */
const ROWS_PER_CHUNK = 500;

export function csvField(value: WarehouseValue | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: ReadonlyArray<WarehouseValue | undefined>): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The header line, then the rows, a chunk of lines at a time. */
export function* csvChunks(columns: readonly ColumnInfo[], rows: readonly WarehouseRow[]): Generator<string> {
  yield csvLine(columns.map((c) => c.name));
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    let chunk = '';
    for (const row of rows.slice(start, start + ROWS_PER_CHUNK)) chunk += csvLine(columns.map((c) => row[c.name]));
    yield chunk;
  }
}
