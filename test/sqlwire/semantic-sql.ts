// A condition written twice with one meaning: as SQL text, as PostgreSQL reads it (three-valued logic,
// literals read as the type of the column they meet), and as the filters of a semantic query, as C
// reads them (its negative operators keep the rows without a value). The differential test writes each
// random query both ways; the SQL interface must then answer the SQL exactly as C answers the filters.
// Kept apart from the translator on purpose: a second, independent account of what SQL means.
import type { Filter } from '../../src/core/semantic/query.js';
import type { Rng } from '../../src/core/demo/prng.js';

/** How a column's values read: the type PostgreSQL gives the column (a `::date` cast is a date). */
export type ValueType = 'text' | 'number' | 'timestamp' | 'date';

/** A column as a condition names it: its SQL text (a name, `x::date`, DATE_TRUNC(…)) and C's field id. */
export interface ConditionColumn {
  readonly sql: string;
  readonly field: string;
  readonly type: ValueType;
  /** A measure (HAVING) rather than a dimension. */
  readonly measure?: boolean;
}

/** A constant: its SQL literal, its text as a `$n` parameter, and the value C is given for it. */
export interface Value {
  readonly literal: string;
  readonly param: string;
  readonly c: string | number;
  /** The type the literal is cast to (`DATE '…'`): a parameter in its place is cast the same way. */
  readonly cast?: string;
}

export type LikeShape = 'contains' | 'startsWith' | 'endsWith' | 'equals' | 'any';
/** ILIKE; LOWER(col) LIKE / UPPER(col) LIKE (the text in that case); LIKE (only text without cased letters). */
export type LikeMode = 'ilike' | 'lower' | 'upper' | 'like';
type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Leaf =
  | { readonly kind: 'compare'; readonly column: ConditionColumn; readonly op: Comparison; readonly value: Value }
  | { readonly kind: 'in'; readonly column: ConditionColumn; readonly values: readonly Value[]; readonly not: boolean }
  | { readonly kind: 'between'; readonly column: ConditionColumn; readonly low: Value; readonly high: Value; readonly not: boolean }
  | { readonly kind: 'like'; readonly column: ConditionColumn; readonly shape: LikeShape; readonly text: string; readonly mode: LikeMode; readonly not: boolean }
  | { readonly kind: 'null'; readonly column: ConditionColumn; readonly isNull: boolean }
  /** C's own negative (notEquals, notIn, notBetween, notContains) of a positive leaf: also true without a value. */
  | { readonly kind: 'orNull'; readonly positive: Leaf & { kind: 'compare' | 'in' | 'between' | 'like' } };

export type Condition = Leaf | { readonly kind: 'and' | 'or'; readonly items: readonly Condition[] };

const NEGATION: Record<Comparison, Comparison> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const FLIPPED: Record<Comparison, Comparison> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const C_OPERATORS: Record<Exclude<Comparison, '<>'>, string> = { '=': 'equals', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };

/**
 * NOT of a condition as SQL means it: true where the condition is false, never where it is unknown.
 * Undefined where no condition says it (NOT ILIKE 'x%': C has no "does not start with").
 */
export function negate(condition: Condition): Condition | undefined {
  switch (condition.kind) {
    case 'and':
    case 'or': {
      const items = condition.items.map(negate);
      if (items.some((item) => item === undefined)) return undefined;
      return { kind: condition.kind === 'and' ? 'or' : 'and', items: items as Condition[] };
    }
    case 'compare':
      return { ...condition, op: NEGATION[condition.op] };
    case 'in':
    case 'between':
      return { ...condition, not: !condition.not };
    case 'like':
      return condition.shape === 'contains' || condition.shape === 'equals' ? { ...condition, not: !condition.not } : undefined;
    case 'null':
      return { ...condition, isNull: !condition.isNull };
    case 'orNull':
      // NOT (NOT x OR x IS NULL) is x AND x IS NOT NULL: false, not unknown, without a value.
      return { kind: 'and', items: [condition.positive, { kind: 'null', column: condition.positive.column, isNull: false }] };
  }
}

