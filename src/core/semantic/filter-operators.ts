// The filter operators of a semantic query and which fields each applies to: the one list the compiler
// checks filters against and the console offers in Explore, so the two cannot drift apart. Plain data,
// free of zod, so the browser console bundles it as it is.

export const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'in',
  'notIn',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'notBetween',
  'isNull',
  'notNull',
  'before',
  'after',
  'onOrBefore',
  'onOrAfter',
  'inDateRange',
  'notInDateRange',
  'inThePast',
  'notInThePast',
  'inTheCurrent',
  'notInTheCurrent',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Symbols accepted as aliases of the named operators. */
export const OPERATOR_ALIASES: Readonly<Record<string, FilterOperator>> = {
  '=': 'equals',
  '!=': 'notEquals',
  '<>': 'notEquals',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
};

/** Operators a measure filter (HAVING) takes: comparisons of its number. */
export const MEASURE_OPERATORS: ReadonlySet<FilterOperator> = new Set(['equals', 'notEquals', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'between', 'notBetween', 'isNull', 'notNull']);
/** Operators only a date or timestamp dimension takes. */
export const TIME_ONLY_OPERATORS: ReadonlySet<FilterOperator> = new Set([
  'before',
  'after',
  'onOrBefore',
  'onOrAfter',
  'inDateRange',
  'notInDateRange',
  'inThePast',
  'notInThePast',
  'inTheCurrent',
  'notInTheCurrent',
]);
/** Operators only a string dimension takes. */
export const TEXT_ONLY_OPERATORS: ReadonlySet<FilterOperator> = new Set(['contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith']);

/**
 * Operators that are each other's negation: on any rows, one keeps exactly the rows the other leaves
 * out, rows without a value included (a negated operator keeps them). `{"not": …}` of a filter with
 * one of these is that filter with the other; the comparisons without one (gt, before, …) are negated
 * as "not that, or no value" (src/core/semantic/filters.ts).
 */
export const OPPOSITE_OPERATORS: Readonly<Partial<Record<FilterOperator, FilterOperator>>> = Object.fromEntries(
  (
    [
      ['equals', 'notEquals'],
      ['in', 'notIn'],
      ['contains', 'notContains'],
      ['startsWith', 'notStartsWith'],
      ['endsWith', 'notEndsWith'],
      ['between', 'notBetween'],
      ['isNull', 'notNull'],
      ['inDateRange', 'notInDateRange'],
      ['inThePast', 'notInThePast'],
      ['inTheCurrent', 'notInTheCurrent'],
    ] as const
  ).flatMap(([positive, negative]) => [
    [positive, negative],
    [negative, positive],
  ]),
);

/** A field as a filter sees it: a measure, or a dimension of a type (string, number, boolean, date, timestamp). */
export type FilterTarget = { kind: 'measure' } | { kind: 'dimension'; type: string };

/** The operators a filter on this field may use, in the order of FILTER_OPERATORS. */
export function operatorsFor(target: FilterTarget): FilterOperator[] {
  if (target.kind === 'measure') return FILTER_OPERATORS.filter((op) => MEASURE_OPERATORS.has(op));
  const isTime = target.type === 'date' || target.type === 'timestamp';
  return FILTER_OPERATORS.filter((op) => (isTime || !TIME_ONLY_OPERATORS.has(op)) && (target.type === 'string' || !TEXT_ONLY_OPERATORS.has(op)));
}

/**
 * The value an operator takes: none, one, a list (one or more), two (from, to), a period such as
 * "3 months", or a unit such as "month".
 */
export const OPERATOR_VALUES: Readonly<Record<FilterOperator, 'none' | 'one' | 'list' | 'two' | 'period' | 'unit'>> = {
  equals: 'list',
  notEquals: 'list',
  in: 'list',
  notIn: 'list',
  contains: 'list',
  notContains: 'list',
  startsWith: 'list',
  notStartsWith: 'list',
  endsWith: 'list',
  notEndsWith: 'list',
  gt: 'one',
  gte: 'one',
  lt: 'one',
  lte: 'one',
  between: 'two',
  notBetween: 'two',
  isNull: 'none',
  notNull: 'none',
  before: 'one',
  after: 'one',
  onOrBefore: 'one',
  onOrAfter: 'one',
  inDateRange: 'two',
  notInDateRange: 'two',
  inThePast: 'period',
  notInThePast: 'period',
  inTheCurrent: 'unit',
  notInTheCurrent: 'unit',
};
