// A governed query answered from a rollup's stored table, in the dialect of the engine that stores it
// (DuckDB for the embedded file, the source's own for a connection's rollup schema). The statement has the governed one's shape (compile.ts): the same output names, filters
// (filters.ts, over the stored columns), data keys, order and limit, with each value computed from
// stored groups instead of source rows:
// - sums, counts, minima and maxima re-aggregate their column (a count over no group is 0, as COUNT is);
// - an average is the sum of its sums over the sum of its counts;
// - a distinct count is read as stored: the matcher allows it only at the rollup's exact grain, where
//   each output row is one stored group;
// - a formula or a ratio is its own expression over its inputs, each read back the same way;
// - the time bucket (wall time of the rollup's zone, which the matcher made the query's) is truncated
//   again to a coarser grain by the dialect's own truncation, so weeks are the weeks the source makes.
// Re-aggregated values are cast back to the stored column's type, so integers stay integers and
// decimals stay exact decimals.
import { BadRequestError, NotFoundError } from '../errors.js';
import { aggregateOf } from './measures.js';
import { and, col, param, raw, type Expr, type Select } from '../sql/ast.js';
import { DIALECTS } from '../sql/dialects.js';
import { ALL_ROWS, type CompileOptions, type OutputColumn } from './compile.js';
import { ordering, outputColumns, unique } from './query-output.js';
import { FieldResolver, type DimensionRef } from './fields.js';
import { filterToExpr, resolveFilter, type FilterRenderContext } from './filters.js';
import type { Measure, SemanticModel, SqlTemplate } from './model.js';
import type { SemanticQuery } from './query.js';
import type { Rollup, RollupColumn } from './rollup-model.js';
import type { DimensionPart, RowFact } from './row-facts.js';
import { TemplateExpander } from './templates.js';
import type { WarehouseEngine } from '../warehouse/types.js';
import type { Dialect } from '../sql/dialect.js';
import { assertTimeZone } from './time.js';

export interface RollupAnswerOptions {
  /** The engine of the node's warehouse: what its own answer's values look like. */
  readonly sourceEngine: WarehouseEngine;
  /** The caller's attributes, for data keys. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly now: Date;
  readonly timezone?: string;
  readonly defaultLimit?: number;
  /** The engine the table is stored in, whose dialect the statement is written in; DuckDB when absent. */
  readonly storeEngine?: WarehouseEngine;
  /**
   * Extra outputs after the measures, as the compiler's (CompileOptions.derived): a formula over
   * measures reads them back; a fact of the rows (row-facts.ts) is read from the stored groups.
   */
  readonly derived?: CompileOptions['derived'];
}

/** The stored table a rollup was built into, and the type (of the storing engine) of each of its columns. */
export interface RollupTable {
  readonly name: string;
  /** The schema it is in, when it must be named (a connection's rollup schema). */
  readonly schema?: string;
  readonly columnTypes: ReadonlyMap<string, string>;
}

export interface RollupAnswerStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly columns: readonly OutputColumn[];
}

