// The semantic compiler: linked model + query + the user's attributes → SQL tree → dialect text and
// bound parameters. Two plans:
// - one grouped SELECT, when no join can meet a row of a measured node with several rows;
// - otherwise one aggregation per measured node, each over that node's distinct rows (found through
//   its primary key), joined back on the dimensions. Sums across a one-to-many join are then exact.
import { BadRequestError, NotFoundError } from '../errors.js';
import { and, col, param, raw, type Expr, type FromItem, type JoinItem, type Select, type SelectItem } from '../sql/ast.js';
import type { Dialect } from '../sql/dialect.js';
import { FieldResolver, type DimensionRef, type MeasureRef } from './fields.js';
import { dimensionsIn, filterToExpr, measuresIn, resolveFilter, type FilterRenderContext, type ResolvedFilter } from './filters.js';
import { buildJoinTree, multipliesRowsOf, type JoinTree } from './join-tree.js';
import { aggregateOf, sensitiveToDuplicates } from './measures.js';
import type { Measure, SemanticModel, SemanticNode, SqlTemplate } from './model.js';
import type { SemanticQuery } from './query.js';
import { bindNode, TemplateExpander } from './templates.js';
import { ordering, outputColumns, unique } from './query-output.js';
import { assertTimeZone } from './time.js';
import type { RowFact } from './row-facts.js';

export interface CompileOptions {
  readonly dialect: Dialect;
  /** The user's attributes, for data keys. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly now: Date;
  /** Used when the query names none. */
  readonly timezone?: string;
  readonly defaultLimit?: number;
  /**
   * Extra output columns: reveal metrics, computed from `measure` references after aggregation (their
   * measures are computed even if not requested); or "raw aggregates" over `dimension` references,
   * such as MAX(<time>). A raw aggregate reads the joined rows, so it must be one that duplicates
   * do not change (MIN, MAX, COUNT(DISTINCT …)): choosing such an aggregate is the caller's job.
   * When a one-to-many join makes the compiler aggregate each node separately, a template mixing
   * both kinds of reference is refused. `fact` says what a raw aggregate computes (row-facts.ts), so
   * that a rollup can answer it; the compiler compiles the template alone.
   */
  readonly derived?: ReadonlyArray<{ readonly key: string; readonly template: SqlTemplate; readonly fact?: RowFact }>;
}

export interface OutputColumn {
  readonly key: string;
  readonly kind: 'dimension' | 'measure';
  readonly type: string;
}

export interface CompiledQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  /**
   * The same statement with each parameter written as a literal of the dialect: what the query history
   * keeps beside `sql` and `params`, so the run can be reopened in the SQL editor and run as shown.
   * Rendered on first call (a run, not a compile, needs it: a cached answer never does), then kept.
   */
  readonly runnableSql: () => string;
  readonly columns: readonly OutputColumn[];
  readonly node: string;
  readonly connection: string;
  readonly timezone: string;
  /** Nodes the query reads, for cache invalidation and audit. */
  readonly nodes: readonly string[];
}

/** An attribute value that grants every row of a data key. */
export const ALL_ROWS = '*';

