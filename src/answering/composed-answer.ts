// Plans that ask for more than metric totals: a ratio of two metrics ("fare revenue per trip"), shares
// of a total ("what share of trips were electric", "share of each rider type in fare revenue") and two
// periods side by side ("trips in 2024 against 2023"). Each is one semantic query of the reveal's base
// node with `per`, `shares` or `compare` (docs/queries.md), on the governed path like every other
// question (the asker's data keys, the query history); the rows come back under the metrics' names.
// The prose states the figures it divides, the share as a percentage, and for a comparison both
// values and the change, in the metric's unit.
import type { ComparedPeriods, GovernedPlan } from '../core/answer/plan.js';
import { coverageWords, describePeriod, formatValue, periodWords, whereClause, type Coverage, type ProseFilter } from '../core/answer/prose.js';
import type { Filter, SemanticQuery } from '../core/semantic/query.js';
import type { Metric, Reveal } from '../core/semantic/model.js';
import type { Principal } from '../identity/principal.js';
import type { LiveModel } from '../modeling/model-service.js';
import type { GovernedQueryService } from '../querying/governed-query-service.js';
import type { GovernedQueryResult } from '../querying/governed-query.js';
import { comparisonSentences } from './comparison-prose.js';
import { fieldWords } from './field-words.js';
import { COUNT_UNITS, countsThings, nodeMeasureId } from './metric-facts.js';

const MAX_ROWS = 1000;

export interface ComposedRun {
  readonly principal: Principal;
  readonly live: LiveModel;
  readonly plan: GovernedPlan;
  readonly reveal: Reveal;
  /** The reveal's time field (`started_at`), when it has one. */
  readonly timeField: string | undefined;
  readonly coverage: Coverage;
  readonly comparison?: ComparedPeriods;
  /** The headline metric over every row the filters and period keep (a share's whole). */
  readonly total: unknown;
  readonly proseFilters: readonly ProseFilter[];
}

export interface ComposedFigures {
  readonly rows: Array<Record<string, unknown>>;
  readonly columns: string[];
  /** The key of the headline number in the rows. */
  readonly metric: string;
  readonly value?: number;
  readonly prose: string;
  /** The figures as the prose formats them, for a language model to reword. */
  readonly facts: string[];
  readonly sql: string[];
  /** Each plain statement of the composed query with the rollup that answered it, or why none did (for a base node with rollups). */
  readonly rollups: NonNullable<GovernedQueryResult['statementRollups']>;
}

/** Whether the plan needs the semantic layer's `per`, `shares` or `compare`. */
export function isComposedPlan(plan: GovernedPlan): boolean {
  return plan.per !== undefined || plan.share !== undefined || plan.compare === true;
}

/** The plan's filters as the query language writes them; `except` leaves one field out (a share's part). */
function planFilters(plan: GovernedPlan): Filter[] {
  return plan.filters.map((f) => ({ field: f.field, operator: f.operator, value: typeof f.value === 'string' ? f.value : [...f.value] }));
}

function periodFilters(timeField: string | undefined, coverage: Coverage): Filter[] {
  if (!timeField || coverage.kind !== 'period') return [];
  return [
    { field: timeField, operator: 'onOrAfter', value: coverage.period.start },
    { field: timeField, operator: 'before', value: coverage.period.end },
  ];
}

function measureOf(reveal: Reveal, metric: Metric): string {
  const id = nodeMeasureId(reveal, metric);
  if (id === undefined) throw new Error(`metric ${metric.name} is not one measure`);
  return id;
}

/** Row keys under metric names: `total_fares.share` → `fares.share`, `total_fares.per.trip_count` → `fares.per.trips`. */
function renamer(names: ReadonlyMap<string, string>): (key: string) => string {
  const ids = [...names.keys()].sort((a, b) => b.length - a.length);
  return (key) => {
    const per = /^(.+)\.per\.(.+)$/.exec(key);
    if (per && names.has(per[1]!) && names.has(per[2]!)) return `${names.get(per[1]!)}.per.${names.get(per[2]!)}`;
    const id = ids.find((candidate) => key === candidate || key.startsWith(`${candidate}.`));
    return id ? `${names.get(id)}${key.slice(id.length)}` : key;
  };
}

