// How the console shows an answer's columns, from the answer's own description of them
// (metadata.columns: key, kind, type, format, measure, of, by): a header in words, and each value
// formatted for its kind. A change carries its sign and an arrow (▲ up, ▼ down, = none) besides its
// colour, so that the direction reads without colour; a share (a fraction) is shown as a percentage;
// a period not over yet is marked partial.

export interface ResultColumn {
  key: string;
  kind: string;
  type: string;
  format?: 'percent';
  measure?: string;
  of?: string[];
  by?: string;
  description?: string;
}

/** The comparison an answer describes (metadata.comparison). */
export interface ComparisonSummary {
  dimension: string;
  to: 'previous_period' | 'previous_year' | 'range';
  range: string[];
  comparison_range: string[];
  partial: boolean;
}

export type Tone = 'up' | 'down' | 'flat' | 'partial';
export interface Cell { text: string; tone?: Tone; title?: string }

const plain = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const MINUS = '−';

/** A number with its sign always written: +9, −4, 0 (a true minus sign, not a hyphen). */
function signed(value: number, format: (n: number) => string): string {
  if (value === 0) return format(0);
  return `${value > 0 ? '+' : MINUS}${format(Math.abs(value))}`;
}

function change(value: number, format: (n: number) => string, suffix = ''): Cell {
  // Rounded to what is shown: a change shown as 0.0 % reads as no change, arrow included.
  const shown = Number(format(Math.abs(value)).replace(/,/g, '')) === 0 ? 0 : value;
  if (shown === 0) return { text: `= ${format(0)}${suffix}`, tone: 'flat', title: 'no change' };
  return shown > 0
    ? { text: `▲ ${signed(value, format)}${suffix}`, tone: 'up', title: 'up' }
    : { text: `▼ ${signed(value, format)}${suffix}`, tone: 'down', title: 'down' };
}

const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : undefined);

/** A value as its column's kind shows it. */
export function cellOf(column: ResultColumn, value: unknown): Cell {
  if (column.kind === 'partial') return value === true ? { text: '◐ Partial', tone: 'partial', title: 'This period is not over yet: its figures are partial' } : { text: '' };
  if (value === null || value === undefined) return column.kind === 'dimension' ? { text: '∅', title: 'no value' } : { text: '—', title: 'no value' };
  const n = asNumber(value);
  if (column.kind !== 'dimension' && n !== undefined) {
    if (column.kind === 'change') return change(n, (x) => plain.format(x));
    if (column.kind === 'change_percent') return change(n, (x) => oneDecimal.format(x), ' %');
    if (column.format === 'percent') return { text: `${oneDecimal.format(n * 100)} %` };
    return { text: plain.format(n) };
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z?$/.test(value)) return { text: value.slice(0, 10) };
  if (typeof value === 'object') return { text: JSON.stringify(value) };
  return { text: String(value) };
}

/** What the comparison period is called in headers and legends. */
export function comparisonName(summary: ComparisonSummary | undefined): string {
  switch (summary?.to) {
    case 'previous_year':
      return 'a year before';
    case 'range':
      return 'compared range';
    default:
      return 'previous period';
  }
}

/** A column's header in words: "Orders change %", "Orders % of total", "Orders % of each Channel". */
export function columnLabel(column: ResultColumn, labelOf: (id: string) => string, summary?: ComparisonSummary): string {
  const m = labelOf(column.measure ?? column.key);
  switch (column.kind) {
    case 'comparison':
      return `${m} (${comparisonName(summary)})`;
    case 'change':
      return `${m} change`;
    case 'change_percent':
      return `${m} change %`;
    case 'share':
      return column.of?.length ? `${m} % of each ${column.of.map(labelOf).join(' and ')}` : `${m} % of total`;
    case 'per':
      return `${m} per ${labelOf(column.by ?? '')}`;
    case 'partial':
      return 'Period';
    default:
      return labelOf(column.key);
  }
}