export function compileQuery(model: SemanticModel, query: SemanticQuery, options: CompileOptions): CompiledQuery {
  const base = model.nodes.get(query.node);
  if (!base) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
  const timezone = query.timezone ?? options.timezone ?? 'UTC';
  assertTimeZone(timezone);

  const resolver = new FieldResolver(model, base);
  const dims = unique(query.dimensions, 'dimension').map((id) => resolver.dimension(id));
  const measures = unique(query.measures, 'measure').map((id) => resolver.measure(id));
  if (dims.length + measures.length + (options.derived?.length ?? 0) === 0) throw new BadRequestError('A query needs at least one dimension or measure', 'empty_query');

  const filters = query.filters.map((filter) => resolveFilter(filter, resolver));
  const whereFilters = filters.filter((f) => f.place === 'dimension').map((f) => f.resolved);
  const havingFilters = filters.filter((f) => f.place === 'measure').map((f) => f.resolved);
  const derived = options.derived ?? [];
  const hidden = [...measuresIn(havingFilters), ...derived.flatMap((d) => measureRefsIn(d.template, resolver))];
  const computed = [...measures];
  for (const ref of hidden) if (!computed.some((m) => m.id === ref.id)) computed.push(ref);

  // Instances, not nodes: a node joined in two roles is two instances (`ship_from`, `ship_to`).
  const needed = new Set([base.name, ...dims.map((d) => d.instance), ...computed.map((m) => m.instance)]);
  for (const ref of dimensionsIn(whereFilters)) needed.add(ref.instance);
  for (const d of derived) for (const part of d.template) if (part.kind === 'dimension' || part.kind === 'table') needed.add(part.role ?? part.node);
  const tree = buildJoinTree(model, base.name, needed, resolver.instances);

  const context = new QueryContext(model, tree, timezone, options);
  // Data keys are ANDed beside the user's filters, never inside one: no `not` or `or` of a caller
  // reaches them.
  const where = and([...whereFilters.map((f) => filterToExpr(f, context.filterContext())), ...context.dataKeyConditions()]);

  const lookup = (node: string, name: string) => model.nodes.get(node)!.measures.get(name)!;
  const fanned = new Set(computed.filter((m) => sensitiveToDuplicates(m.measure, lookup) && multipliesRowsOf(tree, m.instance)).map((m) => m.instance));
  const plan = fanned.size === 0 ? singleSelect : perNodeSelect;
  const select = plan({ context, dims, measures, computed, derived, where, havingFilters, fanned, query, options });

  const columns = outputColumns(dims, measures, derived);
  const { sql, params } = options.dialect.render(select);
  return { sql, params, runnableSql: renderedOnce(options.dialect, select), columns, node: base.name, connection: base.connection, timezone, nodes: [...new Set(tree.nodeOf.values())] };
}

/** The runnable text, rendered once when first asked for; the tree is let go then. */
function renderedOnce(dialect: Dialect, select: Select): () => string {
  let tree: Select | undefined = select;
  let text: string | undefined;
  return () => {
    if (text === undefined) {
      text = dialect.renderRunnable(tree!);
      tree = undefined;
    }
    return text;
  };
}

interface PlanInput {
  context: QueryContext;
  dims: DimensionRef[];
  measures: MeasureRef[];
  computed: MeasureRef[];
  derived: NonNullable<CompileOptions['derived']>;
  where: Expr | undefined;
  havingFilters: ResolvedFilter[];
  fanned: Set<string>;
  query: SemanticQuery;
  options: CompileOptions;
}

function singleSelect({ context, dims, measures, derived, where, havingFilters, query, options }: PlanInput): Select {
  const items: SelectItem[] = [
    ...dims.map((d) => ({ expr: context.dimensionExpr(d), alias: d.id })),
    ...measures.map((m) => ({ expr: context.aggregate(m.measure, m.instance), alias: m.id })),
    ...derived.map((d) => ({ expr: context.derivedExpr(d.template, (m, instance) => context.aggregate(m, instance)), alias: d.key })),
  ];
  const aggregated = measures.length + derived.length + havingFilters.length > 0;
  const filterContext = { ...context.filterContext(), measureExpr: (ref: MeasureRef) => context.aggregate(ref.measure, ref.instance) };
  return {
    items,
    from: context.source(context.tree.root),
    joins: context.joins(),
    ...(where ? { where } : {}),
    ...(dims.length && aggregated ? { groupBy: dims.map((_, i) => i + 1) } : {}),
    ...(dims.length && !aggregated ? { distinct: true } : {}),
    ...(havingFilters.length ? { having: and(havingFilters.map((f) => filterToExpr(f, filterContext))) } : {}),
    orderBy: ordering(query, dims, measures, derived),
    limit: query.limit ?? options.defaultLimit ?? 5000,
  };
}