const lower = (label: string): string => (/^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label);
/** "Trips" → "trip", for "per trip"; labels of several words stay as they are. */
const singular = (label: string): string => {
  const word = lower(label);
  return !word.includes(' ') && /[^s]s$/.test(word) ? word.slice(0, -1) : word;
};
const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export async function composedFigures(governed: GovernedQueryService, run: ComposedRun): Promise<ComposedFigures> {
  const { plan, reveal } = run;
  const metric = reveal.metrics.get(plan.metrics[0]!)!;
  const measure = measureOf(reveal, metric);
  const names = new Map([[measure, metric.name]]);
  // Two periods side by side compare every metric asked for ("transfers sent and their volume").
  const others = plan.compare ? plan.metrics.slice(1).map((name) => reveal.metrics.get(name)!) : [];
  for (const other of others) names.set(measureOf(reveal, other), other.name);
  const divisor = plan.per ? reveal.metrics.get(plan.per.by)! : undefined;
  if (divisor) names.set(measureOf(reveal, divisor), divisor.name);
  const part = plan.share?.part;

  const query: SemanticQuery = {
    node: reveal.base,
    dimensions: part ? [part.field] : [...plan.dimensions],
    measures: [...names.keys()],
    filters: [...planFilters(plan), ...(plan.compare ? [] : periodFilters(run.timeField, run.coverage))],
    sorts: [],
    limit: MAX_ROWS,
    timezone: run.principal.workspace.timezone,
    ...(divisor ? { per: [{ measure, by: measureOf(reveal, divisor) }] } : {}),
    ...(plan.share ? { shares: [{ measure, of: [] }] } : {}),
    ...(plan.compare && run.comparison && run.timeField
      ? { compare: { dimension: run.timeField, range: [run.comparison.current.start, run.comparison.current.end], to: { range: [run.comparison.comparison.start, run.comparison.comparison.end] } } }
      : {}),
  };
  const result = await governed.query({ principal: run.principal, query: { kind: 'node', query }, cache: 'off', surface: 'question_api', origin: 'question', maxRows: MAX_ROWS, live: run.live });
  const rename = renamer(names);
  const rows = result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [rename(key), value])));
  const columns = result.outputColumns.map((column) => rename(column.key));
  const sql = [result.sql];
  const rollups = result.statementRollups ?? [];
  const unit = metric.unit;
  const subject = (label: string) => `${label}${coverageWords(run.coverage)}${whereClause(run.proseFilters)}`;

  if (divisor) {
    const key = `${metric.name}.per.${divisor.name}`;
    // Per thing counted, the ratio is in the metric's unit ("$2.49" per trip); per amount, per the divisor's ("$0.47 per km").
    const perThing = countsThings(run.live.model, divisor) || COUNT_UNITS.has(divisor.unit.toLowerCase());
    const ratio = (value: unknown) => (perThing ? formatValue(value, unit) : `${formatValue(value, unit)} per ${divisor.unit.replaceAll('_', ' ') || singular(divisor.label)}`);
    const label = `${metric.label} per ${singular(divisor.label)}`;
    if (plan.dimensions.length === 0) {
      const row = rows[0] ?? {};
      const value = numberOf(row[key]);
      const parts = `${formatValue(row[metric.name], unit)} over ${formatValue(row[divisor.name], divisor.unit)}${perThing ? ` ${lower(divisor.label)}` : ''}`;
      const prose = value === undefined ? `${subject(label)} had no value (${parts}).` : `${subject(label)} was ${ratio(value)}: ${parts}.`;
      return { rows, columns, metric: key, ...(value !== undefined ? { value } : {}), prose, facts: [prose], sql, rollups };
    }
    const groups = rows.map((row) => `${plan.dimensions.map((d) => String(row[d] ?? '(none)')).join(' / ')} ${ratio(row[key])}`);
    const prose = `${subject(label)}, by ${plan.dimensions.map((d) => fieldWords(d, run.live.model)).join(' and ')}: ${groups.slice(0, 5).join(', ')}${groups.length > 5 ? `, and ${groups.length - 5} more` : ''}.`;
    return { rows, columns, metric: key, prose, facts: groups, sql, rollups };
  }

  if (plan.share) {
    const key = `${metric.name}.share`;
    if (part) {
      const row = rows.find((candidate) => candidate[part.field] === part.value);
      const whole = numberOf(run.total);
      // A part no row has is none of the whole; without a whole there is no share to give.
      const value = row ? numberOf(row[key]) : whole !== undefined && whole !== 0 ? 0 : undefined;
      const partLabel = `${metric.label} where ${fieldWords(part.field, run.live.model)} is ${part.value}`;
      const prose =
        value === undefined
          ? `${subject(`The share of ${partLabel}`)} had no value.`
          : `${subject(`The share of ${partLabel}`)} was ${formatValue(value, 'percent')}: ${formatValue(row?.[metric.name] ?? 0, unit)} of ${formatValue(run.total, unit)}.`;
      return { rows, columns, metric: metric.name, ...(value !== undefined ? { value } : {}), prose, facts: [prose], sql, rollups };
    }
    const groups = rows.map((row) => `${plan.dimensions.map((d) => String(row[d] ?? '(none)')).join(' / ')} ${formatValue(row[key], 'percent')} (${formatValue(row[metric.name], unit)})`);
    const prose = `${subject(`The share of each ${plan.dimensions.map((d) => fieldWords(d, run.live.model)).join(' and ')} in ${lower(metric.label)}`)}: ${groups.slice(0, 5).join(', ')}${groups.length > 5 ? `, and ${groups.length - 5} more` : ''}.`;
    return { rows, columns, metric: metric.name, prose, facts: groups, sql, rollups };
  }

  // A comparison: each metric's value in the current period, in the comparison period, and the change.
  const partial = run.timeField !== undefined && rows.some((row) => row[`${run.timeField}.partial`] === true);
  const sentences = comparisonSentences({
    rows,
    metrics: [metric, ...others],
    dimensions: plan.dimensions.map((field) => ({ field, words: fieldWords(field, run.live.model) })),
    subject,
    comparedTo: run.comparison ? describePeriod(run.comparison.comparison) : 'the comparison period',
    comparedPeriod: run.comparison ? periodWords(run.comparison.comparison) : 'the comparison period',
    ...(partial && run.comparison ? { underWay: periodWords(run.comparison.current) } : {}),
  });
  const current = plan.dimensions.length === 0 ? numberOf(rows[0]?.[metric.name]) : undefined;
  return { rows, columns, metric: metric.name, ...(current !== undefined ? { value: current } : {}), prose: sentences.join(' '), facts: sentences, sql, rollups };
}
