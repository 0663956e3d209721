// What a compiled query answers with, shared by the governed compiler (compile.ts) and the statements
// that answer a query from a rollup's table (rollup-answer-sql.ts): its output columns, its order, and
// the check that no field is asked for twice.
import { BadRequestError } from '../errors.js';
import { col, type OrderItem } from '../sql/ast.js';
import type { CompileOptions, OutputColumn } from './compile.js';
import type { DimensionRef, MeasureRef } from './fields.js';
import type { SemanticQuery } from './query.js';

/** The columns of a compiled query, in order: dimensions, measures, derived outputs. */
export function outputColumns(dims: readonly DimensionRef[], measures: readonly MeasureRef[], derived: NonNullable<CompileOptions['derived']> = []): OutputColumn[] {
  return [
    ...dims.map((d) => ({ key: d.id, kind: 'dimension' as const, type: d.part ? 'number' : d.granularity ? 'timestamp' : d.dimension.type })),
    ...measures.map((m) => ({ key: m.id, kind: 'measure' as const, type: 'number' })),
    ...derived.map((d) => ({ key: d.key, kind: 'measure' as const, type: 'number' })),
  ];
}

/** Requested sorts, else time ascending / first measure descending; then every dimension, for stable results. */
export function ordering(query: SemanticQuery, dims: readonly DimensionRef[], measures: readonly MeasureRef[], derived: NonNullable<CompileOptions['derived']>): OrderItem[] {
  const selected = new Set([...dims.map((d) => d.id), ...measures.map((m) => m.id), ...derived.map((d) => d.key)]);
  const order: OrderItem[] = [];
  const used = new Set<string>();
  const push = (id: string, direction: 'asc' | 'desc') => {
    if (used.has(id)) return;
    used.add(id);
    order.push({ expr: col(undefined, id), direction });
  };
  for (const sort of query.sorts) {
    if (!selected.has(sort.field)) {
      throw new BadRequestError(`Cannot sort by ${sort.field}: sort fields must be among the query's dimensions and measures`, 'invalid_sort');
    }
    push(sort.field, sort.direction);
  }
  if (!query.sorts.length) {
    const time = dims.find((d) => d.granularity);
    if (time) push(time.id, 'asc');
    else if (measures[0]) push(measures[0].id, 'desc');
    else if (derived[0]) push(derived[0].key, 'desc');
  }
  for (const d of dims) push(d.id, 'asc');
  return order;
}

/** The ids as given; one listed twice is refused (a column would be asked for twice). */
export function unique(ids: readonly string[], kind: string): string[] {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new BadRequestError(`The ${kind} ${id} is listed twice`, 'duplicate_field');
    seen.add(id);
  }
  return [...ids];
}
