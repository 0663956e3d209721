// Which rollup of a node can answer a query, pure and total: the query as the fields it reads
// (rollup-query.ts derives it from a semantic query) against the node's rollups. A rollup can answer
// when it holds every field the query groups, filters or aggregates by, every field a data key of the
// caller limits rows by, and time buckets the query's are made of; a distinct count (and what is
// computed from one) only at the rollup's own grain and dimensions, since its groups do not add up.
// Of those that can, the smallest wins: fewest dimensions, then the coarsest grain. Every other rollup
// is reported with the first reason it could not be used, so "why was no rollup used" has an answer.
import type { DatePart } from '../sql/ast.js';
import type { Granularity } from './model.js';
import { buildsUp, finerThan } from './rollup-grains.js';
import type { Rollup, RollupBuildRange } from './rollup-model.js';
import { addUnits, startOf, wallClock } from './time.js';

/**
 * How a query reads a time dimension: truncated to a grain, as a date part, as the instant itself, or
 * (a filter) cut at wall-time bounds. `zoned`: a timestamp, whose buckets depend on the time zone.
 */
export type TimeUse = { readonly zoned: boolean } & (
  | { readonly kind: 'grain'; readonly grain: Granularity }
  | { readonly kind: 'part'; readonly part: DatePart }
  | { readonly kind: 'instant' }
  | { readonly kind: 'bounds'; readonly bounds: readonly Date[] }
);

/** A field of the query's node by name; one of another node is written `instance.name` and no rollup holds it. */
export interface FieldUse {
  readonly field: string;
  /** Set when the field is a date or timestamp dimension. */
  readonly time?: TimeUse;
}

export interface RollupQuery {
  readonly node: string;
  readonly measures: readonly string[];
  /** Dimensions grouped by, time buckets included. */
  readonly dimensions: readonly FieldUse[];
  readonly dimensionFilters: readonly FieldUse[];
  /** Dimensions extra columns aggregate over the rows (`MAX(created_at)`), not grouped by. */
  readonly aggregatedDimensions: readonly FieldUse[];
  /** Dimensions whose latest value among the rows an extra column reads (a question's freshness). */
  readonly latest: readonly string[];
  /** Extra columns whose formula aggregates source rows itself (`COUNT(status)`, `${revenue} / count(*)`), by key. */
  readonly sourceAggregates: readonly string[];
  /** Measures filtered on (HAVING). */
  readonly measureFilters: readonly string[];
  /** Dimensions the caller's data keys limit rows by (a key the caller holds `*` for limits nothing). */
  readonly dataKeyFields: readonly string[];
  readonly timezone: string;
  /** The earliest wall time the query reads, per time dimension its filters bound from below. */
  readonly readsFrom: ReadonlyMap<string, Date>;
  /** For `last N units` build ranges. */
  readonly now: Date;
}

export const ROLLUP_MISS_CODES = [
  'other_node',
  'lacks_measure',
  'lacks_dimension',
  'lacks_filter_field',
  'lacks_data_key_field',
  'lacks_time',
  'timezone_differs',
  'grain_too_coarse',
  'grain_not_derivable',
  'filter_off_grain',
  'outside_build_range',
  'needs_exact_grain',
  'reads_source_rows',
] as const;
export type RollupMissCode = (typeof ROLLUP_MISS_CODES)[number];

export interface RollupMiss {
  readonly rollup: string;
  readonly code: RollupMissCode;
  readonly reason: string;
}

export interface RollupMatch {
  /** The rollup to answer from; undefined when none can (answer from the source). */
  readonly rollup: Rollup | undefined;
  /** Every rollup that could not answer, with the first reason why, in declaration order. */
  readonly misses: readonly RollupMiss[];
}

/** The grain a date part needs: day_of_week is read from days (or anything finer). */
const PART_GRAIN: Readonly<Record<DatePart, Granularity>> = {
  hour_of_day: 'hour',
  day_of_week: 'day',
  day_of_month: 'day',
  day_of_year: 'day',
  week_of_year: 'week',
  month_of_year: 'month',
  quarter_of_year: 'quarter',
};

type Miss = { code: RollupMissCode; reason: string } | undefined;

