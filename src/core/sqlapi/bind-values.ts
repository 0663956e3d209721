// A planned SELECT with its values: constants and `$n` (text, as the wire's text format carries them)
// read as the type of the column each is compared with, as PostgreSQL reads an untyped literal:
// number → a number, boolean → true/false (t, yes, on, 1…), date and timestamp → the text, checked.
// A number or boolean constant compared with a column of another type is 42883, as in PostgreSQL
// (`operator does not exist: text = integer`). LIKE patterns become contains / startsWith / endsWith.
import { BadRequestError } from '../errors.js';
import { MAX_QUERY_LIMIT, type Filter, type SemanticQuery } from '../semantic/query.js';
import { parseTimeValue } from '../semantic/time.js';
import { likeFilter } from './like-patterns.js';
import { PG_TYPE_NAMES } from './select-expressions.js';
import type { Condition, GovernedColumn, LeafCondition, SelectPlan, ValueSlot, ValueType } from './select-plan-types.js';
import {
  INVALID_DATETIME_FORMAT,
  INVALID_PARAMETER_VALUE,
  INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
  INVALID_TEXT_REPRESENTATION,
  PROGRAM_LIMIT_EXCEEDED,
  SqlStateError,
  UNDEFINED_FUNCTION,
  UNDEFINED_PARAMETER,
} from './sql-state-error.js';

export interface GovernedSelect {
  /** The semantic query (C's POST /v1/query body), valid for semanticQuerySchema. */
  readonly query: SemanticQuery;
  /** In SELECT order; several columns may read the same field. */
  readonly columns: readonly GovernedColumn[];
  /** Whether the client wrote LIMIT (LIMIT ALL is no limit). */
  readonly limitGiven: boolean;
  /**
   * LIMIT 0, which clients send to learn a query's columns: the query (with limit 1, the least a
   * semantic query takes) is checked and described, and the answer has no rows.
   */
  readonly emptyResult: boolean;
}

type Scalar = string | number | boolean;

export function bindPlan(plan: SelectPlan, params: readonly (string | null)[]): GovernedSelect {
  const reader = new ValueReader(params);
  const filters = [...plan.where, ...plan.having].map((condition) => reader.filter(condition));
  const limit = plan.limit ? reader.limit(plan.limit) : undefined;
  const query: SemanticQuery = {
    node: plan.node,
    dimensions: [...plan.dimensions],
    measures: [...plan.measures],
    filters,
    sorts: plan.sorts.map((sort) => ({ ...sort })),
    ...(limit !== undefined ? { limit: Math.max(limit, 1) } : {}),
  };
  return { query, columns: plan.columns, limitGiven: plan.limitGiven && limit !== undefined, emptyResult: limit === 0 };
}

class ValueReader {
  constructor(private readonly params: readonly (string | null)[]) {}

  filter(condition: Condition): Filter {
    if ('and' in condition) return { and: condition.and.map((c) => this.filter(c)) };
    if ('or' in condition) return { or: condition.or.map((c) => this.filter(c)) };
    if (condition.like) return this.like(condition);
    const values = condition.values.map((slot) => this.value(slot, condition));
    const { field, operator } = condition;
    if (operator === 'isNull' || operator === 'notNull') return { field, operator };
    if (operator === 'in' || operator === 'notIn' || operator === 'between' || operator === 'notBetween') return { field, operator, value: values };
    return { field, operator, value: values[0]! };
  }

  private like(condition: LeafCondition): Filter {
    const slot = condition.values[0]!;
    if (condition.type !== 'string') {
      throw new SqlStateError(UNDEFINED_FUNCTION, `operator does not exist: ${PG_TYPE_NAMES[condition.type]} ${condition.symbol} unknown`, 'LIKE applies to string dimensions.', slot.position);
    }
    const pattern = this.value(slot, condition);
    return likeFilter(condition.field, String(pattern), condition.like!, slot.position);
  }

  /** A `$n`'s text, or the 42P02 of a parameter the statement was not given. */
  private param(slot: ValueSlot & { kind: 'param' }): string | null {
    if (slot.number > this.params.length) throw new SqlStateError(UNDEFINED_PARAMETER, `there is no parameter $${slot.number}`, undefined, slot.position);
    return this.params[slot.number - 1]!;
  }

