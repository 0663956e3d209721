// Sorting a grid's rows by one column, by what the values are: numbers as numbers (also those the
// server sends as strings beyond ±2^53), dates and timestamps as instants, the rest as text in the
// reader's collation. Empty cells (null) go last either way, so that "desc" does not open on blanks.
export type SortDirection = 'asc' | 'desc';
export interface GridSort {
  column: string;
  direction: SortDirection;
}
type Kind = 'number' | 'date' | 'text';

const NUMERIC_TYPE = /INT|DECIMAL|NUMERIC|NUMBER|DOUBLE|FLOAT|REAL|SERIAL|MONEY/i;
const DATE_TYPE = /DATE|TIME/i;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
// YYYY-MM-DD, optionally with a time and a zone: the shapes the warehouses' values are sent in.
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Next state of a header click: ascending, then descending, then unsorted. */
export function nextSort(current: GridSort | undefined, column: string): GridSort | undefined {
  if (current?.column !== column) return { column, direction: 'asc' };
  return current.direction === 'asc' ? { column, direction: 'desc' } : undefined;
}

/** The kind a column sorts as: from its type when it has one that says, else from its values. */
export function sortKind(type: string | undefined, values: readonly unknown[]): Kind {
  if (type && NUMERIC_TYPE.test(type) && !/INTERVAL/i.test(type)) return 'number';
  if (type && DATE_TYPE.test(type) && !/INTERVAL/i.test(type)) return 'date';
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return 'text';
  if (present.every((v) => typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v)))) return 'number';
  if (present.every((v) => typeof v === 'string' && DATE_TEXT.test(v))) return 'date';
  return 'text';
}

function instant(value: unknown): number {
  const text = String(value);
  // A date or a timestamp without a zone is read as UTC, so that the reader's zone changes no order.
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) || !text.includes(':') ? text : `${text}Z`;
  const at = Date.parse(zoned.replace(' ', 'T'));
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}

function compareNumbers(a: unknown, b: unknown): number {
  // Integers beyond ±2^53 arrive as strings: BigInt keeps their order exact.
  if (typeof a === 'string' && typeof b === 'string' && /^-?\d+$/.test(a) && /^-?\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return String(a).localeCompare(String(b));
  return x - y;
}

const text = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The rows in the sort's order (a new array); the rows themselves are untouched. */
export function sortRows<R>(rows: readonly R[], valueOf: (row: R) => unknown, type: string | undefined, direction: SortDirection): R[] {
  const kind = sortKind(type, rows.map(valueOf));
  const compare = kind === 'number' ? compareNumbers : kind === 'date' ? (a: unknown, b: unknown) => instant(a) - instant(b) : (a: unknown, b: unknown) => text.compare(String(a), String(b));
  const sign = direction === 'asc' ? 1 : -1;
  // Indexed, so that equal values keep their order (a stable sort in every engine).
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row) }))
    .sort((a, b) => {
      const aEmpty = a.value === null || a.value === undefined;
      const bEmpty = b.value === null || b.value === undefined;
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      return sign * compare(a.value, b.value) || a.index - b.index;
    })
    .map((entry) => entry.row);
}
