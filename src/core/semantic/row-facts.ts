// Extra outputs a question's headline asks of the rows beside its metrics: the latest value of its time
// dimension (the answer's freshness), whether any row is there at all, and whether a ranked dimension is
// empty in some row. Each is an ordinary derived output (a template the compiler compiles like any
// other) that also says what it computes, so that a rollup can give the same value from stored groups
// (rollup-answer-sql.ts) instead of refusing it as an aggregate over source rows: a stored group exists
// exactly when a source row of it does, holds its dimensions' values (NULL included), and keeps the
// latest source time of its rows.
import type { SemanticNode, SqlPart, SqlTemplate } from './model.js';

export type DimensionPart = SqlPart & { readonly kind: 'dimension' };

/**
 * What a derived output computes over the rows it aggregates:
 * - `latest`: the greatest value of a dimension (MAX);
 * - `rows`: 1 when at least one row is aggregated, NULL when none is;
 * - `any_null`: 1 when a row has an empty value in one of the dimensions, 0 when none has, NULL without rows.
 */
export type RowFact = { readonly kind: 'latest'; readonly dimension: DimensionPart } | { readonly kind: 'rows' } | { readonly kind: 'any_null'; readonly dimensions: readonly DimensionPart[] };

export interface FactOutput {
  readonly key: string;
  readonly template: SqlTemplate;
  readonly fact: RowFact;
}

function wrapped(open: string, parts: readonly SqlPart[], close: string): SqlTemplate {
  return [{ kind: 'text', text: open }, ...parts, { kind: 'text', text: close }];
}

/** The latest value of `dimension` among the rows. */
export function latestOf(key: string, dimension: DimensionPart): FactOutput {
  return { key, template: wrapped('MAX(', [dimension], ')'), fact: { kind: 'latest', dimension } };
}

/**
 * 1 when at least one row is aggregated, NULL when none is. It reads a column of the base (its primary
 * key, or its first dimension) because the compiler computes column aggregates over the joined rows
 * even when a one-to-many join makes it aggregate each node apart; MAX is immune to the duplicates.
 * Undefined for a node without dimensions.
 */
export function rowMarkerOf(key: string, base: SemanticNode): FactOutput | undefined {
  const dimensions = [...base.dimensions.values()];
  const column = dimensions.find((d) => d.primaryKey) ?? dimensions[0];
  if (!column) return undefined;
  return { key, template: wrapped('MAX(CASE WHEN ', [{ kind: 'dimension', node: column.node, name: column.name }], ' IS NULL THEN 1 ELSE 1 END)'), fact: { kind: 'rows' } };
}

/** 1 when a row has an empty value in one of `dimensions`, 0 when none has, NULL without rows. */
export function anyNullOf(key: string, dimensions: readonly DimensionPart[]): FactOutput {
  const parts: SqlPart[] = dimensions.flatMap((d, i) => [...(i ? [{ kind: 'text' as const, text: ' OR ' }] : []), d, { kind: 'text' as const, text: ' IS NULL' }]);
  return { key, template: wrapped('MAX(CASE WHEN ', parts, ' THEN 1 ELSE 0 END)'), fact: { kind: 'any_null', dimensions } };
}
