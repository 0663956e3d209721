// A semantic query, as surface C receives it (spec 4.3.1) and the other surfaces build it. The zod
// schema is the single source of its shape; meaning (which fields exist) is checked against the model.
import { z } from 'zod';

/** Rows of a structured query (spec 4.3.1): by default, and at most. */
export const DEFAULT_QUERY_LIMIT = 5000;
export const MAX_QUERY_LIMIT = 50_000;

// The operators live in a module of their own, free of zod, which the browser console shares.
export { FILTER_OPERATORS, OPERATOR_ALIASES, type FilterOperator } from './filter-operators.js';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export interface FieldFilter {
  field: string;
  operator: string;
  value?: z.infer<typeof scalar> | Array<z.infer<typeof scalar>>;
}
/**
 * A field filter, or a group: `and` (all hold), `or` (any holds), `not` (the rows the filter leaves
 * out, rows without a value included: for any filter f, f and `{ not: f }` split the rows in two).
 */
export type Filter = FieldFilter | { and: Filter[] } | { or: Filter[] } | { not: Filter };

// The field filter comes first: a union returns its first option that passes, and an option that
// fails first builds its issues, so the common case is tried before the groups.
export const filterSchema: z.ZodType<Filter> = z.lazy(() =>
  z.union([
    z
      .object({
        field: z.string().min(1),
        operator: z.string().min(1),
        value: z.union([scalar, z.array(scalar)]).optional(),
      })
      .strict(),
    z.object({ and: z.array(filterSchema).min(1) }).strict(),
    z.object({ or: z.array(filterSchema).min(1) }).strict(),
    z.object({ not: filterSchema }).strict(),
  ]),
);

/**
 * and/or/not groups inside each other, counting the outermost. Real questions need two or three; the
 * limit keeps a hostile body from making the compiler and every later walk recurse without bound.
 */
export const MAX_FILTER_DEPTH = 10;

/** How deep and/or/not groups nest in a filter (0 for a field filter); iterative, so any input is safe. */
export function filterGroupDepth(root: Filter): number {
  let deepest = 0;
  const stack: Array<[Filter, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [filter, depth] = stack.pop()!;
    const group = 'and' in filter ? filter.and : 'or' in filter ? filter.or : 'not' in filter ? [filter.not] : undefined;
    if (!group) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of group) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The filters of a query: at most 100, and/or/not groups at most MAX_FILTER_DEPTH deep. */
export const filtersSchema = z
  .array(filterSchema)
  .max(100)
  .superRefine((filters, ctx) => {
    filters.forEach((filter, index) => {
      if (filterGroupDepth(filter) > MAX_FILTER_DEPTH) {
        ctx.addIssue({ code: 'custom', path: [index], message: `and/or/not groups nest at most ${MAX_FILTER_DEPTH} levels deep` });
      }
    });
  });

export const sortSchema = z.object({ field: z.string().min(1), direction: z.enum(['asc', 'desc']).default('asc') }).strict();

// Comparisons over time, shares of a total and ratios of two measures: each is answered from ordinary
// queries of the node (one per period, one per total), merged after they run (see composed-plan.ts).
/** A bound of a comparison range: a date or a date-time, read as filter values are (wall time in the query's zone, or an instant). */
const timeBound = z.string().min(1).max(40);
/** `[from, to)`: half-open, as every range of the query language. */
const timeRange = z.array(timeBound).length(2, 'a range is [from, to]');

export const COMPARE_TO = ['previous_period', 'previous_year'] as const;

export const compareSchema = z
  .object({
    dimension: z.string().min(1).describe('the date or timestamp dimension the periods are ranges of, without a granularity'),
    range: timeRange.describe('the current period, [from, to)'),
    to: z
      .union([z.enum(COMPARE_TO), z.object({ range: timeRange.describe('the comparison period, [from, to)') }).strict()])
      .default('previous_period')
      .describe('what the current period is compared with'),
  })
  .strict();

export const shareSchema = z
  .object({
    measure: z.string().min(1),
    of: z.array(z.string().min(1)).max(50).default([]).describe("the query's dimensions the total keeps: [] for the total of every row"),
  })
  .strict();

export const perSchema = z.object({ measure: z.string().min(1), by: z.string().min(1) }).strict();

export type CompareSpec = z.output<typeof compareSchema>;
export type ShareSpec = z.output<typeof shareSchema>;
export type PerSpec = z.output<typeof perSchema>;

export const semanticQuerySchema = z
  .object({
    node: z.string().min(1),
    dimensions: z.array(z.string().min(1)).max(50).default([]),
    measures: z.array(z.string().min(1)).max(50).default([]),
    filters: filtersSchema.default([]),
    sorts: z.array(sortSchema).max(20).default([]),
    limit: z.number().int().min(1).optional(),
    timezone: z.string().min(1).max(64).optional(),
    compare: compareSchema.optional(),
    shares: z.array(shareSchema).max(50).optional(),
    per: z.array(perSchema).max(50).optional(),
  })
  .strict();

export type SemanticQuery = z.output<typeof semanticQuerySchema>;
export type SemanticQueryInput = z.input<typeof semanticQuerySchema>;