function perNodeSelect({ context, dims, measures, computed, derived, where, havingFilters, fanned, query, options }: PlanInput): Select {
  const dimAlias = (i: number) => `d${i}`;
  const byNode = new Map<string, MeasureRef[]>();
  // Grouped by instance: a node read in two roles is aggregated once per role.
  for (const ref of computed) byNode.set(ref.instance, [...(byNode.get(ref.instance) ?? []), ref]);

  const ctes: Array<{ name: string; select: Select }> = [];
  const measureColumn = new Map<string, Expr>();
  [...byNode].forEach(([node, refs], g) => {
    const name = `g${g}`;
    refs.forEach((ref, j) => {
      measureColumn.set(ref.id, col(name, `m${j}`));
      measureColumn.set(`${ref.instance}.${ref.measure.name}`, col(name, `m${j}`));
    });
    const groupBy = dims.length ? { groupBy: dims.map((_, i) => i + 1) } : {};
    if (!fanned.has(node)) {
      const items = [...dims.map((d, i) => ({ expr: context.dimensionExpr(d), alias: dimAlias(i) })), ...refs.map((r, j) => ({ expr: context.aggregate(r.measure, r.instance), alias: `m${j}` }))];
      ctes.push({ name, select: { items, from: context.source(context.tree.root), joins: context.joins(), ...(where ? { where } : {}), ...groupBy } });
      return;
    }
    // The node's distinct rows per dimension combination, then its measures over exactly those rows.
    const key = context.primaryKey(node, refs[0]!.measure);
    const keys: Select = {
      distinct: true,
      items: [...dims.map((d, i) => ({ expr: context.dimensionExpr(d), alias: dimAlias(i) })), { expr: key, alias: 'row_key' }],
      from: context.source(context.tree.root),
      joins: context.joins(),
      ...(where ? { where } : {}),
    };
    const items = [
      ...dims.map((_, i) => ({ expr: col('k', dimAlias(i)), alias: dimAlias(i) })),
      ...refs.map((r, j) => ({ expr: context.aggregate(r.measure, r.instance, key), alias: `m${j}` })),
    ];
    const join: JoinItem = { type: 'left', from: context.source(node), on: { kind: 'binary', op: '=', left: key, right: col('k', 'row_key') } };
    ctes.push({ name, select: { items, from: { kind: 'select', select: keys, alias: 'k' }, joins: [join], ...groupBy } });
  });

  // Every combination of dimensions any node produced (nulls included), with each node's measures.
  const spine: FromItem = dims.length ? { kind: 'cte', name: 'spine', alias: 'spine' } : { kind: 'cte', name: ctes[0]!.name, alias: ctes[0]!.name };
  const allCtes: NonNullable<Select['with']>[number][] = [...ctes];
  if (dims.length) {
    const parts = ctes.map((cte) => ({ items: dims.map((_, i) => ({ expr: col(cte.name, dimAlias(i)), alias: dimAlias(i) })), from: { kind: 'cte' as const, name: cte.name, alias: cte.name } }));
    allCtes.push({ name: 'spine', select: { kind: 'union', selects: parts } });
  }
  const toSpine = (name: string): JoinItem => ({
    type: 'left',
    from: { kind: 'cte', name, alias: name },
    on: dims.length
      ? and(dims.map((_, i): Expr => ({ kind: 'nullSafeEq', left: col('spine', dimAlias(i)), right: col(name, dimAlias(i)) })))!
      : { kind: 'binary', op: '=', left: raw('1'), right: raw('1') },
  });
  const joins: JoinItem[] = ctes.filter((cte) => dims.length || cte !== ctes[0]).map((cte) => toSpine(cte.name));

  // Derived outputs over columns (raw aggregates such as MAX(<time>)) name node aliases the outer query
  // cannot see: they get their own CTE, over the same joined and filtered rows as the others, grouped by
  // the same dimensions. Duplicates from the joins do not change MIN, MAX or COUNT(DISTINCT …), which
  // the caller is to use (see CompileOptions.derived). That CTE stays out of the spine: every CTE
  // groups the same FROM, joins and WHERE by the same dimensions, so it has no combination the spine
  // lacks (HAVING filters apply to the outer query, after the spine).
  const raws = derived.filter((d) => readsColumns(d.template));
  const mixed = raws.find((d) => d.template.some((part) => part.kind === 'measure'));
  if (mixed) {
    throw new BadRequestError(
      `The output ${mixed.key} uses both columns and measures, which cannot be computed together when a one-to-many join makes ` +
        'the query aggregate each node separately; compute the column aggregate and the measures as separate outputs',
      'fan_out',
    );
  }
  const rawColumn = new Map<(typeof derived)[number], Expr>(raws.map((d, j) => [d, col('r0', `v${j}`)]));
  if (raws.length) {
    const items = [
      ...dims.map((d, i) => ({ expr: context.dimensionExpr(d), alias: dimAlias(i) })),
      ...raws.map((d, j) => ({ expr: context.derivedExpr(d.template), alias: `v${j}` })),
    ];
    const groupBy = dims.length ? { groupBy: dims.map((_, i) => i + 1) } : {};
    allCtes.push({ name: 'r0', select: { items, from: context.source(context.tree.root), joins: context.joins(), ...(where ? { where } : {}), ...groupBy } });
    joins.push(toSpine('r0'));
  }

  const filterContext = { ...context.filterContext(), measureExpr: (ref: MeasureRef) => measureColumn.get(ref.id)! };
  return {
    with: allCtes,
    items: [
      ...dims.map((d, i) => ({ expr: col(spine.alias, dimAlias(i)), alias: d.id })),
      ...measures.map((m) => ({ expr: measureColumn.get(m.id)!, alias: m.id })),
      ...derived.map((d) => ({ expr: rawColumn.get(d) ?? context.derivedExpr(d.template, (m, instance) => measureColumn.get(`${instance}.${m.name}`)!), alias: d.key })),
    ],
    from: spine,
    joins,
    ...(havingFilters.length ? { where: and(havingFilters.map((f) => filterToExpr(f, filterContext))) } : {}),
    orderBy: ordering(query, dims, measures, derived),
    limit: query.limit ?? options.defaultLimit ?? 5000,
  };
}

