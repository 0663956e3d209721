// A query with `compare`, `shares` or `per`, planned as ordinary queries of its node and a merge of their
// rows (comparison.ts). Each statement is a plain semantic query: compiled, run, cached and recorded
// as any other, with the asker's data keys, so every number of the answer comes from rows the asker may
// see. The statements:
// - current: the query itself (its measures, those its shares and ratios need, its filters and, with
//   `compare`, the current range as a filter on the compared dimension);
// - comparison: the same dimensions and measures over the comparison range, with the dimension filters
//   only (measure filters choose which rows the answer shows, by their current values);
// - one total per distinct `of` of the shares: the share measures grouped by fewer dimensions, with the
//   dimension filters (and the current range): a total counts every row the filters keep.
// Rows are merged, sorted and cut to the limit in JavaScript, since sorts may name computed columns.
import { BadRequestError, NotFoundError } from '../errors.js';
import { comparedPeriods, wallText, type Shift, type WallRange } from './compare-periods.js';
import { FieldResolver, type DimensionRef } from './fields.js';
import { resolveFilter } from './filters.js';
import type { Granularity, SemanticModel } from './model.js';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, type Filter, type SemanticQuery } from './query.js';
import { assertTimeZone, wallClock } from './time.js';

export const RESULT_COLUMN_KINDS = ['dimension', 'measure', 'comparison', 'change', 'change_percent', 'share', 'per', 'partial'] as const;
export type ResultColumnKind = (typeof RESULT_COLUMN_KINDS)[number];

/** A column of an answer: the query's dimensions and measures, and what comparisons, shares and ratios add. */
export interface ResultColumn {
  readonly key: string;
  readonly kind: ResultColumnKind;
  readonly type: string;
  /** `percent`: a fraction (0.25) to be shown as a percentage (25 %). */
  readonly format?: 'percent';
  /** The measure a computed column is computed from. */
  readonly measure?: string;
  /** A share's total keeps these dimensions. */
  readonly of?: readonly string[];
  /** A ratio's divisor. */
  readonly by?: string;
  readonly description?: string;
}

/** Rows a statement keeps at most: a merge needs every group, so one more means the answer would be wrong. */
export const STATEMENT_ROWS = MAX_QUERY_LIMIT;

export type StatementRole = 'current' | 'comparison' | 'total';

export interface ComposedStatement {
  readonly role: StatementRole;
  readonly query: SemanticQuery;
}

export interface ComparisonPlan {
  readonly dimension: string;
  readonly to: 'previous_period' | 'previous_year' | 'range';
  readonly current: WallRange;
  readonly comparison: WallRange;
  /** The grain of the compared dimension among the query's dimensions: each row compares its bucket. */
  readonly grain?: { readonly id: string; readonly granularity: Granularity; readonly shift: Shift };
  readonly partialKey: string;
  /** Rows only the comparison period has are added, unless measure filters choose the rows. */
  readonly keepComparisonOnly: boolean;
  /** The statement holding the comparison period's rows. */
  readonly statement: number;
}

export interface SharePlan {
  readonly key: string;
  readonly measure: string;
  readonly of: readonly string[];
  readonly statement: number;
}

export interface PerPlan {
  readonly key: string;
  readonly measure: string;
  readonly by: string;
}

export interface ComposedPlan {
  /** The current statement first. */
  readonly statements: readonly ComposedStatement[];
  readonly dimensions: readonly string[];
  readonly measures: readonly string[];
  readonly comparison?: ComparisonPlan;
  readonly shares: readonly SharePlan[];
  readonly per: readonly PerPlan[];
  /** Every column of the answer, in the rows' key order. */
  readonly columns: readonly ResultColumn[];
  readonly order: ReadonlyArray<{ readonly key: string; readonly direction: 'asc' | 'desc' }>;
  readonly limit: number;
  /** The query's "now", as wall time in its zone: what `partial` is measured against. */
  readonly nowWall: Date;
}

export interface ComposeOptions {
  readonly now: Date;
  /** Used when the query names none. */
  readonly timezone?: string;
  /** Rows of the answer at most, when fewer than the query's limit. */
  readonly maxRows?: number;
}

/** True when the query needs more than one plain statement and a merge. */
export function isComposedQuery(query: SemanticQuery): boolean {
  return query.compare !== undefined || (query.shares?.length ?? 0) > 0 || (query.per?.length ?? 0) > 0;
}

