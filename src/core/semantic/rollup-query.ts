// A semantic query as rollup matching sees it (rollup-match.ts): the fields it groups, filters and
// aggregates by, how it reads each time dimension, and the dimensions the caller's data keys limit rows
// by. Fields are resolved as the compiler resolves them (FieldResolver, resolveFilter), so a query the
// compiler refuses is refused here with the same error. Comparisons, shares and ratios of a query are
// answered by ordinary queries of the node (composed-plan.ts); each of those is matched on its own.
import { AGGREGATE_CALL } from './aggregate-calls.js';
import { ALL_ROWS, type CompileOptions } from './compile.js';
import { FieldResolver, type DimensionRef } from './fields.js';
import { leavesOf, resolveFilter, type ResolvedFilter, type ResolvedLeaf } from './filters.js';
import { NotFoundError } from '../errors.js';
import type { SemanticModel } from './model.js';
import type { SemanticQuery } from './query.js';
import type { FieldUse, RollupQuery, TimeUse } from './rollup-match.js';
import type { DimensionPart } from './row-facts.js';
import { addUnits, parsePeriod, parseTimeValue, startOf, wallClock } from './time.js';

export interface RollupQueryOptions {
  /** The caller's attributes, for data keys. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly now: Date;
  /** Used when the query names none. */
  readonly timezone?: string;
  /** Extra columns of the compile (reveal metrics, raw aggregates, facts of the rows): what they read counts too. */
  readonly derived?: CompileOptions['derived'];
}

export function rollupQueryOf(model: SemanticModel, query: SemanticQuery, options: RollupQueryOptions): RollupQuery {
  const base = model.nodes.get(query.node);
  if (!base) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
  const timezone = query.timezone ?? options.timezone ?? 'UTC';
  const resolver = new FieldResolver(model, base);
  const own = (instance: string, name: string) => (instance === base.name ? name : `${instance}.${name}`);
  const filters = query.filters.map((filter) => resolveFilter(filter, resolver).resolved);
  const leaves = filters.flatMap(leavesOf);
  const context = { timezone, now: options.now };
  const derived = options.derived ?? [];
  // A fact (row-facts.ts) is read from stored groups; any other extra column by its template.
  const formulas = derived.filter((d) => !d.fact);
  const facts = derived.flatMap((d) => (d.fact ? [d.fact] : []));
  const parts = formulas.flatMap((d) => d.template);
  const derivedMeasures = parts.flatMap((part) => (part.kind === 'measure' ? [own(part.role ?? part.node, part.name)] : []));
  const fieldOf = (part: DimensionPart) => own(part.role ?? part.node, part.name);
  // An empty value is told apart in a stored group (NULL is a group of its own), by a time bucket too.
  const nullTests = facts.flatMap((fact) => (fact.kind === 'any_null' ? fact.dimensions : [])).map((part): FieldUse => {
    const type = model.nodes.get(part.node)?.dimensions.get(part.name)?.type;
    return { field: fieldOf(part), ...(type === 'timestamp' || type === 'date' ? { time: { kind: 'bounds', bounds: [], zoned: type === 'timestamp' } as const } : {}) };
  });
  // A raw aggregate reads the rows: a dimension (a time one as its instants), or the table itself.
  const aggregatedDimensions = parts.flatMap((part): FieldUse[] => {
    const instance = part.kind === 'dimension' || part.kind === 'table' ? (part.role ?? part.node) : undefined;
    if (part.kind === 'table') return [{ field: `${instance}.TABLE` }];
    if (part.kind !== 'dimension') return [];
    const dimension = model.nodes.get(part.node)?.dimensions.get(part.name);
    const zoned = dimension?.type === 'timestamp';
    return [{ field: own(instance!, part.name), ...(zoned || dimension?.type === 'date' ? { time: { kind: 'instant', zoned } as const } : {}) }];
  });
  return {
    node: base.name,
    measures: [...query.measures.map((id) => resolver.measure(id)).map((ref) => own(ref.instance, ref.measure.name)), ...derivedMeasures],
    dimensions: query.dimensions.map((id) => resolver.dimension(id)).map((ref) => ({ field: own(ref.instance, ref.dimension.name), ...grouped(ref) })),
    dimensionFilters: leaves.flatMap((leaf) => ('dimension' in leaf.target ? [filterUse(leaf, leaf.target.dimension, own, context)] : [])),
    aggregatedDimensions: [...aggregatedDimensions, ...nullTests],
    latest: facts.flatMap((fact) => (fact.kind === 'latest' ? [fieldOf(fact.dimension)] : [])),
    sourceAggregates: formulas.filter(readsRows).map((d) => d.key),
    measureFilters: leaves.flatMap((leaf) => ('measure' in leaf.target ? [own(leaf.target.measure.instance, leaf.target.measure.measure.name)] : [])),
    dataKeyFields: base.dataKeys.filter((key) => options.attributes[key.attribute] !== ALL_ROWS).map((key) => key.dimension),
    timezone,
    readsFrom: lowerBounds(filters, context),
    now: options.now,
  };
}

/** A formula that reads rows itself (a dimension, the table, an aggregate call of its own) rather than measures only. */
function readsRows(output: NonNullable<CompileOptions['derived']>[number]): boolean {
  if (output.template.some((part) => part.kind === 'dimension' || part.kind === 'table')) return true;
  return AGGREGATE_CALL.test(output.template.map((part) => (part.kind === 'text' ? part.text : ' ')).join(''));
}

