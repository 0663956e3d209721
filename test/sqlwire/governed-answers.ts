// The SQL interface's rows and C's rows for one question, brought to one form and compared.
//
// Normalisation, the same for both sides, by the column's type as the SQL interface declares it:
// - text: the string itself;
// - bigint (count measures) and numeric (other measures, number dimensions): the number. The SQL side's
//   text must be PostgreSQL's text of the type (digits, a sign, a decimal point: no exponent, no
//   thousands separator); C's is a JSON number. Compared exactly, no rounding: both sides read the same
//   warehouse value into the same double, and the SQL side prints the shortest text that reads back as
//   that double, so any difference is a real one (a sum of integers off by one included);
// - timestamp: `YYYY-MM-DD HH:MM:SS[.ffffff]` on the SQL side (PostgreSQL's text of a timestamp without
//   time zone), `YYYY-MM-DDTHH:MM:SS.sss` from C; both as `YYYY-MM-DDTHH:MM:SS` plus the fraction
//   without its trailing zeros;
// - date: `YYYY-MM-DD` on the SQL side; C answers the day's start (a timestamp at midnight), read as its
//   day. A C value that is not a midnight stays as it is, so that it cannot equal a date.
// A SQL value not in its type's text form is kept as `!text` (it then equals nothing C answers).
//
// Order: rows compare as a multiset when the query has no ORDER BY; with one, in order, rows whose sort
// keys are equal (ties, which either side may give in any order) as a multiset among themselves.
import type { ColumnType, SqlCase } from './random-sql-queries.js';

export type Cell = string | number | null;

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;
const TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?$/;
const C_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;

const instant = (day: string, time: string, fraction: string | undefined) => {
  const digits = (fraction ?? '').replace(/0+$/, '');
  return `${day}T${time}${digits ? `.${digits}` : ''}`;
};

/** A value the SQL interface sent (PostgreSQL's text format), normalised. */
export function fromSql(text: string | null, type: ColumnType): Cell {
  if (text === null) return null;
  switch (type) {
    case 'text':
      return text;
    case 'integer':
      return INTEGER_TEXT.test(text) ? Number(text) : `!${text}`;
    case 'number':
      return NUMERIC_TEXT.test(text) ? Number(text) : `!${text}`;
    case 'timestamp': {
      const parts = TIMESTAMP_TEXT.exec(text);
      return parts ? instant(parts[1]!, parts[2]!, parts[3]) : `!${text}`;
    }
    case 'date':
      return DATE_TEXT.test(text) ? text : `!${text}`;
  }
}

/** A value of C's JSON answer, normalised. */
export function fromC(value: unknown, type: ColumnType): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return JSON.stringify(value);
  if (type !== 'timestamp' && type !== 'date') return value;
  const parts = C_TIMESTAMP.exec(value);
  if (!parts) return value;
  if (type === 'date' && /^00:00:00$/.test(parts[2]!) && !/[1-9]/.test(parts[3] ?? '')) return parts[1]!;
  return instant(parts[1]!, parts[2]!, parts[3]);
}

/** Rows in the order the comparison needs: ties (or, unordered, all rows) sorted by their text. */
export function comparable(rows: readonly Cell[][], sortColumns: readonly number[]): string[] {
  const keyed = rows.map((row) => ({ key: JSON.stringify(sortColumns.map((i) => row[i])), text: JSON.stringify(row) }));
  const out: string[] = [];
  for (let start = 0; start < keyed.length; ) {
    let end = start + 1;
    while (end < keyed.length && (sortColumns.length === 0 || keyed[end]!.key === keyed[start]!.key)) end++;
    out.push(...keyed.slice(start, end).map((r) => r.text).sort());
    start = end;
  }
  return out;
}

export interface Answers {
  /** The SQL interface's rows (text values, in column order), or its error. */
  readonly sql: { rows: Array<Array<string | null>> } | { error: { code?: string; message: string } };
  /** C's status and body. */
  readonly c: { status: number; body: { data?: Array<Record<string, unknown>>; metadata?: { truncated: boolean }; error?: unknown } } | undefined;
}

/** What differs between the two answers of a case, or undefined when they agree. */
export function difference(sqlCase: SqlCase, answers: Answers): string | undefined {
  if ('error' in answers.sql) return `the SQL interface refused it: ${answers.sql.error.code} ${answers.sql.error.message} (C: ${answers.c?.status})`;
  const sqlRows = answers.sql.rows.map((row) => row.map((text, i) => fromSql(text, sqlCase.columns[i]!.type)));
  if (sqlCase.noRows) return sqlRows.length === 0 ? undefined : `LIMIT 0 answered ${sqlRows.length} rows`;
  const c = answers.c!;
  if (c.status !== 200 || !c.body.data) return `C answered ${c.status}: ${JSON.stringify(c.body)}`;
  if (c.body.metadata?.truncated) return 'C cut its answer short';
  const cRows = c.body.data.map((row) => sqlCase.columns.map((column) => fromC(row[column.field], column.type)));
  const [left, right] = [comparable(sqlRows, sqlCase.sortColumns), comparable(cRows, sqlCase.sortColumns)];
  if (left.length !== right.length) return `${left.length} rows over SQL, ${right.length} from C: ${firstDifference(left, right)}`;
  const at = left.findIndex((row, i) => row !== right[i]);
  return at < 0 ? undefined : `row ${at}: ${firstDifference(left, right)}`;
}

function firstDifference(left: readonly string[], right: readonly string[]): string {
  const at = left.findIndex((row, i) => row !== right[i]);
  const i = at < 0 ? Math.min(left.length, right.length) : at;
  return `SQL ${left[i] ?? '(none)'} / C ${right[i] ?? '(none)'} (SQL ${left.slice(0, 3).join(' ')} … / C ${right.slice(0, 3).join(' ')} …)`;
}
