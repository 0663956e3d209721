// How the console shows an answer's columns, from the answer's own description of them
// (metadata.columns: key, kind, type, format, measure, of, by): a header in words, and each value
// formatted for its kind. A change carries its sign and an arrow (▲ up, ▼ down, = none) besides its
// colour, so that the direction reads without colour; a share (a fraction) is shown as a percentage;
// a period not over yet is marked partial. A measure is written by its model format and unit (a
// currency with its symbol and cents, a percent, thousands separated) and a time by its grain ("Nov
// 2025", "Q4 2025", a day or a week as its first day): the grid and the chart's axes use the same
// functions, so the two read alike.
import { unitDisplay } from '../../../src/core/semantic/units.js';

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

/** A measure's display hints from the model (`format: currency`, `unit: usd`). */
export interface FieldFormat {
  format?: string | null | undefined;
  unit?: string | null | undefined;
}

const plain = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const cents = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const compactNumber = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const MINUS = '−';

/** A number with its sign always written: +9, −4, 0 (a true minus sign, not a hyphen). */
function signed(value: number, format: (n: number) => string): string {
  if (value === 0) return format(0);
  return `${value > 0 ? '+' : MINUS}${format(Math.abs(value))}`;
}

function change(value: number, format: (n: number) => string, suffix = ''): Cell {
  // Rounded to what is shown: a change shown as 0.0 % reads as no change, arrow included.
  const shown = Number(format(Math.abs(value)).replace(/[^\d.]/g, '')) === 0 ? 0 : value;
  if (shown === 0) return { text: `= ${format(0)}${suffix}`, tone: 'flat', title: 'no change' };
  return shown > 0
    ? { text: `▲ ${signed(value, format)}${suffix}`, tone: 'up', title: 'up' }
    : { text: `▼ ${signed(value, format)}${suffix}`, tone: 'down', title: 'down' };
}

const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : undefined);

/**
 * A measure's number as its format and unit write it: `format: percent` is a fraction shown in percent
 * (0.484 → 48.4 %), a unit its symbol or word (`$1,234.50`, `12 km`), a currency without a unit its
 * cents (the model does not say which currency), anything else with thousands separated. `compact`
 * writes large figures short (`$1.2M`), as an axis needs.
 */
export function formatMeasure(value: number, hints: FieldFormat = {}, compact = false): string {
  if (hints.format === 'percent') return `${oneDecimal.format(value * 100)} %`;
  const display = hints.unit ? unitDisplay(hints.unit) : undefined;
  if (display?.ratio) return `${oneDecimal.format(value * 100)}${display.suffix ?? ' %'}`;
  const money = hints.format === 'currency' || display?.decimals !== undefined;
  const digits = compact ? compactNumber : money ? (display?.decimals === 0 ? plain : cents) : plain;
  const body = digits.format(Math.abs(value));
  const suffix = value === 1 && display?.singular !== undefined ? display.singular : (display?.suffix ?? '');
  return `${value < 0 ? MINUS : ''}${display?.prefix ?? ''}${body}${suffix}`;
}

/** The granularities a time dimension's id may end with (`created_at.month`). */
export const TIME_GRAINS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The grain a column's key names (`created_at.month` → month), if any. */
export function grainOf(key: string): string | undefined {
  const last = key.slice(key.lastIndexOf('.') + 1);
  return key.includes('.') && (TIME_GRAINS as readonly string[]).includes(last) ? last : undefined;
}

/**
 * A time as its grain names it, read from the text the server answers (the start of the period as wall
 * time, `2025-11-01T00:00:00.000`) without a Date, so the browser's time zone cannot move it: a month
 * "Nov 2025", a quarter "Q4 2025", a year "2025", a day or a week (its Monday) "2025-11-03", an hour
 * or a minute "2025-11-03 14:00". Without a grain, a midnight is its day. Undefined for no time text.
 */
export function formatTime(value: string, grain?: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!m) return undefined;
  const [, year, month, day, hh = '00', mm = '00', ss = '00'] = m;
  const date = `${year}-${month}-${day}`;
  switch (grain) {
    case 'year':
      return year;
    case 'quarter':
      return `Q${Math.floor((Number(month) - 1) / 3) + 1} ${year}`;
    case 'month':
      return `${MONTHS[Number(month) - 1]} ${year}`;
    case 'week':
    case 'day':
      return date;
    case 'hour':
    case 'minute':
      return `${date} ${hh}:${mm}`;
    case 'second':
      return `${date} ${hh}:${mm}:${ss}`;
    default:
      return hh === '00' && mm === '00' && ss === '00' ? date : `${date} ${hh}:${mm}:${ss}`;
  }
}

/** A value as its column's kind shows it; a measure (and its comparison and change) by the measure's format. */
export function cellOf(column: ResultColumn, value: unknown, hints?: FieldFormat): Cell {
  if (column.kind === 'partial') return value === true ? { text: '◐ Partial', tone: 'partial', title: 'This period is not over yet: its figures are partial' } : { text: '' };
  if (value === null || value === undefined) return column.kind === 'dimension' ? { text: '∅', title: 'no value' } : { text: '—', title: 'no value' };
  const n = asNumber(value);
  if (column.kind !== 'dimension' && n !== undefined) {
    if (column.kind === 'change') return change(n, (x) => (hints ? formatMeasure(x, hints) : plain.format(x)));
    if (column.kind === 'change_percent') return change(n, (x) => oneDecimal.format(x), ' %');
    if (column.format === 'percent') return { text: `${oneDecimal.format(n * 100)} %` };
    if (hints && (column.kind === 'measure' || column.kind === 'comparison')) return { text: formatMeasure(n, hints) };
    return { text: plain.format(n) };
  }
  const time = typeof value === 'string' && (column.type === 'timestamp' || column.type === 'date' || /T00:00:00/.test(value)) ? formatTime(value, grainOf(column.key)) : undefined;
  if (time !== undefined) return { text: time };
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