class QueryContext {
  private readonly expander: TemplateExpander;

  constructor(
    readonly model: SemanticModel,
    readonly tree: JoinTree,
    readonly timezone: string,
    private readonly options: CompileOptions,
  ) {
    this.expander = new TemplateExpander(model, (measure, instance) => this.aggregate(measure, instance));
  }

  dimensionExpr(ref: DimensionRef): Expr {
    // In parentheses: a dimension may be a condition (`status = 'x'`) compared again by a filter.
    let expr: Expr = { kind: 'paren', expr: this.expander.expand(ref.dimension.sql, 0, bindNode(ref.dimension.node, ref.instance)) };
    if (ref.dimension.type === 'timestamp' && this.timezone !== 'UTC') expr = { kind: 'toTimeZone', expr, timezone: this.timezone };
    if (ref.granularity) expr = { kind: 'truncate', granularity: ref.granularity, expr };
    if (ref.part) expr = { kind: 'datePart', part: ref.part, expr };
    return expr;
  }

  /** The aggregate of `measure` over the rows of `instance` (its node's own name, or a join alias). */
  aggregate(measure: Measure, instance: string, rowKey?: Expr): Expr {
    const binding = bindNode(measure.node, instance);
    if (!rowKey) return aggregateOf(measure, this.expander, this.joinedRowKey(measure, instance), binding);
    const expander: TemplateExpander = new TemplateExpander(this.model, (m, at): Expr => aggregateOf(m, expander, rowKey, bindNode(m.node, at)));
    return aggregateOf(measure, expander, rowKey, binding);
  }