export function rollupAnswerStatement(model: SemanticModel, rollup: Rollup, table: RollupTable, query: SemanticQuery, options: RollupAnswerOptions): RollupAnswerStatement {
  const base = model.nodes.get(query.node);
  if (!base) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
  if (base.name !== rollup.node) throw new Error(`Rollup ${rollup.name} is of node ${rollup.node}, not ${base.name}`);
  const timezone = query.timezone ?? options.timezone ?? 'UTC';
  assertTimeZone(timezone);
  const resolver = new FieldResolver(model, base);
  const dims = unique(query.dimensions, 'dimension').map((id) => resolver.dimension(id));
  const measures = unique(query.measures, 'measure').map((id) => resolver.measure(id));
  const dialect = DIALECTS[options.storeEngine ?? 'duckdb'];
  const reader = new StoredReader(model, rollup, table, dialect);

  const filters = query.filters.map((filter) => resolveFilter(filter, resolver));
  const context: FilterRenderContext = {
    dimensionExpr: (ref) => reader.dimension(ref, timezone),
    measureExpr: (ref) => reader.measure(ref.measure),
    timezone,
    now: options.now,
  };
  const where = and([
    ...filters.filter((f) => f.place === 'dimension').map((f) => filterToExpr(f.resolved, context)),
    ...base.dataKeys.flatMap((key): Expr[] => {
      const value = options.attributes[key.attribute];
      if (value === ALL_ROWS) return [];
      if (value === undefined) return [{ kind: 'binary', op: '=', left: raw('1'), right: raw('0') }];
      return [{ kind: 'binary', op: '=', left: reader.storedDimension(key.dimension), right: param(value) }];
    }),
  ]);
  const having = filters.filter((f) => f.place === 'measure').map((f) => filterToExpr(f.resolved, context));
  const derived = options.derived ?? [];
  if (dims.length + measures.length + derived.length === 0) throw new BadRequestError('A query needs at least one dimension or measure', 'empty_query');
  const aggregated = measures.length + derived.length + having.length > 0;
  const select: Select = {
    items: [
      ...dims.map((d) => ({ expr: asSourceWrites(reader.dimension(d, timezone), d, options.sourceEngine), alias: d.id })),
      ...measures.map((m) => ({ expr: reader.measure(m.measure), alias: m.id })),
      ...derived.map((d) => ({ expr: d.fact ? factOf(d.fact, reader, dialect) : reader.formula(d.template), alias: d.key })),
    ],
    from: { kind: 'table', name: [...(table.schema ? [table.schema] : []), table.name].map((part) => dialect.quoteIdentifier(part)).join('.'), alias: 'r' },
    ...(where ? { where } : {}),
    ...(dims.length && aggregated ? { groupBy: dims.map((_, i) => i + 1) } : {}),
    ...(dims.length && !aggregated ? { distinct: true } : {}),
    ...(having.length ? { having: and(having) } : {}),
    orderBy: ordering(query, dims, measures, derived),
    limit: query.limit ?? options.defaultLimit ?? 5000,
  };
  const { sql, params } = dialect.render(select);
  return { sql, params, columns: outputColumns(dims, measures, derived) };
}

/**
 * A fact of the source rows from the stored groups that hold them: a group exists exactly when a source
 * row of it does, keeps its dimensions' values (an empty one is a group of its own) and the latest
 * source time of its rows. Values and types are the source's: 1 or NULL for the row marker, 1, 0 or
 * NULL for an empty value, the source's text of its latest time.
 */
function factOf(fact: RowFact, reader: StoredReader, dialect: Dialect): Expr {
  const quote = (name: string) => dialect.quoteIdentifier(name);
  const column = (part: DimensionPart) => `${quote('r')}.${quote(reader.columnOf(part))}`;
  switch (fact.kind) {
    case 'rows':
      return raw('MAX(1)');
    case 'latest':
      return raw(`MAX(${quote('r')}.${quote(reader.columnOf(fact.dimension, true))})`);
    case 'any_null':
      return raw(`MAX(CASE WHEN ${fact.dimensions.map((d) => `${column(d)} IS NULL`).join(' OR ')} THEN 1 ELSE 0 END)`);
  }
}

/**
 * A grouped dimension as the source's own answer types it. PostgreSQL has no DATE_TRUNC of a date: it
 * truncates the date as a timestamp with time zone (midnight UTC, the runs' session zone), so its
 * answer holds instants where other engines hold wall times; the rollup answers with the same instants.
 * Only in the output: filters compare the wall times, as PostgreSQL does in its UTC session.
 */
function asSourceWrites(expr: Expr, ref: DimensionRef, engine: WarehouseEngine): Expr {
  if (engine !== 'postgres' || ref.dimension.type !== 'date' || !ref.granularity) return expr;
  return { kind: 'seq', items: [raw('('), expr, raw(") AT TIME ZONE 'UTC'")] };
}

/** Expressions over the stored columns of one rollup table. */
class StoredReader {
  private readonly columns: ReadonlyMap<string, RollupColumn>;
  private readonly expander: TemplateExpander;

  constructor(
    private readonly model: SemanticModel,
    private readonly rollup: Rollup,
    private readonly table: RollupTable,
    private readonly dialect: Dialect,
  ) {
    this.columns = new Map(rollup.columns.map((c) => [c.name, c]));
    this.expander = new TemplateExpander(model, (measure) => this.measure(measure));
  }

  storedDimension(name: string): Expr {
    const column = this.rollup.columns.find((c) => c.kind === 'dimension' && c.dimension === name);
    if (!column) throw new Error(`Rollup ${this.rollup.name} does not store dimension ${name}`);
    return col('r', column.name);
  }

