// English prose for an answer, built from the plan and the rows only: every number in it comes from
// the warehouse, formatted by the metric's unit. Whatever language the question was in, the answer
// is English (spec 1.8). The language-model prose check (llm-prose.ts) compares numbers against the
// facts formatted here, so an answer and its facts must always go through formatValue.
import { unitDisplay, unitKey, type UnitDisplay } from '../semantic/units.js';
import type { ResolvedPeriod } from './plan.js';

export type { UnitDisplay } from '../semantic/units.js';

/** Display of a unit word, or undefined for a word it does not know. */
export type UnitLookup = (unit: string) => UnitDisplay | undefined;

/** The product's one list of units (src/core/semantic/units.ts). */
export const knownUnit: UnitLookup = unitDisplay;

/** A unit word nothing knows ("tickets", "visits") is written after the number as it is. */
function displayOf(unit: string, units: UnitLookup): UnitDisplay {
  const key = unitKey(unit);
  return units(key) ?? { suffix: ` ${key.replaceAll('_', ' ')}` };
}

export function formatValue(value: unknown, unit: string, units: UnitLookup = knownUnit): string {
  if (value === null || value === undefined) return 'no value';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  const display = displayOf(unit, units);
  const shown = display.ratio ? n * 100 : n;
  const magnitude = Math.abs(shown);
  // Never round a value away to nothing: below 0.01 the first three significant digits are kept.
  const digits: Intl.NumberFormatOptions =
    display.decimals !== undefined
      ? { minimumFractionDigits: display.decimals, maximumFractionDigits: display.decimals }
      : magnitude > 0 && magnitude < 0.01
        ? { maximumSignificantDigits: 3 }
        : { maximumFractionDigits: 2 };
  const number = magnitude.toLocaleString('en-US', digits);
  const suffix = shown === 1 && display.singular !== undefined ? display.singular : (display.suffix ?? '');
  return `${shown < 0 ? '-' : ''}${display.prefix ?? ''}${number}${suffix}`;
}

/** The words of a period's token: "last month", "2024", "last 30 days", "2019 01 to 2019 06", "the period since 2019". */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** One period token in words: `2025_03` → "March 2025", `2024_q2` → "Q2 2024", `last_year_h1` → "H1 of last year". */
function tokenWords(token: string): string {
  const month = /^(\d{4})_(\d{2})$/.exec(token);
  if (month) return `${MONTHS[Number(month[2]) - 1]} ${month[1]}`;
  const part = /^(\d{4})_([qh])(\d)$/.exec(token);
  if (part) return `${part[2]!.toUpperCase()}${part[3]} ${part[1]}`;
  const relativeHalf = /^(this|last)_year_h(\d)$/.exec(token);
  if (relativeHalf) return `H${relativeHalf[2]} of ${relativeHalf[1]} year`;
  return token.replaceAll('_', ' ');
}

export function periodWords(period: ResolvedPeriod): string {
  // Read after "for": "revenue for the period since March 2019", not "revenue for since 2019".
  if (period.token.startsWith('since_')) return `the period since ${tokenWords(period.token.slice('since_'.length))}`;
  return period.token.split('..').map(tokenWords).join(' to ');
}

