// The SELECT that fills a rollup's stored table, in the source warehouse's dialect. It is an ordinary
// semantic query compiled by the governed compiler (compile.ts): the rollup's dimensions, its time
// dimension at its grain and one measure per stored column, grouped, in the rollup's zone, so time
// buckets, zone conversion and every aggregate (filters included) are the ones the source answers with.
// A stored column that is not a measure of the node (an average's sum and count) is compiled as a
// measure of that aggregate over the average's own SQL and filter, added to a copy of the node.
// Every data key is opened (the table holds all rows; a reader's keys apply when it is read), and the
// rows read can be limited to one time partition and to the rollup's build range.
import { ALL_ROWS, compileQuery, type CompiledQuery } from './compile.js';
import type { Measure, SemanticModel, SqlTemplate } from './model.js';
import { semanticQuerySchema, type Filter, type SemanticQuery } from './query.js';
import { rangeStart } from './rollup-match.js';
import type { Rollup, RollupColumn } from './rollup-model.js';
import type { Dialect } from '../sql/dialect.js';
import { formatWall } from './time.js';

/** Wall times in the rollup's zone, half-open: [start, end). */
export interface WallRange {
  readonly start: Date;
  readonly end: Date;
}

export interface RollupBuildOptions {
  readonly dialect: Dialect;
  /** For `last N <unit>` build ranges. */
  readonly now: Date;
  /** One partition of the time dimension; absent: every row of the build range. */
  readonly partition?: WallRange;
  /** Rows the statement may return at most (its LIMIT). */
  readonly maxRows: number;
}

export interface RollupBuildStatement {
  readonly compiled: CompiledQuery;
  /**
   * The stored column each output column of `compiled` fills, in order: the rollup's columns (its
   * dimensions, its time bucket, its measures, and with a time dimension the latest time value of each
   * group's source rows, as the source holds it, not bucketed).
   */
  readonly columns: readonly RollupColumn[];
}

export function rollupBuildStatement(model: SemanticModel, rollup: Rollup, options: RollupBuildOptions): RollupBuildStatement {
  const node = model.nodes.get(rollup.node);
  if (!node) throw new Error(`Rollup ${rollup.name} names unknown node ${rollup.node}`);
  const dimensions = rollup.columns.filter((c) => c.kind === 'dimension' || c.kind === 'time');
  const measures = rollup.columns.filter((c): c is Extract<RollupColumn, { kind: 'measure' }> => c.kind === 'measure');
  const latest = rollup.columns.filter((c): c is Extract<RollupColumn, { kind: 'latest' }> => c.kind === 'latest');
  const stored = new Map<string, Measure>(node.measures);
  for (const column of measures) {
    const own = node.measures.get(column.measure);
    if (!own) throw new Error(`Rollup ${rollup.name} stores unknown measure ${column.measure}`);
    // A column named after its measure is that measure; others (an average's parts) its aggregate.
    if (column.name !== column.measure) stored.set(column.name, { ...own, name: column.name, type: column.aggregate, hidden: true });
  }
  const building: SemanticModel = { ...model, nodes: new Map(model.nodes).set(node.name, { ...node, measures: stored }) };
  const query: SemanticQuery = {
    ...semanticQuerySchema.parse({
      node: node.name,
      dimensions: dimensions.map((c) => (c.kind === 'time' ? `${c.dimension}.${c.grain}` : c.dimension)),
      measures: measures.map((c) => c.name),
      filters: rollup.time ? timeFilters(rollup, rollup.time.dimension, options) : [],
      timezone: rollup.timezone,
    }),
    // Beyond what a caller may ask for: a build reads every group of its partition.
    limit: options.maxRows,
  };
  const attributes = Object.fromEntries(node.dataKeys.map((key) => [key.attribute, ALL_ROWS]));
  // The compiler's derived outputs follow its measures: the stored columns' own order.
  const derived = latest.map((column) => ({ key: column.name, template: [{ kind: 'text', text: 'MAX(' }, { kind: 'dimension', node: node.name, name: column.dimension }, { kind: 'text', text: ')' }] as SqlTemplate }));
  const compiled = compileQuery(building, query, { dialect: options.dialect, attributes, now: options.now, timezone: rollup.timezone, ...(derived.length ? { derived } : {}) });
  return { compiled, columns: [...dimensions, ...measures, ...latest] };
}

/** The partition and the build range as filters on the time dimension, in wall time of the rollup's zone. */
function timeFilters(rollup: Rollup, field: string, options: RollupBuildOptions): Filter[] {
  const at = (wall: Date) => formatWall(wall);
  const filters: Filter[] = [];
  if (rollup.buildRange.kind !== 'all') filters.push({ field, operator: 'gte', value: at(rangeStart(rollup.buildRange, options.now, rollup.timezone)) });
  if (options.partition) {
    filters.push({ field, operator: 'gte', value: at(options.partition.start) });
    filters.push({ field, operator: 'lt', value: at(options.partition.end) });
  }
  return filters;
}
