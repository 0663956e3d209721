// The linked semantic model: what the CML linker produces and the SQL compiler consumes. Immutable
// data, no behaviour. Every SQL fragment written in CML is kept as a template whose references the
// linker has resolved; the compiler renders templates per dialect, so nothing here is engine-specific.
import type { Rollup } from './rollup-model.js';

export const DIMENSION_TYPES = ['string', 'number', 'boolean', 'date', 'timestamp'] as const;
export type DimensionType = (typeof DIMENSION_TYPES)[number];

export const MEASURE_TYPES = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'number'] as const;
export type MeasureType = (typeof MEASURE_TYPES)[number];

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const RELATIONSHIPS = ['many_to_one', 'one_to_many', 'one_to_one'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/**
 * How time bounds a metric when a question names no period:
 * - `flow`: what happened (revenue, orders placed): the default window;
 * - `stock`: what exists (customers, stations): every row, all time; a named period keeps the rows
 *   whose time falls in it;
 * - `snapshot`: a state as of now (open tickets): every row; no other period than today can be given.
 */
export const TIME_SCOPES = ['flow', 'stock', 'snapshot'] as const;
export type TimeScope = (typeof TIME_SCOPES)[number];

/** Where something was written: 1-based lines and columns; end is exclusive. */
export interface SourceSpan {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/**
 * A resolved SQL fragment. `text` is copied verbatim (whitespace included); the other parts are
 * references the linker resolved:
 * - `table`: the source of `node` (`${TABLE}` inside a node, `${orders.TABLE}` elsewhere), rendered as
 *   that node's alias in the query;
 * - `dimension` / `measure`: a field, rendered by expanding its own template (dimension: a row-level
 *   expression; measure: only inside another measure or a metric, as the aggregate);
 * - `metric`: another metric of the same reveal (only inside a metric's `expr`).
 * `role`, when set, is the join alias the node is read through (`ship_to` for `regions` joined as
 * `join ship_to: regions`); without it the node is read under its own name.
 */
export type SqlPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'table'; readonly node: string; readonly role?: string }
  | { readonly kind: 'dimension'; readonly node: string; readonly name: string; readonly role?: string }
  | { readonly kind: 'measure'; readonly node: string; readonly name: string; readonly role?: string }
  | { readonly kind: 'metric'; readonly reveal: string; readonly name: string };

export type SqlTemplate = readonly SqlPart[];

export interface Dimension {
  readonly node: string;
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly type: DimensionType;
  /** Row-level expression. Default when CML gives none: `${TABLE}.<name>`. */
  readonly sql: SqlTemplate;
  readonly primaryKey: boolean;
  readonly hidden: boolean;
  /** Other words users name the dimension with, in any language (`destination`, `Ziel`). */
  readonly synonyms?: readonly string[];
  /** Stored value → other words for it (`TX` → Texas), in any language. */
  readonly valueSynonyms?: ReadonlyMap<string, readonly string[]>;
  readonly span: SourceSpan;
}

export interface Measure {
  readonly node: string;
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly type: MeasureType;
  /**
   * For count: absent (count of rows) or the expression counted when not null.
   * For count_distinct, sum, avg, min, max: the row-level expression aggregated.
   * For number: an expression over other measures (parts of kind `measure`), evaluated after aggregation.
   * For a ratio: the numerator and the denominator, so that what reads a measure's inputs sees both.
   */
  readonly sql?: SqlTemplate;
  /**
   * A ratio (CML `type: ratio`): the measure `numerator` of the same node over the measure
   * `denominator`, divided after aggregation as a safe quotient (NULL when the denominator is 0 or
   * NULL, never integer division; see measures.ts). Its `type` is `number`, a measure computed from
   * others, so every reader of measure types treats it as one.
   */
  readonly ratio?: { readonly numerator: string; readonly denominator: string };
  /** Row-level condition: only rows where it holds are aggregated (not allowed on `number`). */
  readonly filter?: SqlTemplate;
  readonly format?: string;
  /** What the number counts or measures (`kg`, `minutes`, `usd`); see src/core/semantic/units.ts. */
  readonly unit?: string;
  readonly hidden: boolean;
  readonly span: SourceSpan;
}

export interface Join {
  /** The node that declares the join. */
  readonly from: string;
  readonly to: string;
  /**
   * The role the joined node plays for `from` (`ship_to` in `join ship_to: regions`): the name its
   * fields are reached by (`ship_to.name`) and its table alias in SQL. Absent, the node's own name.
   */
  readonly alias?: string;
  /** Words for the role (`destination`), so questions can name it. */
  readonly synonyms?: readonly string[];
  readonly relationship: Relationship;
  /** Condition over both nodes (parts of kind `dimension` or `table` of `from` and `to`). */
  readonly on: SqlTemplate;
  readonly span: SourceSpan;
}

/** Rows of `node` are limited to those whose `dimension` equals the user's `attribute` value. */
export interface DataKey {
  readonly node: string;
  readonly name: string;
  readonly dimension: string;
  readonly attribute: string;
  readonly span: SourceSpan;
}

export type NodeSource = { readonly kind: 'table'; readonly table: string } | { readonly kind: 'sql'; readonly sql: string };

export interface SemanticNode {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly domain?: string;
  /** Name of the warehouse connection the node reads from. */
  readonly connection: string;
  readonly source: NodeSource;
  readonly tags: readonly string[];
  /** In declaration order. */
  readonly dimensions: ReadonlyMap<string, Dimension>;
  readonly measures: ReadonlyMap<string, Measure>;
  /** Joins declared by this node. */
  readonly joins: readonly Join[];
  readonly dataKeys: readonly DataKey[];
  /** Pre-aggregations of this node, in declaration order (see rollup-model.ts). */
  readonly rollups: readonly Rollup[];
  readonly file: string;
  readonly span: SourceSpan;
}

export interface Metric {
  readonly reveal: string;
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly unit: string;
  /** Every synonym, whatever its language. */
  readonly synonyms: readonly string[];
  /** The synonyms by language code, when CML gives them per language (`''`: no language said). */
  readonly synonymsByLanguage?: ReadonlyMap<string, readonly string[]>;
  /**
   * How time bounds it (see TIME_SCOPES): `time_scope:` as written, `snapshot` for `snapshot: true` or
   * in a reveal without a time dimension, else inferred (docs/cml.md, "Time scope").
   */
  readonly timeScope: TimeScope;
  /**
   * `timeScope === 'snapshot'`: a state "as of now" (open tickets), answered over all rows; a question
   * naming another period is declined.
   */
  readonly snapshot: boolean;
  readonly format?: string;
  /** Exactly one of `measure` and `expr`. */
  readonly measure?: { readonly node: string; readonly name: string; readonly role?: string };
  /** Over other metrics (kind `metric`) and measures (kind `measure`). */
  readonly expr?: SqlTemplate;
  readonly span: SourceSpan;
}

export interface Reveal {
  readonly name: string;
  readonly domain: string;
  readonly label: string;
  readonly description: string;
  /** The node queries of this reveal start from. */
  readonly base: string;
  /** Default time dimension for periods and freshness. */
  readonly time?: { readonly node: string; readonly dimension: string; readonly role?: string };
  /** Languages questions are asked in (`en`, `de`): each should have synonyms. The first is the default. */
  readonly languages?: readonly string[];
  /** In declaration order. */
  readonly metrics: ReadonlyMap<string, Metric>;
  readonly file: string;
  readonly span: SourceSpan;
}

export interface SemanticModel {
  readonly nodes: ReadonlyMap<string, SemanticNode>;
  readonly reveals: ReadonlyMap<string, Reveal>;
}