const isTime = (ref: DimensionRef) => ref.dimension.type === 'date' || ref.dimension.type === 'timestamp';

/** How a grouped dimension reads time: a raw date is its day; a raw timestamp, the instant. */
function grouped(ref: DimensionRef): { time?: TimeUse } {
  if (!isTime(ref)) return {};
  const zoned = ref.dimension.type === 'timestamp';
  if (ref.granularity) return { time: { kind: 'grain', grain: ref.granularity, zoned } };
  if (ref.part) return { time: { kind: 'part', part: ref.part, zoned } };
  return { time: zoned ? { kind: 'instant', zoned } : { kind: 'grain', grain: 'day', zoned } };
}

interface TimeContext {
  readonly timezone: string;
  readonly now: Date;
}

function filterUse(leaf: ResolvedLeaf, ref: DimensionRef, own: (instance: string, name: string) => string, context: TimeContext): FieldUse {
  const field = own(ref.instance, ref.dimension.name);
  const time = grouped(ref).time;
  if (!time) return { field };
  // A truncated field (`created_at.month`, a date part) is compared bucket by bucket, whatever the operator.
  if (ref.granularity || ref.part) return { field, time };
  const bounds = boundsOf(leaf, context);
  return { field, time: bounds ? { kind: 'bounds', bounds, zoned: time.zoned } : { kind: 'instant', zoned: time.zoned } };
}

/**
 * The wall times a filter on a raw date or timestamp cuts at, as the compiler reads them (filters.ts):
 * `after`, `onOrBefore` and the end of `inDateRange` take a date as its whole day, periods run from the
 * start of the current unit, and the plain comparisons (`gt`, `lte`, `equals`, `between`) compare with
 * the value's instant, which on a date dimension is a day boundary again. Undefined when a filter cuts
 * at an instant whose own rows fall on one side only (`gt` a timestamp, equality with an instant): no
 * bucket boundary can reproduce that.
 */
function boundsOf(leaf: ResolvedLeaf, { timezone, now }: TimeContext): Date[] | undefined {
  const { filter, operator } = leaf;
  const wholeDays = 'dimension' in leaf.target && leaf.target.dimension.dimension.type === 'date';
  const list = filter.value === undefined ? [] : Array.isArray(filter.value) ? filter.value : [filter.value];
  const read = (value: unknown) => parseTimeValue(value, filter.field, timezone);
  const start = (value: unknown) => read(value).wall;
  /** The end of a value read inclusively: the next day for a date; none for an instant. */
  const end = (value: unknown) => {
    const { wall, dateOnly } = read(value);
    return dateOnly ? addUnits('day', wall, 1) : undefined;
  };
  const all = (dates: Array<Date | undefined>) => (dates.every((d) => d !== undefined) ? (dates as Date[]) : undefined);
  switch (operator) {
    case 'isNull':
    case 'notNull':
      return [];
    case 'before':
    case 'onOrAfter':
    case 'gte':
    case 'lt':
      return [start(list[0])];
    case 'after':
    case 'onOrBefore':
      return all([end(list[0])]);
    case 'inDateRange':
    case 'notInDateRange':
      return all([start(list[0]), end(list[1])]);
    case 'gt':
    case 'lte':
      return wholeDays ? all([end(list[0])]) : undefined;
    case 'between':
    case 'notBetween':
      return wholeDays ? all([start(list[0]), end(list[1])]) : undefined;
    case 'equals':
    case 'notEquals':
    case 'in':
    case 'notIn':
      return wholeDays ? all(list.flatMap((value) => [start(value), end(value)])) : undefined;
    case 'inThePast':
    case 'notInThePast':
    case 'inTheCurrent':
    case 'notInTheCurrent': {
      const past = operator === 'inThePast' || operator === 'notInThePast';
      const { amount, unit } = parsePeriod(list[0], filter.field, past);
      const current = startOf(unit, wallClock(now, timezone));
      return past ? [addUnits(unit, current, -amount), current] : [current, addUnits(unit, current, 1)];
    }
    default:
      return undefined;
  }
}

/**
 * The earliest wall time the query reads, per time dimension: from filters ANDed at the top (a bound
 * inside `or` or `not` bounds nothing), by the operators that keep only later rows.
 */
function lowerBounds(filters: readonly ResolvedFilter[], context: TimeContext): Map<string, Date> {
  const bounds = new Map<string, Date>();
  const topLevel = (filter: ResolvedFilter): ResolvedLeaf[] => (filter.kind === 'leaf' ? [filter] : filter.kind === 'group' && filter.op === 'and' ? filter.items.flatMap(topLevel) : []);
  for (const leaf of filters.flatMap(topLevel)) {
    if (!('dimension' in leaf.target)) continue;
    const ref = leaf.target.dimension;
    if (!isTime(ref) || ref.granularity || ref.part || ref.instance !== ref.dimension.node) continue;
    const lower = ['onOrAfter', 'after', 'gte', 'gt', 'inDateRange', 'between', 'inThePast', 'inTheCurrent'].includes(leaf.operator);
    const from = lower ? boundsOf({ ...leaf, operator: leaf.operator === 'after' || leaf.operator === 'gt' ? 'gte' : leaf.operator }, context)?.[0] : undefined;
    const earlier = bounds.get(ref.dimension.name);
    if (from && (!earlier || from > earlier)) bounds.set(ref.dimension.name, from);
  }
  return bounds;
}
