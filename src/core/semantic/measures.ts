// Aggregate expressions of measures: `filter` becomes a CASE inside the aggregate, derived (`number`)
// measures expand their references into the referenced aggregates, a ratio divides its two safely.
import { raw, type Expr } from '../sql/ast.js';
import type { Measure } from './model.js';
import { OWN_NAMES, type Binding, type TemplateExpander } from './templates.js';

const ADDITIVE = new Set(['count', 'sum', 'avg']);

/**
 * True when joining extra rows to the measure's node would change its value: counts, sums and
 * averages (and derived measures over them); count_distinct, min and max are immune to duplicates.
 */
export function sensitiveToDuplicates(measure: Measure, lookup: (node: string, name: string) => Measure): boolean {
  if (measure.type !== 'number') return ADDITIVE.has(measure.type);
  return (measure.sql ?? []).some((part) => part.kind === 'measure' && sensitiveToDuplicates(lookup(part.node, part.name), lookup));
}

/**
 * @param rowKey When set, what a `count` without sql counts (a node's primary key after a LEFT JOIN,
 *   where COUNT(*) would also count the missing rows).
 * @param binding The instance the measure's node is read as (a join alias for a role-playing join).
 */
export function aggregateOf(measure: Measure, expander: TemplateExpander, rowKey?: Expr, binding: Binding = OWN_NAMES): Expr {
  if (measure.ratio) {
    // Each side is the other measure's own aggregate (a column of an inner query in a per-node plan),
    // so the quotient is taken after aggregation, over the same rows as its two measures.
    const side = (name: string) => expander.expand([{ kind: 'measure', node: measure.node, name }], 0, binding);
    return { kind: 'divide', numerator: side(measure.ratio.numerator), denominator: side(measure.ratio.denominator) };
  }
  if (measure.type === 'number') return expander.expand(measure.sql ?? [], 0, binding);
  const value = measure.sql ? expander.expand(measure.sql, 0, binding) : (rowKey ?? raw('1'));
  const filtered: Expr = measure.filter ? { kind: 'case', when: expander.expand(measure.filter, 0, binding), then: value } : value;
  switch (measure.type) {
    case 'count':
      return measure.sql || measure.filter || rowKey
        ? { kind: 'aggregate', fn: 'count', distinct: false, expr: filtered }
        : { kind: 'aggregate', fn: 'count', distinct: false };
    case 'count_distinct':
      return { kind: 'aggregate', fn: 'count', distinct: true, expr: filtered };
    default:
      return { kind: 'aggregate', fn: measure.type, distinct: false, expr: filtered };
  }
}