export function matchRollup(rollups: readonly Rollup[], query: RollupQuery): RollupMatch {
  const usable: Rollup[] = [];
  const misses: RollupMiss[] = [];
  for (const rollup of rollups) {
    const miss = whyNot(rollup, query);
    if (miss) misses.push({ rollup: rollup.name, ...miss });
    else usable.push(rollup);
  }
  // Stable: of two equally small rollups, the one declared first.
  const [rollup] = usable.map((r, index) => ({ r, index })).sort((a, b) => size(a.r, b.r) || a.index - b.index);
  return { rollup: rollup?.r, misses };
}

/** Fewer dimensions first, then the coarser grain (no time at all is the coarsest). */
function size(a: Rollup, b: Rollup): number {
  if (a.dimensions.length !== b.dimensions.length) return a.dimensions.length - b.dimensions.length;
  if (!a.time || !b.time) return (a.time ? 1 : 0) - (b.time ? 1 : 0);
  return finerThan(a.time.grain, b.time.grain) ? 1 : finerThan(b.time.grain, a.time.grain) ? -1 : 0;
}

/** The first reason `rollup` cannot answer `query`, in a fixed order of checks; undefined when it can. */
export function whyNot(rollup: Rollup, query: RollupQuery): Miss {
  if (rollup.node !== query.node) return { code: 'other_node', reason: `the rollup is of node ${rollup.node}, the query of ${query.node}` };
  const stored = new Map(rollup.measures.map((m) => [m.name, m]));
  const missingMeasure = query.measures.find((m) => !stored.has(m));
  if (missingMeasure !== undefined) return { code: 'lacks_measure', reason: `lacks measure ${missingMeasure}` };
  const holds = (use: FieldUse) => rollup.dimensions.includes(use.field) || (use.time !== undefined && use.field === rollup.time?.dimension);
  const missingDimension = query.dimensions.find((use) => !holds(use));
  if (missingDimension) return lacking(rollup, missingDimension, 'lacks_dimension', `lacks dimension ${missingDimension.field}`);
  const missingFilter = query.dimensionFilters.find((use) => !holds(use));
  if (missingFilter) return lacking(rollup, missingFilter, 'lacks_filter_field', `lacks dimension ${missingFilter.field}, which a filter reads`);
  const missingRead = query.aggregatedDimensions.find((use) => !holds(use));
  if (missingRead) return lacking(rollup, missingRead, 'lacks_dimension', `lacks dimension ${missingRead.field}, which an extra column aggregates`);
  const missingLatest = query.latest.find((field) => !rollup.dimensions.includes(field) && field !== rollup.time?.dimension);
  if (missingLatest !== undefined) {
    const holdsTime = rollup.time ? `holds the latest time of ${rollup.time.dimension}` : 'holds no time dimension';
    return { code: 'lacks_time', reason: `the query reads the latest time of ${missingLatest}; the rollup ${holdsTime}` };
  }
  const rowReader = query.sourceAggregates[0];
  if (rowReader !== undefined) return { code: 'reads_source_rows', reason: `extra column ${rowReader} aggregates source rows itself, which stored groups cannot redo` };
  const missingHaving = query.measureFilters.find((m) => !stored.has(m));
  if (missingHaving !== undefined) return { code: 'lacks_filter_field', reason: `lacks measure ${missingHaving}, which a filter reads` };
  const missingKey = query.dataKeyFields.find((field) => !rollup.dimensions.includes(field));
  if (missingKey !== undefined) return { code: 'lacks_data_key_field', reason: `data key field ${missingKey} is not in the rollup, so it could not keep each user to their rows` };
  // Uses of the rollup's time dimension: a raw stored dimension answers any use of itself.
  const timeUses = [...query.dimensions, ...query.dimensionFilters, ...query.aggregatedDimensions].filter((use) => use.time && use.field === rollup.time?.dimension && !rollup.dimensions.includes(use.field));
  for (const use of timeUses) {
    const miss = timeMiss(rollup, use.field, use.time!, query.timezone);
    if (miss) return miss;
  }
  const range = rangeMiss(rollup, query);
  if (range) return range;
  const exact = [...query.measures, ...query.measureFilters].find((m) => stored.get(m)!.exactGrainOnly);
  if (exact !== undefined && !atExactGrain(rollup, query)) {
    return { code: 'needs_exact_grain', reason: `${exact} is a count distinct (or computed from one): it needs the rollup's exact grain and dimensions, since its groups do not add up` };
  }
  return undefined;
}