  /** A dimension as the governed compiler reads it, from the stored dimension or the time bucket. */
  dimension(ref: DimensionRef, timezone: string): Expr {
    if (ref.instance !== this.rollup.node) throw new Error(`Rollup ${this.rollup.name} holds no field of ${ref.instance}`);
    const name = ref.dimension.name;
    let expr: Expr;
    if (this.rollup.dimensions.includes(name)) {
      // Stored as the source has it: the same zone conversion and truncation as on the source (compile.ts).
      expr = this.storedDimension(name);
      if (ref.dimension.type === 'timestamp' && timezone !== 'UTC') expr = { kind: 'toTimeZone', expr, timezone };
    } else {
      const time = this.rollup.columns.find((c) => c.kind === 'time' && c.dimension === name);
      if (!time || time.kind !== 'time') throw new Error(`Rollup ${this.rollup.name} does not store dimension ${name}`);
      expr = col('r', time.name);
      // A raw date grouped by is its day, a DATE as on the source.
      if (!ref.granularity && !ref.part && ref.dimension.type === 'date') return raw(`CAST(${this.dialect.quoteIdentifier('r')}.${this.dialect.quoteIdentifier(time.name)} AS DATE)`);
      if (ref.granularity === time.grain) return expr;
    }
    if (ref.granularity) expr = { kind: 'truncate', granularity: ref.granularity, expr };
    if (ref.part) expr = { kind: 'datePart', part: ref.part, expr };
    return expr;
  }

  /** A formula over measures (a reveal metric), each read back from the rollup. */
  formula(template: SqlTemplate): Expr {
    return { kind: 'paren', expr: this.expander.expand(template) };
  }

  /**
   * The stored column that holds a dimension's values for a fact: the dimension stored as it is; for
   * the rollup's time, its bucket (empty when the time is) or, for its latest value, the latest source time.
   */
  columnOf(part: DimensionPart, latest = false): string {
    if (part.node !== this.rollup.node || (part.role !== undefined && part.role !== this.rollup.node)) throw new Error(`Rollup ${this.rollup.name} holds no field of ${part.role ?? part.node}`);
    const stored = this.rollup.columns.find((c) => c.kind === 'dimension' && c.dimension === part.name);
    if (stored) return stored.name;
    const time = this.rollup.columns.find((c) => c.kind === (latest ? 'latest' : 'time') && c.dimension === part.name);
    if (!time) throw new Error(`Rollup ${this.rollup.name} does not store dimension ${part.name}`);
    return time.name;
  }

  /** A measure read back from its stored columns. */
  measure(measure: Measure): Expr {
    const stored = this.rollup.measures.find((m) => m.name === measure.name);
    if (!stored) throw new Error(`Rollup ${this.rollup.name} does not store measure ${measure.name}`);
    const read = stored.read;
    switch (read.kind) {
      case 'column':
        return this.reaggregated(read.column);
      case 'average':
        return { kind: 'divide', numerator: this.reaggregated(read.sum), denominator: this.reaggregated(read.count) };
      case 'derived':
        // Ratios and formulas as the source computes them, their measure references read back here.
        return aggregateOf(measure, this.expander);
    }
  }

  private reaggregated(name: string): Expr {
    const column = this.columns.get(name);
    if (column?.kind !== 'measure') throw new Error(`Rollup ${this.rollup.name} has no measure column ${name}`);
    const quote = (text: string) => this.dialect.quoteIdentifier(text);
    const ref = `${quote('r')}.${quote(name)}`;
    const type = this.table.columnTypes.get(name);
    if (!type) throw new Error(`The table of rollup ${this.rollup.name} lacks column ${name}`);
    switch (column.reaggregate) {
      case 'sum':
        // COUNT over no rows is 0 where SUM is NULL.
        return raw(column.aggregate === 'count' ? `CAST(COALESCE(SUM(${ref}), 0) AS ${type})` : `CAST(SUM(${ref}) AS ${type})`);
      case 'min':
      case 'max':
        return raw(`${column.reaggregate.toUpperCase()}(${ref})`);
      case 'none':
        // Only at the exact grain (see rollup-match.ts): one stored row per output row.
        return raw(`MAX(${ref})`);
    }
  }
}