/** The semantic query's filter with the condition's meaning. */
export function toFilter(condition: Condition): Filter {
  const notNull = (column: ConditionColumn): Filter => ({ field: column.field, operator: 'notNull' });
  const values = (list: readonly Value[]) => list.map((v) => v.c);
  switch (condition.kind) {
    case 'and':
      return { and: condition.items.map(toFilter) };
    case 'or':
      return { or: condition.items.map(toFilter) };
    case 'compare': {
      const { column, op, value } = condition;
      if (op === '<>') return { and: [{ field: column.field, operator: 'notEquals', value: value.c }, notNull(column)] };
      return { field: column.field, operator: C_OPERATORS[op], value: value.c };
    }
    case 'in': {
      const filter: Filter = { field: condition.column.field, operator: condition.not ? 'notIn' : 'in', value: values(condition.values) };
      return condition.not ? { and: [filter, notNull(condition.column)] } : filter;
    }
    case 'between': {
      const filter: Filter = { field: condition.column.field, operator: condition.not ? 'notBetween' : 'between', value: [condition.low.c, condition.high.c] };
      return condition.not ? { and: [filter, notNull(condition.column)] } : filter;
    }
    case 'like': {
      const { column, shape, text } = condition;
      if (shape === 'any') return notNull(column);
      if (!condition.not) return { field: column.field, operator: shape, value: text };
      return { and: [{ field: column.field, operator: shape === 'contains' ? 'notContains' : 'notEquals', value: text }, notNull(column)] };
    }
    case 'null':
      return { field: condition.column.field, operator: condition.isNull ? 'isNull' : 'notNull' };
    case 'orNull': {
      const positive = condition.positive;
      const field = positive.column.field;
      switch (positive.kind) {
        case 'compare':
          return { field, operator: 'notEquals', value: positive.value.c };
        case 'in':
          return { field, operator: 'notIn', value: values(positive.values) };
        case 'between':
          return { field, operator: 'notBetween', value: [positive.low.c, positive.high.c] };
        case 'like':
          return { field, operator: 'notContains', value: positive.text };
      }
    }
  }
}

/** Writes conditions as SQL, each constant a literal or (when the writer takes parameters) a `$n`. */
export class SqlWriter {
  readonly params: string[] = [];

  constructor(
    private readonly rng: Rng,
    /** The share of constants sent as `$n` parameters (0 for the simple protocol). */
    private readonly paramShare: number,
  ) {}

  value(value: Value): string {
    if (this.rng() >= this.paramShare) return value.literal;
    this.params.push(value.param);
    return `$${this.params.length}${value.cast ? `::${value.cast}` : ''}`;
  }

  /** A condition as SQL text, sometimes written as NOT of its negation (which PostgreSQL reads the same). */
  condition(condition: Condition, depth = 0): string {
    const negation = depth < 3 && this.rng() < 0.15 ? negate(condition) : undefined;
    if (negation) return `NOT (${this.condition(negation, depth + 1)})`;
    if ('items' in condition) {
      return `(${condition.items.map((item) => this.condition(item, depth + 1)).join(` ${condition.kind.toUpperCase()} `)})`;
    }
    return this.leaf(condition, depth);
  }

  private leaf(leaf: Leaf, depth: number): string {
    switch (leaf.kind) {
      case 'compare': {
        const op = leaf.op === '<>' && this.rng() < 0.5 ? '!=' : leaf.op;
        // The constant on the left sometimes: `5 < x` is `x > 5`.
        if (this.rng() < 0.2) return `${this.value(leaf.value)} ${FLIPPED[leaf.op].replace('<>', op)} ${leaf.column.sql}`;
        return `${leaf.column.sql} ${op} ${this.value(leaf.value)}`;
      }
      case 'in':
        return `${leaf.column.sql} ${leaf.not ? 'NOT IN' : 'IN'} (${leaf.values.map((v) => this.value(v)).join(', ')})`;
      case 'between':
        return `${leaf.column.sql} ${leaf.not ? 'NOT BETWEEN' : 'BETWEEN'} ${this.value(leaf.low)} AND ${this.value(leaf.high)}`;
      case 'like':
        return this.like(leaf);
      case 'null':
        return `${leaf.column.sql} ${leaf.isNull ? 'IS NULL' : 'IS NOT NULL'}`;
      case 'orNull':
        return `(${this.condition(negate(leaf.positive)!, depth + 1)} OR ${leaf.positive.column.sql} IS NULL)`;
    }
  }

  private like(leaf: Leaf & { kind: 'like' }): string {
    const escaped = leaf.text.replace(/[\\%_]/g, (c) => `\\${c}`);
    const text = leaf.mode === 'lower' ? escaped.toLowerCase() : leaf.mode === 'upper' ? escaped.toUpperCase() : escaped;
    const pattern = { contains: `%${text}%`, startsWith: `${text}%`, endsWith: `%${text}`, equals: text, any: '%' }[leaf.shape];
    const operand = leaf.mode === 'lower' ? `LOWER(${leaf.column.sql})` : leaf.mode === 'upper' ? `UPPER(${leaf.column.sql})` : leaf.column.sql;
    const keyword = `${leaf.not ? 'NOT ' : ''}${leaf.mode === 'ilike' ? 'ILIKE' : 'LIKE'}`;
    return `${operand} ${keyword} ${this.value({ literal: quote(pattern), param: pattern, c: pattern })}`;
  }
}

/** A string literal (standard_conforming_strings: a backslash is itself). */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
