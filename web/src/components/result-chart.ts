// What the chart of an answer draws: the value chosen (a measure, a share or a ratio) along the first
// dimension, split by the second when there is one. A measure compared with another period draws two
// series, the current period and the comparison (grouped bars, or two lines over time); a share is
// drawn in percent. Series are named in words, so that the legend reads without the column keys.
import { rangeText } from './period-presets';
import { columnLabel, comparisonName, type ComparisonSummary, type ResultColumn } from './result-format';

type Row = Record<string, unknown>;

export interface ChartValue { key: string; label: string }

/** What the chart may draw: each measure, share and ratio of the answer. */
export function chartValues(columns: ResultColumn[], labelOf: (id: string) => string): ChartValue[] {
  return columns.filter((c) => c.kind === 'measure' || c.kind === 'share' || c.kind === 'per').map((c) => ({ key: c.key, label: columnLabel(c, labelOf) }));
}

export interface ChartInput {
  columns: string[];
  rows: Row[];
  x?: string;
  y: string[];
  series?: string;
  /** Two series, the current period then the comparison (not split by a second dimension). */
  compared: boolean;
}

const percent = (v: unknown) => (typeof v === 'number' ? v * 100 : v);

/** The chart's rows for the value `key`: its series keyed by their names in words. */
export function chartInput(columns: ResultColumn[], rows: Row[], key: string, labelOf: (id: string) => string, summary?: ComparisonSummary): ChartInput {
  const dims = columns.filter((c) => c.kind === 'dimension').map((c) => c.key);
  const [x, series] = dims;
  const value = columns.find((c) => c.key === key);
  if (!value) return { columns: dims, rows: [], y: [], compared: false };
  const comparison = value.kind === 'measure' ? columns.find((c) => c.kind === 'comparison' && c.measure === value.key) : undefined;
  const label = columnLabel(value, labelOf, summary);
  const named: Array<{ name: string; read: (row: Row) => unknown }> = comparison
    ? [
        { name: summary ? `${label}, ${rangeText(summary.range)}` : label, read: (row) => row[value.key] },
        { name: summary ? `${label}, ${rangeText(summary.comparison_range)}` : columnLabel(comparison, labelOf, summary), read: (row) => row[comparison.key] },
      ]
    : [{ name: label, read: (row) => (value.format === 'percent' ? percent(row[value.key]) : row[value.key]) }];
  const charted = rows.map((row) => ({ ...Object.fromEntries(dims.map((d) => [d, row[d]])), ...Object.fromEntries(named.map((s) => [s.name, s.read(row)])) }));
  return { columns: [...dims, ...named.map((s) => s.name)], rows: charted, y: named.map((s) => s.name), ...(x ? { x } : {}), ...(series ? { series } : {}), compared: comparison !== undefined && series === undefined };
}

/** The chart's title: the value, and the comparison when there is one. */
export function chartTitle(columns: ResultColumn[], key: string, labelOf: (id: string) => string, summary?: ComparisonSummary): string {
  const value = columns.find((c) => c.key === key);
  if (!value) return '';
  const compared = value.kind === 'measure' && columns.some((c) => c.kind === 'comparison' && c.measure === value.key);
  return compared ? `${columnLabel(value, labelOf)} vs ${comparisonName(summary)}` : columnLabel(value, labelOf);
}
