// Readable names for the filter operators of a semantic query (the compiler's own list, shared with it),
// and the "not" of a filter: an operator with a negated form becomes that form, any other filter is
// wrapped in a `not` group. Either way the server keeps the rows without a value (docs/queries.md,
// "Negation and missing values"), which the sentence under a negated filter says.
import { OPPOSITE_OPERATORS, type FilterOperator } from '../../../src/core/semantic/filter-operators.js';

/** What each operator says, read after the field's name ("channel does not start with w"). */
export const OPERATOR_LABELS: Readonly<Record<FilterOperator, string>> = {
  equals: 'is',
  notEquals: 'is not',
  in: 'is one of',
  notIn: 'is none of',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  notStartsWith: 'does not start with',
  endsWith: 'ends with',
  notEndsWith: 'does not end with',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  between: 'is between',
  notBetween: 'is not between',
  isNull: 'is empty',
  notNull: 'is not empty',
  before: 'is before',
  after: 'is after',
  onOrBefore: 'is on or before',
  onOrAfter: 'is on or after',
  inDateRange: 'is in the date range',
  notInDateRange: 'is not in the date range',
  inThePast: 'is in the past',
  notInThePast: 'is not in the past',
  inTheCurrent: 'is in the current',
  notInTheCurrent: 'is not in the current',
};

/** Operators that keep the rows without a value: the negated forms (isNull keeps them by meaning). */
const NEGATED: ReadonlySet<FilterOperator> = new Set(['notEquals', 'notIn', 'notContains', 'notStartsWith', 'notEndsWith', 'notBetween', 'notInDateRange', 'notInThePast', 'notInTheCurrent']);

export interface FieldFilter {
  field: string;
  operator: FilterOperator;
  value?: unknown;
}
export type QueryFilter = FieldFilter | { not: FieldFilter };

/** The filter as the query takes it: negated through the opposite operator when there is one, else through a `not` group. */
export function negatable(filter: FieldFilter, not: boolean): QueryFilter {
  if (!not) return filter;
  const opposite = OPPOSITE_OPERATORS[filter.operator];
  return opposite ? { ...filter, operator: opposite } : { not: filter };
}

/** Whether the filter as sent keeps the rows where its field has no value (a negation does). */
export function keepsMissing(filter: QueryFilter): boolean {
  if ('not' in filter) return filter.not.operator !== 'isNull';
  return NEGATED.has(filter.operator);
}

/** The filter in words, as the server applies it: "channel does not start with w". */
export function describeFilter(filter: QueryFilter, fieldLabel: string, valueText: string): string {
  const inner = 'not' in filter ? filter.not : filter;
  const said = `${fieldLabel} ${OPERATOR_LABELS[inner.operator]}${valueText ? ` ${valueText}` : ''}`;
  return 'not' in filter ? `not (${said})` : said;
}