/** A time use of a dimension the rollup holds neither as its time nor as a stored dimension is a time miss. */
function lacking(rollup: Rollup, use: FieldUse, code: RollupMissCode, reason: string): Miss {
  if (!use.time) return { code, reason };
  const holdsTime = rollup.time ? `holds time by ${rollup.time.dimension}` : 'holds no time dimension';
  return { code: 'lacks_time', reason: `the query reads time dimension ${use.field}; the rollup ${holdsTime}` };
}

function timeMiss(rollup: Rollup, field: string, use: TimeUse, timezone: string): Miss {
  const grain = rollup.time!.grain;
  const cutsNowhere = use.kind === 'bounds' && use.bounds.length === 0;
  if (use.zoned && !cutsNowhere && timezone !== rollup.timezone) {
    return { code: 'timezone_differs', reason: `the rollup buckets ${field} in ${rollup.timezone}, the query reads it in ${timezone}` };
  }
  switch (use.kind) {
    case 'instant':
      return { code: 'grain_too_coarse', reason: `grain ${grain} is coarser than the instants of ${field} the query reads` };
    case 'grain':
    case 'part': {
      const wanted = use.kind === 'grain' ? use.grain : PART_GRAIN[use.part];
      const what = use.kind === 'grain' ? wanted : `${use.part} (read from ${wanted}s)`;
      if (buildsUp(grain, wanted)) return undefined;
      if (finerThan(wanted, grain)) return { code: 'grain_too_coarse', reason: `grain ${grain} is coarser than ${what}` };
      return { code: 'grain_not_derivable', reason: `${grain}s do not make whole ${wanted}s, so grain ${grain} cannot answer by ${what}` };
    }
    case 'bounds': {
      const off = use.bounds.find((bound) => !startsBucket(grain, bound));
      if (!off) return undefined;
      return { code: 'filter_off_grain', reason: `a filter on ${field} cuts at ${off.toISOString().slice(0, 19).replace('T', ' ')}, inside a ${grain} of the rollup` };
    }
  }
}

function startsBucket(grain: Granularity, wall: Date): boolean {
  if (grain === 'hour') return wall.getUTCMinutes() === 0 && wall.getUTCSeconds() === 0 && wall.getUTCMilliseconds() === 0;
  if (grain === 'second' || grain === 'minute') return false; // no rollup grain; never reached
  return startOf(grain, wall).getTime() === wall.getTime();
}

/** A rollup built over part of the rows answers only a query that reads no time before them. */
function rangeMiss(rollup: Rollup, query: RollupQuery): Miss {
  if (rollup.buildRange.kind === 'all' || !rollup.time) return undefined;
  const start = rangeStart(rollup.buildRange, query.now, rollup.timezone);
  const from = query.readsFrom.get(rollup.time.dimension);
  if (from && from.getTime() >= start.getTime()) return undefined;
  const holds = `the rollup holds ${rollup.time.dimension} from ${start.toISOString().slice(0, 10)} on`;
  return { code: 'outside_build_range', reason: from ? `${holds}, the query reads from ${from.toISOString().slice(0, 10)}` : `${holds}, the query reads all time` };
}

/** The first wall time a build range holds, as of `now`. */
export function rangeStart(range: Exclude<RollupBuildRange, { kind: 'all' }>, now: Date, timezone: string): Date {
  if (range.kind === 'from') return new Date(`${range.date}T00:00:00Z`);
  return addUnits(range.unit, startOf(range.unit, wallClock(now, timezone)), -range.amount);
}

/** Grouped by exactly the rollup's dimensions and, when it has time, by its time at its own grain. */
function atExactGrain(rollup: Rollup, query: RollupQuery): boolean {
  const plain = query.dimensions.filter((use) => use.field !== rollup.time?.dimension || rollup.dimensions.includes(use.field));
  const time = query.dimensions.filter((use) => !plain.includes(use));
  const sameDimensions = plain.length === rollup.dimensions.length && rollup.dimensions.every((d) => plain.some((use) => use.field === d && (!use.time || use.time.kind === 'instant')));
  const sameTime = rollup.time ? time.length > 0 && time.every((use) => use.time?.kind === 'grain' && use.time.grain === rollup.time!.grain) : time.length === 0;
  return sameDimensions && sameTime;
}