  private value(slot: ValueSlot, condition: LeafCondition): Scalar {
    if (slot.kind === 'param') {
      const text = this.param(slot);
      if (text === null) {
        throw new SqlStateError(INVALID_PARAMETER_VALUE, `parameter $${slot.number} is NULL, and a comparison with NULL is never true`, 'Write column IS NULL for the rows without a value.', slot.position);
      }
      return readText(text, timeType(condition.type, slot), slot.position);
    }
    if (slot.literal === 'unknown') return readText(String(slot.value), timeType(condition.type, slot), slot.position);
    const literalType = slot.literal === 'boolean' ? 'boolean' : 'number';
    if (literalType !== condition.type) {
      const name = slot.literal === 'numeric' ? 'numeric' : slot.literal;
      throw new SqlStateError(
        UNDEFINED_FUNCTION,
        `operator does not exist: ${PG_TYPE_NAMES[condition.type]} ${condition.symbol} ${name}`,
        `Column "${condition.column}" is ${PG_TYPE_NAMES[condition.type]}: write the value as a quoted string, '${String(slot.value)}'.`,
        slot.position,
      );
    }
    return slot.value;
  }

  /** LIMIT's row count: undefined for a NULL parameter (no limit, as in PostgreSQL). */
  limit(slot: ValueSlot): number | undefined {
    let count: number;
    if (slot.kind === 'param') {
      const text = this.param(slot);
      if (text === null) return undefined;
      if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new SqlStateError(INVALID_TEXT_REPRESENTATION, `invalid input syntax for type bigint: "${text}"`, undefined, slot.position);
      count = Number(text);
    } else {
      count = Math.round(Number(slot.value));
    }
    if (count < 0) throw new SqlStateError(INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, 'LIMIT must not be negative', undefined, slot.position);
    if (count > MAX_QUERY_LIMIT) {
      throw new SqlStateError(PROGRAM_LIMIT_EXCEEDED, `LIMIT ${count} is above the ${MAX_QUERY_LIMIT} rows a query may return`, `Ask for at most ${MAX_QUERY_LIMIT} rows, and narrow the rest with WHERE.`, slot.position);
    }
    return count;
  }
}

/** The type a constant is read as: a time cast's (`DATE '…'`) when it meets a time column, else the column's. */
function timeType(type: ValueType, slot: ValueSlot): ValueType {
  return slot.cast && (type === 'date' || type === 'timestamp') ? slot.cast : type;
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
/** A timestamp with its offset as PostgreSQL prints it (`2025-01-31 10:00:00+02`). */
const PG_ZONED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** A text value as the type of the column it is compared with. */
export function readText(text: string, type: ValueType, position: number | undefined): Scalar {
  switch (type) {
    case 'string':
      return text;
    case 'number':
      if (!NUMERIC.test(text)) throw new SqlStateError(INVALID_TEXT_REPRESENTATION, `invalid input syntax for type numeric: "${text}"`, undefined, position);
      return Number(text);
    case 'boolean': {
      const value = readBoolean(text);
      if (value === undefined) throw new SqlStateError(INVALID_TEXT_REPRESENTATION, `invalid input syntax for type boolean: "${text}"`, undefined, position);
      return value;
    }
    case 'date':
    case 'timestamp':
      return readTime(text.trim(), type, position);
  }
}

/** PostgreSQL's boolean input: any prefix of true/yes/false/no, on, off, 1, 0, in any case. */
function readBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (word === '') return undefined;
  if ('true'.startsWith(word) || 'yes'.startsWith(word) || word === 'on' || word === '1') return true;
  if ('false'.startsWith(word) || 'no'.startsWith(word) || word === 'off' || word === 'of' || word === '0') return false;
  return undefined;
}

/**
 * A date or timestamp as the compiler reads filter values; PostgreSQL's zoned form is rewritten as ISO.
 * A date is the day the text starts with, as PostgreSQL's date input reads `2025-01-31 10:00:00`: the
 * time (and any offset) dropped, so that `created_at::date = '2025-01-31 10:00'` holds on that day.
 */
function readTime(text: string, type: 'date' | 'timestamp', position: number | undefined): string {
  const zoned = PG_ZONED.exec(text);
  const value = zoned ? `${zoned[1]}T${zoned[2]}${zoned[3]!.length === 3 ? `${zoned[3]}:00` : zoned[3]!.toUpperCase()}` : text;
  try {
    parseTimeValue(value, 'value', 'UTC');
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    throw new SqlStateError(INVALID_DATETIME_FORMAT, `invalid input syntax for type ${type === 'date' ? 'date' : 'timestamp'}: "${text}"`, 'Write dates as YYYY-MM-DD and timestamps as YYYY-MM-DD HH:MM:SS.', position);
  }
  // Every form parseTimeValue accepts starts with the day.
  return type === 'date' ? text.slice(0, 10) : value;
}
