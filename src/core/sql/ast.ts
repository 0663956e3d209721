// The SQL tree the semantic compiler builds and a dialect renders. Small and closed: only what the
// compiler needs. Values are always `param` nodes (bound parameters), never text; `raw` holds only SQL
// written by modellers in CML (trusted, like a view definition), never user input.
import type { Granularity } from '../semantic/model.js';

export const DATE_PARTS = [
  'hour_of_day',
  'day_of_week',
  'day_of_month',
  'day_of_year',
  'week_of_year',
  'month_of_year',
  'quarter_of_year',
] as const;
export type DatePart = (typeof DATE_PARTS)[number];

export type Expr =
  | { readonly kind: 'raw'; readonly sql: string }
  | { readonly kind: 'seq'; readonly items: readonly Expr[] } // concatenation, e.g. raw text around references
  | { readonly kind: 'column'; readonly table?: string; readonly name: string }
  | { readonly kind: 'param'; readonly value: unknown; readonly cast?: 'timestamp' }
  | { readonly kind: 'binary'; readonly op: '=' | '<>' | '<' | '<=' | '>' | '>='; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'logical'; readonly op: 'and' | 'or'; readonly items: readonly Expr[] }
  | { readonly kind: 'not'; readonly expr: Expr }
  | { readonly kind: 'in'; readonly expr: Expr; readonly values: readonly Expr[]; readonly negate: boolean }
  | { readonly kind: 'isNull'; readonly expr: Expr; readonly negate: boolean }
  | { readonly kind: 'like'; readonly expr: Expr; readonly pattern: Expr; readonly negate: boolean } // case-insensitive, '!' escapes
  | { readonly kind: 'nullSafeEq'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'aggregate'; readonly fn: 'count' | 'sum' | 'avg' | 'min' | 'max'; readonly distinct: boolean; readonly expr?: Expr }
  | { readonly kind: 'case'; readonly when: Expr; readonly then: Expr } // CASE WHEN … THEN … END (else null)
  // numerator / denominator as a floating-point quotient on every engine (never integer division), NULL
  // when the denominator is 0 or NULL (never a division-by-zero error)
  | { readonly kind: 'divide'; readonly numerator: Expr; readonly denominator: Expr }
  | { readonly kind: 'toTimeZone'; readonly expr: Expr; readonly timezone: string } // UTC wall time → wall time in `timezone`
  | { readonly kind: 'truncate'; readonly granularity: Granularity; readonly expr: Expr } // result: a timestamp
  | { readonly kind: 'datePart'; readonly part: DatePart; readonly expr: Expr } // result: an integer
  | { readonly kind: 'paren'; readonly expr: Expr }
  | { readonly kind: 'literal'; readonly value: 0 | 1 | 'false' | 'true' };

export interface SelectItem {
  readonly expr: Expr;
  readonly alias: string;
}

export type FromItem =
  | { readonly kind: 'table'; readonly name: string; readonly alias: string } // `name` is modeller-written (schema.table)
  | { readonly kind: 'sql'; readonly sql: string; readonly alias: string } // a node defined by SQL
  | { readonly kind: 'select'; readonly select: Select; readonly alias: string }
  | { readonly kind: 'cte'; readonly name: string; readonly alias: string };

export interface JoinItem {
  readonly type: 'left' | 'inner';
  readonly from: FromItem;
  readonly on: Expr;
}

export interface OrderItem {
  readonly expr: Expr;
  readonly direction: 'asc' | 'desc';
}

export interface Select {
  readonly with?: ReadonlyArray<{ readonly name: string; readonly select: Select | Union }>;
  readonly distinct?: boolean;
  readonly items: readonly SelectItem[];
  readonly from: FromItem;
  readonly joins?: readonly JoinItem[];
  readonly where?: Expr;
  /**
   * 1-based positions of the select items grouped by. Positions, not expressions: an expression with a
   * bound parameter (a time zone) would get a new placeholder in GROUP BY, which engines then refuse
   * to match with the selected one.
   */
  readonly groupBy?: readonly number[];
  readonly having?: Expr;
  readonly orderBy?: readonly OrderItem[];
  readonly limit?: number | undefined;
}

/** UNION (distinct) of selects with the same columns. */
export interface Union {
  readonly kind: 'union';
  readonly selects: readonly Select[];
}

export const raw = (sql: string): Expr => ({ kind: 'raw', sql });
export const col = (table: string | undefined, name: string): Expr => (table ? { kind: 'column', table, name } : { kind: 'column', name });
export const param = (value: unknown, cast?: 'timestamp'): Expr => (cast ? { kind: 'param', value, cast } : { kind: 'param', value });
export const and = (items: Expr[]): Expr | undefined =>
  items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'logical', op: 'and', items };