export function describePeriod(period: ResolvedPeriod): string {
  const last = new Date(`${period.end}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() - 1);
  const lastDay = last.toISOString().slice(0, 10);
  const words = periodWords(period);
  return period.start === lastDay ? `${words} (${period.start})` : `${words} (${period.start} to ${lastDay})`;
}

/**
 * What an answer covers: a period; every row as of now (a snapshot, or a question that bounds time
 * itself); or every row of a stock, all time, because the question named no period.
 */
export type Coverage = { readonly kind: 'period'; readonly period: ResolvedPeriod } | { readonly kind: 'as_of_now' } | { readonly kind: 'all_time' };

/** Words after the metric's label: " for last week (…)", " as of now", " as of now (all time)". */
export function coverageWords(coverage: Coverage): string {
  if (coverage.kind === 'period') return ` for ${describePeriod(coverage.period)}`;
  return coverage.kind === 'all_time' ? ' as of now (all time)' : ' as of now';
}

/** A value filter of the plan, for the reader: "channel is web", "region is Europe or Asia", "channel is not OTA". */
export interface ProseFilter {
  readonly label: string;
  readonly values: readonly string[];
  /** The values are left out. */
  readonly negated?: boolean;
}

export interface ProseInput {
  metricLabel: string;
  unit: string;
  coverage: Coverage;
  filters: readonly ProseFilter[];
  total: unknown;
  /** Breakdown rows: the dimension values as one label, and the metric's value. */
  breakdown: ReadonlyArray<{ label: string; value: unknown }>;
  /** The breakdown's dimensions, in words ("team", "ship region"). */
  dimensions: readonly string[];
  /** A sort with a limit: a top-N or bottom-N when sorted by a metric, else the first N groups in order. */
  ranking?: { readonly byMetric: boolean; readonly direction: 'asc' | 'desc'; readonly limit: number; readonly nullGroupLeftOut: boolean };
  /** Further metrics of a single-row answer. */
  others: ReadonlyArray<{ label: string; unit: string; value: unknown }>;
  /** No row matched the period and filters (and the asker sees every row, so a zero is a true zero). */
  noRows?: boolean;
}

const SHOWN = 5;
/** The label of the group whose dimension value is NULL, in prose and in the facts a model may reword. */
export const NULL_GROUP_LABEL = '(none)';

function filterWords(filter: ProseFilter): string {
  if (!filter.negated) return `is ${filter.values.join(' or ')}`;
  return filter.values.length === 1 ? `is not ${filter.values[0]}` : `is none of ${filter.values.join(', ')}`;
}

function where(filters: readonly ProseFilter[]): string {
  if (!filters.length) return '';
  return `, where ${filters.map((f) => `${f.label} ${filterWords(f)}`).join(' and ')},`;
}

/** ", where channel is web," for a sentence about a metric; empty without filters. */
export const whereClause = where;

/** "Revenue for last week (2025-06-09 to 2025-06-15), where channel is web," / "Open tickets as of now". */
function subject(input: Pick<ProseInput, 'metricLabel' | 'coverage' | 'filters'>): string {
  return `${input.metricLabel}${coverageWords(input.coverage)}${where(input.filters)}`;
}

function statement(label: string, verb: string, value: unknown, unit: string): string {
  return value === null || value === undefined ? `${label} had no value.` : `${label} ${verb} ${formatValue(value, unit)}.`;
}

function rankingWord(ranking: NonNullable<ProseInput['ranking']>): string {
  if (!ranking.byMetric) return 'First';
  return ranking.direction === 'desc' ? 'Top' : 'Bottom';
}

export function answerProse(input: ProseInput): string {
  const verb = input.coverage.kind === 'period' ? 'was' : 'is';
  const sentences = [statement(subject(input), verb, input.total, input.unit)];
  for (const other of input.others) sentences.push(statement(other.label, verb, other.value, other.unit));
  if (input.noRows) sentences.push('No rows matched.');
  const dimension = input.dimensions.join(' and ') || 'group';
  if (input.breakdown.length) {
    const parts = input.breakdown.slice(0, SHOWN).map((row) => `${row.label || NULL_GROUP_LABEL} ${formatValue(row.value, input.unit)}`);
    const more = input.breakdown.length > SHOWN ? `, and ${input.breakdown.length - SHOWN} more` : '';
    const heading = input.ranking ? `${rankingWord(input.ranking)} ${input.ranking.limit} by ${dimension}` : `By ${dimension}`;
    sentences.push(`${heading}: ${parts.join(', ')}${more}.`);
  } else if (input.ranking && !input.noRows) {
    sentences.push(`No row has a ${dimension} to rank by.`);
  }
  if (input.ranking?.nullGroupLeftOut) sentences.push(`Rows with no ${input.dimensions.join(' or ')} are left out of the ranking; the total includes them.`);
  return sentences.join(' ');
}

/** When data keys leave the asker no row for the question: no number, and no pretence that there is none. */
export function noRowsVisibleProse(input: Pick<ProseInput, 'metricLabel' | 'coverage' | 'filters'>): string {
  const when = input.coverage.kind === 'period' ? ` for ${describePeriod(input.coverage.period)}` : '';
  return `No rows are visible to you${when}${where(input.filters).replace(/,$/, '')}, so there is no ${input.metricLabel} to report.`;
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
