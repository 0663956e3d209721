// English prose for an answer, built from the plan and the rows only: every number in it comes from
// the warehouse, formatted by the metric's unit. Whatever language the question was in, the answer
// is English (spec 1.8).
import type { ResolvedPeriod } from './plan.js';

export function formatValue(value: unknown, unit: string): string {
  if (value === null || value === undefined) return 'no value';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  switch (unit) {
    case 'dollars':
    case 'usd':
      return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    case 'percent':
      // Ratios (0.042) read as percentages; values already above 1 are taken as percent points.
      return `${(Math.abs(n) <= 1 ? n * 100 : n).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
    case 'count':
      return Math.round(n).toLocaleString('en-US');
    default:
      return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
}

export function describePeriod(period: ResolvedPeriod): string {
  const last = new Date(`${period.end}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() - 1);
  const lastDay = last.toISOString().slice(0, 10);
  const words = period.token.replaceAll('_', ' ');
  return period.start === lastDay ? `${words} (${period.start})` : `${words} (${period.start} to ${lastDay})`;
}

export interface ProseInput {
  metricLabel: string;
  unit: string;
  period: ResolvedPeriod;
  total: unknown;
  /** Breakdown rows: the dimension values as one label, and the metric's value. */
  breakdown: ReadonlyArray<{ label: string; value: unknown }>;
  dimensionLabel?: string;
  /** Further metrics of a single-row answer. */
  others: ReadonlyArray<{ label: string; unit: string; value: unknown }>;
}

const SHOWN = 5;

export function answerProse(input: ProseInput): string {
  const sentences = [`${input.metricLabel} for ${describePeriod(input.period)} was ${formatValue(input.total, input.unit)}.`];
  for (const other of input.others) sentences.push(`${other.label} was ${formatValue(other.value, other.unit)}.`);
  if (input.breakdown.length) {
    const parts = input.breakdown.slice(0, SHOWN).map((row) => `${row.label || '(none)'} ${formatValue(row.value, input.unit)}`);
    const more = input.breakdown.length > SHOWN ? `, and ${input.breakdown.length - SHOWN} more` : '';
    sentences.push(`By ${input.dimensionLabel ?? 'group'}: ${parts.join(', ')}${more}.`);
  }
  return sentences.join(' ');
}

export function noMatchProse(reason: string, closest: ReadonlyArray<{ label: string; reveal: string }>): string {
  const suggestions = closest.length ? ` The closest governed metrics are ${closest.map((c) => `${c.label} (${c.reveal})`).join(', ')}.` : '';
  return `I could not answer that from a governed metric: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}${suggestions}`;
}

const COLUMNS_SHOWN = 6;

function describeCell(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (typeof value === 'number') return formatValue(value, 'number');
  return String(value);
}

/** Prose for an answer from the SQL fallback: says plainly it is not governed; numbers only from the rows. */
export function rawSqlProse(input: { tables: readonly string[]; columns: readonly string[]; rows: ReadonlyArray<Record<string, unknown>> }): string {
  const intro = `No governed metric answers this, so I wrote SQL over the warehouse table${input.tables.length === 1 ? '' : 's'} ${input.tables.join(', ')}; it is not a governed number, so check the SQL before relying on it.`;
  const shown = input.columns.slice(0, COLUMNS_SHOWN);
  const cells = (row: Record<string, unknown>) => shown.map((column) => `${column.replaceAll('_', ' ')} ${describeCell(row[column])}`).join(', ');
  const first = input.rows[0];
  if (!first) return `${intro} The query returned no rows.`;
  if (input.rows.length === 1) return `${intro} Result: ${cells(first)}.`;
  return `${intro} The query returned ${input.rows.length.toLocaleString('en-US')} rows; the first: ${cells(first)}.`;
}