export function planComposedQuery(model: SemanticModel, query: SemanticQuery, options: ComposeOptions): ComposedPlan {
  const base = model.nodes.get(query.node);
  if (!base) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
  const timezone = query.timezone ?? options.timezone ?? 'UTC';
  assertTimeZone(timezone);
  const resolver = new FieldResolver(model, base);
  const dims = query.dimensions.map((id) => resolver.dimension(id));
  for (const id of query.measures) resolver.measure(id);
  const filters = query.filters.map((filter) => ({ filter, place: resolveFilter(filter, resolver).place }));
  const dimensionFilters = filters.filter((f) => f.place === 'dimension').map((f) => f.filter);
  const measureFiltered = filters.length > dimensionFilters.length;

  const shares = (query.shares ?? []).map((share, i) => {
    resolver.measure(share.measure);
    for (const id of share.of) {
      if (!query.dimensions.includes(id)) {
        throw new BadRequestError(`shares[${i}].of names ${id}, which is not among the query's dimensions: a share's total groups by some of them`, 'invalid_share');
      }
    }
    if (new Set(share.of).size < share.of.length) throw new BadRequestError(`shares[${i}].of names a dimension twice`, 'invalid_share');
    return { measure: share.measure, of: query.dimensions.filter((id) => share.of.includes(id)) };
  });
  const per = (query.per ?? []).map((ratio) => {
    resolver.measure(ratio.measure);
    resolver.measure(ratio.by);
    return { key: `${ratio.measure}.per.${ratio.by}`, measure: ratio.measure, by: ratio.by };
  });
  const computed = [...new Set([...query.measures, ...shares.map((s) => s.measure), ...per.flatMap((p) => [p.measure, p.by])])];

  const statements: ComposedStatement[] = [];
  const statement = (role: StatementRole, fields: Pick<SemanticQuery, 'dimensions' | 'measures' | 'filters'>) => {
    // No sorts (they may name computed columns) and room for one row more than is kept, which proves a cut.
    statements.push({ role, query: { node: query.node, timezone, ...fields, sorts: [], limit: STATEMENT_ROWS + 1 } });
    return statements.length - 1;
  };

  let comparison: ComparisonPlan | undefined;
  if (query.compare) {
    const compare = query.compare;
    if (query.measures.length === 0) throw new BadRequestError('compare needs at least one measure to compare', 'invalid_compare');
    const grain = comparedGrain(resolver, compare.dimension, dims);
    const periods = comparedPeriods(compare, grain?.granularity, timezone);
    statement('current', { dimensions: query.dimensions, measures: computed, filters: [...query.filters, ...inRange(compare.dimension, periods.current)] });
    const index = statement('comparison', { dimensions: query.dimensions, measures: query.measures, filters: [...dimensionFilters, ...inRange(compare.dimension, periods.comparison)] });
    comparison = {
      dimension: compare.dimension,
      to: typeof compare.to === 'object' ? 'range' : compare.to,
      current: periods.current,
      comparison: periods.comparison,
      ...(grain ? { grain: { ...grain, shift: periods.shift! } } : {}),
      partialKey: `${compare.dimension}.partial`,
      keepComparisonOnly: !measureFiltered,
      statement: index,
    };
  } else {
    statement('current', { dimensions: query.dimensions, measures: computed, filters: query.filters });
  }

  // One total per distinct `of`, with every share measure that needs it.
  const totals = new Map<string, { of: string[]; measures: string[]; statement?: number }>();
  for (const share of shares) {
    const key = JSON.stringify(share.of);
    const total = totals.get(key) ?? { of: share.of, measures: [] };
    if (!total.measures.includes(share.measure)) total.measures.push(share.measure);
    totals.set(key, total);
  }
  const currentRange = comparison ? inRange(comparison.dimension, comparison.current) : [];
  for (const total of totals.values()) total.statement = statement('total', { dimensions: total.of, measures: total.measures, filters: [...dimensionFilters, ...currentRange] });
  const sharePlans = shares.map((share) => ({ key: `${share.measure}.share`, ...share, statement: totals.get(JSON.stringify(share.of))!.statement! }));
  const twice = sharePlans.find((share, i) => sharePlans.findIndex((other) => other.measure === share.measure) !== i);
  if (twice) throw new BadRequestError(`The share of ${twice.measure} is asked twice; a measure has one share per query (${twice.key})`, 'invalid_share');

  const columns = columnsOf(dims, query.measures, comparison, sharePlans, per);
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.key)) throw new BadRequestError(`The answer would hold two columns named ${column.key}; ask for it once`, 'duplicate_field');
    seen.add(column.key);
  }
  const limit = Math.min(query.limit ?? DEFAULT_QUERY_LIMIT, options.maxRows ?? Number.POSITIVE_INFINITY);
  return {
    statements,
    dimensions: query.dimensions,
    measures: query.measures,
    ...(comparison ? { comparison } : {}),
    shares: sharePlans,
    per,
    columns,
    order: ordering(query, dims, columns),
    limit,
    nowWall: wallClock(options.now, timezone),
  };
}

/**
 * The grain of the compared dimension among the query's dimensions, if any. Other time grains, and
 * the compared dimension's own values or date parts, would take different values in the two periods
 * and never meet: they are refused.
 */