  /** A derived output: its measure references become the given measure expressions (without any, none may be present). */
  derivedExpr(template: SqlTemplate, measureExpr?: (measure: Measure, instance: string) => Expr): Expr {
    return { kind: 'paren', expr: new TemplateExpander(this.model, measureExpr).expand(template) };
  }

  filterContext(): FilterRenderContext {
    return {
      dimensionExpr: (ref) => this.dimensionExpr(ref),
      measureExpr: (ref) => this.aggregate(ref.measure, ref.instance),
      timezone: this.timezone,
      now: this.options.now,
    };
  }

  /** The source of an instance, under the instance's name (a node's own name or a join alias). */
  source(instance: string): FromItem {
    const node = this.node(instance);
    return node.source.kind === 'table' ? { kind: 'table', name: node.source.table, alias: instance } : { kind: 'sql', sql: node.source.sql, alias: instance };
  }

  joins(): JoinItem[] {
    return this.tree.nodes.slice(1).map((instance) => {
      const edge = this.tree.edges.get(instance)!;
      return { type: 'left', from: this.source(instance), on: this.expander.expand(edge.on, 0, edge.binding) };
    });
  }

  /** Data keys of every instance the query reads (each role of a node apart): fail closed when the user lacks the attribute. */
  dataKeyConditions(): Expr[] {
    const conditions: Expr[] = [];
    for (const instance of this.tree.nodes) {
      const node = this.node(instance);
      for (const key of node.dataKeys) {
        const value = this.options.attributes[key.attribute];
        if (value === ALL_ROWS) continue;
        if (value === undefined) {
          conditions.push({ kind: 'binary', op: '=', left: raw('1'), right: raw('0') });
          continue;
        }
        const dimension = this.expander.dimension(node.name, key.dimension);
        const expr = this.expander.expand(dimension.sql, 0, bindNode(node.name, instance));
        conditions.push({ kind: 'binary', op: '=', left: { kind: 'paren', expr }, right: param(value) });
      }
    }
    return conditions;
  }

  /** A row count of a joined instance counts its key: its LEFT JOIN adds a row of NULLs where it has none. */
  private joinedRowKey(measure: Measure, instance: string): Expr | undefined {
    if (measure.type !== 'count' || measure.sql || instance === this.tree.root) return undefined;
    return this.keyOf(instance);
  }

  primaryKey(instance: string, measure: Measure): Expr {
    const key = this.keyOf(instance);
    if (!key) {
      const name = this.node(instance).name;
      throw new BadRequestError(
        `${name}.${measure.name} would be counted more than once through a one-to-many join in this query; ` +
          `give node ${name} a primary_key dimension so it can be computed exactly`,
        'fan_out',
      );
    }
    return key;
  }

  /** The primary key of an instance's node, read as that instance; undefined when it has none. */
  private keyOf(instance: string): Expr | undefined {
    const node = this.node(instance);
    const key = [...node.dimensions.values()].find((d) => d.primaryKey);
    return key && { kind: 'paren', expr: this.expander.expand(key.sql, 0, bindNode(node.name, instance)) };
  }

  private node(instance: string): SemanticNode {
    return this.model.nodes.get(this.tree.nodeOf.get(instance) ?? instance)!;
  }
}

function measureRefsIn(template: SqlTemplate, resolver: FieldResolver): MeasureRef[] {
  return template.flatMap((part) => (part.kind === 'measure' ? [resolver.measure(`${part.role ?? part.node}.${part.name}`)] : []));
}

/** True when a template reads columns of the rows (dimensions or a node's table), not only measures. */
function readsColumns(template: SqlTemplate): boolean {
  return template.some((part) => part.kind === 'dimension' || part.kind === 'table');
}
