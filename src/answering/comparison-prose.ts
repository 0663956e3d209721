// The prose of two periods side by side: each metric's value in the current period, the comparison
// value and the change, in the metric's unit, with the percentage when the comparison value is not
// zero; by a breakdown, each group's. Every number is one the semantic layer returned (`m`,
// `m.comparison`, `m.change`, `m.change_percent`); nothing is computed here but the order of groups.
import { formatValue } from '../core/answer/prose.js';
import type { Metric } from '../core/semantic/model.js';

const GROUPS_SHOWN = 5;
const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** "up 447 (+27.34%)", "down $3.10 (-2%)", "unchanged", or that the change cannot be given. */
function changeWords(row: Record<string, unknown>, metric: Metric): string {
  const change = numberOf(row[`${metric.name}.change`]);
  const percent = numberOf(row[`${metric.name}.change_percent`]);
  if (change === undefined) return 'the change cannot be given';
  if (change === 0) return 'unchanged';
  const share = percent !== undefined ? ` (${percent > 0 ? '+' : '-'}${formatValue(Math.abs(percent) / 100, 'percent')})` : '';
  return `${change > 0 ? 'up' : 'down'} ${formatValue(Math.abs(change), metric.unit)}${share}`;
}

export interface ComparisonProseInput {
  readonly rows: ReadonlyArray<Record<string, unknown>>;
  /** The headline first. */
  readonly metrics: readonly Metric[];
  /** Breakdown fields, with their words ("channel"). */
  readonly dimensions: ReadonlyArray<{ readonly field: string; readonly words: string }>;
  /** The metric's label with the current period and the filters ("Trips for 2024 (…), where …"). */
  readonly subject: (label: string) => string;
  /** The comparison period in words ("2023 (2023-01-01 to 2023-12-31)"). */
  readonly comparedTo: string;
  /** The same without its dates ("2023"), for each group. */
  readonly comparedPeriod: string;
  /** The current period in words, when it is not over yet. */
  readonly underWay?: string;
}

/** One sentence per metric, or one for the groups of a breakdown; then whether the current period is over. */
export function comparisonSentences(input: ComparisonProseInput): string[] {
  const { rows, metrics, comparedTo } = input;
  const headline = metrics[0]!;
  const sentences: string[] = [];
  if (input.dimensions.length === 0) {
    const row = rows[0] ?? {};
    metrics.forEach((metric, at) => {
      // The first sentence says what and when; the others only which metric.
      const label = at === 0 ? input.subject(metric.label) : metric.label;
      sentences.push(`${label} was ${formatValue(row[metric.name], metric.unit)}, against ${formatValue(row[`${metric.name}.comparison`], metric.unit)} for ${comparedTo}: ${changeWords(row, metric)}.`);
    });
  } else {
    // Largest current value first, so the prose leads with what matters most.
    const ordered = [...rows].sort((a, b) => (numberOf(b[headline.name]) ?? Number.NEGATIVE_INFINITY) - (numberOf(a[headline.name]) ?? Number.NEGATIVE_INFINITY));
    const groups = ordered.map((row) => {
      const label = input.dimensions.map((d) => String(row[d.field] ?? '(none)')).join(' / ');
      const value = formatValue(row[headline.name], headline.unit);
      // A group the comparison period has no rows of has no value there (docs/queries.md), not a zero.
      if (row[`${headline.name}.comparison`] === null || row[`${headline.name}.comparison`] === undefined) return `${label} ${value} (none in ${input.comparedPeriod})`;
      if (row[headline.name] === null || row[headline.name] === undefined) return `${label} none (${formatValue(row[`${headline.name}.comparison`], headline.unit)} in ${input.comparedPeriod})`;
      return `${label} ${value} against ${formatValue(row[`${headline.name}.comparison`], headline.unit)} (${changeWords(row, headline)})`;
    });
    const more = groups.length > GROUPS_SHOWN ? `, and ${groups.length - GROUPS_SHOWN} more` : '';
    sentences.push(`${input.subject(headline.label)}, by ${input.dimensions.map((d) => d.words).join(' and ')}, against ${comparedTo}: ${groups.slice(0, GROUPS_SHOWN).join(', ')}${more}.`);
  }
  if (input.underWay) sentences.push(`${input.underWay.charAt(0).toUpperCase()}${input.underWay.slice(1)} is not over yet: its figures cover the days up to now.`);
  return sentences;
}
