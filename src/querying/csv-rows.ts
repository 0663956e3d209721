// CSV files the service writes (the editor's export, the CSV a scheduled delivery carries), RFC 4180:
// a header row of the column names, CRLF line ends, a field quoted when it holds a comma, a double
// quote, CR or LF (its quotes doubled), null as an empty field.
//
// Formula escaping (CSV injection): a spreadsheet opening the file reads a cell that starts with `=`,
// `+`, `-`, `@`, a tab or a carriage return as a formula, and a formula can run commands or send the
// sheet's data away (`=HYPERLINK(...)`, DDE). Such a text cell is written with a single quote in
// front, as OWASP advises: the spreadsheet then shows the text as it is. Only text is escaped, never a
// number (-5 stays -5), and neither is a text that is exactly a number (`-5` from a text column, or
// `-9007199254740993`, a BIGINT beyond 2^53 that the drivers hand over as text): a spreadsheet reads
// it as that number and nothing in it can run. There is no switch to turn it off: a file read by a
// program rather than a spreadsheet can strip a leading quote before one of these characters, and a
// file that opens a formula in someone's spreadsheet is not a choice to offer.
import type { ColumnInfo, WarehouseRow, WarehouseValue } from '../core/warehouse/types.js';

const NEEDS_QUOTES = /[",\r\n]/;
/** What a spreadsheet takes for the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number written as text: no formula can hide in it. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function csvField(value: WarehouseValue | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: ReadonlyArray<WarehouseValue | undefined>): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The header line of a result's columns. */
export function csvHeader(columns: readonly ColumnInfo[]): string {
  return csvLine(columns.map((c) => c.name));
}

/** Rows read as arrays (in the order of the columns), as one string of lines. */
export function csvLines(rows: readonly (readonly WarehouseValue[])[]): string {
  let text = '';
  for (const row of rows) text += csvLine(row);
  return text;
}

/** A whole CSV document of rows as objects, keyed by `columns`. */
export function csvDocument(columns: readonly string[], rows: readonly WarehouseRow[]): string {
  return csvLine(columns) + csvLines(rows.map((row) => columns.map((c) => row[c] ?? null)));
}