function comparedGrain(resolver: FieldResolver, id: string, dims: readonly DimensionRef[]): { id: string; granularity: Granularity } | undefined {
  const compared = resolver.dimension(id);
  const type = compared.dimension.type;
  if (compared.granularity || compared.part) {
    throw new BadRequestError(`compare.dimension names a dimension without a granularity (${id.split('.').slice(0, -1).join('.')}), got ${id}`, 'invalid_compare');
  }
  if (type !== 'date' && type !== 'timestamp') {
    throw new BadRequestError(`compare.dimension ${id} is a ${type} dimension; a comparison over time needs a date or timestamp dimension`, 'invalid_compare');
  }
  const same = (ref: DimensionRef) => ref.dimension === compared.dimension && ref.instance === compared.instance;
  let grain: { id: string; granularity: Granularity } | undefined;
  for (const ref of dims) {
    if (same(ref) && ref.granularity) {
      if (grain) throw new BadRequestError(`A comparison takes one granularity of ${id}; the query has ${grain.id} and ${ref.id}`, 'invalid_compare');
      grain = { id: ref.id, granularity: ref.granularity };
    } else if (same(ref)) {
      throw new BadRequestError(`${ref.id} takes other values in the comparison period than in the current one; group by a granularity of ${id} (${id}.month) to compare each period with its own`, 'invalid_compare');
    } else if (ref.granularity) {
      throw new BadRequestError(`${ref.id} is a granularity of another time dimension than the compared ${id}: its buckets differ between the periods; use a granularity of ${id}`, 'invalid_compare');
    }
  }
  return grain;
}

/** [from, to) on `dimension`, as two filters of the query language (wall times of the query's zone). */
function inRange(dimension: string, range: WallRange): Filter[] {
  return [
    { field: dimension, operator: 'gte', value: wallText(range.from) },
    { field: dimension, operator: 'lt', value: wallText(range.to) },
  ];
}

function columnsOf(dims: readonly DimensionRef[], measures: readonly string[], comparison: ComparisonPlan | undefined, shares: readonly SharePlan[], per: readonly PerPlan[]): ResultColumn[] {
  const columns: ResultColumn[] = dims.map((d) => ({ key: d.id, kind: 'dimension', type: d.part ? 'number' : d.granularity ? 'timestamp' : d.dimension.type }));
  for (const m of measures) {
    columns.push({ key: m, kind: 'measure', type: 'number' });
    if (!comparison) continue;
    columns.push(
      { key: `${m}.comparison`, kind: 'comparison', type: 'number', measure: m, description: `${m} ${comparedWith(comparison)}` },
      { key: `${m}.change`, kind: 'change', type: 'number', measure: m, description: `${m} − ${m}.comparison; null when either is null` },
      {
        key: `${m}.change_percent`,
        kind: 'change_percent',
        type: 'number',
        measure: m,
        description: `${m}.change ÷ |${m}.comparison| × 100, in percent (12.5 is a rise of 12.5 %); null when the comparison is 0 or null`,
      },
    );
  }
  for (const share of shares) {
    const over = share.of.length ? `each ${share.of.join(' × ')}` : 'every row';
    columns.push({ key: share.key, kind: 'share', type: 'number', format: 'percent', measure: share.measure, of: share.of, description: `${share.measure} as a fraction (0 to 1) of its total over ${over}; null when that total is 0 or null` });
  }
  for (const ratio of per) {
    columns.push({ key: ratio.key, kind: 'per', type: 'number', measure: ratio.measure, by: ratio.by, description: `${ratio.measure} ÷ ${ratio.by} in the same row; null when ${ratio.by} is 0 or null` });
  }
  if (comparison) {
    const what = comparison.grain ? `the row's ${comparison.grain.granularity}` : `the current period [${wallText(comparison.current.from)}, ${wallText(comparison.current.to)})`;
    columns.push({ key: comparison.partialKey, kind: 'partial', type: 'boolean', description: `true when ${what} is not over at the query's now` });
  }
  return columns;
}

function comparedWith(comparison: ComparisonPlan): string {
  const range = `[${wallText(comparison.comparison.from)}, ${wallText(comparison.comparison.to)})`;
  const grain = comparison.grain?.granularity;
  if (!grain) return `over the comparison period ${range}`;
  if (comparison.to === 'previous_period') return `in the ${grain} before the row's`;
  if (comparison.to === 'previous_year') return `in the same ${grain} a year before${grain === 'week' ? ' (52 weeks)' : ''}`;
  return `in the ${grain} at the same place of the comparison period ${range}`;
}

/** The query's sorts (on any column), else as plain queries order: the time grain ascending, else the first measure descending; then every dimension. */
function ordering(query: SemanticQuery, dims: readonly DimensionRef[], columns: readonly ResultColumn[]): ComposedPlan['order'] {
  const keys = new Set(columns.map((c) => c.key));
  const order: Array<{ key: string; direction: 'asc' | 'desc' }> = [];
  const push = (key: string, direction: 'asc' | 'desc') => {
    if (!order.some((o) => o.key === key)) order.push({ key, direction });
  };
  for (const sort of query.sorts) {
    if (!keys.has(sort.field)) {
      throw new BadRequestError(`Cannot sort by ${sort.field}: sort fields must be among the answer's columns (${[...keys].join(', ')})`, 'invalid_sort');
    }
    push(sort.field, sort.direction);
  }
  if (!query.sorts.length) {
    const time = dims.find((d) => d.granularity);
    const first = columns.find((c) => c.kind !== 'dimension' && c.kind !== 'partial');
    if (time) push(time.id, 'asc');
    else if (first) push(first.key, 'desc');
  }
  for (const d of dims) push(d.id, 'asc');
  return order;
}
