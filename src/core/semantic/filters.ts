// Filters of a semantic query → SQL conditions. Every value is a bound parameter. Dimension filters go
// to WHERE, measure filters to HAVING (or the outer query); a group mixing both is refused because no
// single clause can evaluate it.
//
// Negation keeps rows without a value. SQL's NOT would drop a row whose field is NULL (NOT of unknown
// is unknown), but a person excluding "web" expects the rows with no channel to stay. So every negated
// operator (notEquals, notContains, notInThePast…) keeps them, and `{ not: f }` is the complement of f:
// for any filter, f and `{ not: f }` split the rows in two. It is pushed down to the field filters (De
// Morgan for and/or), where each becomes its opposite operator, or "not that, or no value" for a
// comparison that has none (gt, before…): a field filter is unknown only when its field is null, since
// its values are bound parameters and never null.
import { BadRequestError } from '../errors.js';
import { param, type Expr } from '../sql/ast.js';
import type { DimensionRef, FieldResolver, MeasureRef } from './fields.js';
import {
  FILTER_OPERATORS,
  MEASURE_OPERATORS,
  OPERATOR_ALIASES,
  OPPOSITE_OPERATORS,
  TEXT_ONLY_OPERATORS,
  TIME_ONLY_OPERATORS,
  type FilterOperator,
} from './filter-operators.js';
import type { FieldFilter, Filter } from './query.js';
import { addUnits, formatWall, parsePeriod, parseTimeValue, startOf, wallClock } from './time.js';

export type ResolvedLeaf = { kind: 'leaf'; filter: FieldFilter; operator: FilterOperator; target: { dimension: DimensionRef } | { measure: MeasureRef } };

export type ResolvedFilter = ResolvedLeaf | { kind: 'group'; op: 'and' | 'or'; items: ResolvedFilter[] } | { kind: 'not'; item: ResolvedFilter };

export type FilterPlace = 'dimension' | 'measure';

export function resolveFilter(filter: Filter, resolver: FieldResolver): { resolved: ResolvedFilter; place: FilterPlace } {
  if ('not' in filter) {
    const inner = resolveFilter(filter.not, resolver);
    return { resolved: { kind: 'not', item: inner.resolved }, place: inner.place };
  }
  if ('and' in filter || 'or' in filter) {
    const op = 'and' in filter ? 'and' : 'or';
    const members = ('and' in filter ? filter.and : filter.or).map((f) => resolveFilter(f, resolver));
    const places = new Set(members.map((m) => m.place));
    if (places.size > 1) {
      throw new BadRequestError(`An "${op}" group cannot mix dimension and measure filters; split it into separate filters`, 'invalid_filter');
    }
    return { resolved: { kind: 'group', op, items: members.map((m) => m.resolved) }, place: members[0]!.place };
  }
  const operator = OPERATOR_ALIASES[filter.operator] ?? filter.operator;
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
    throw new BadRequestError(`Unknown filter operator "${filter.operator}"; operators are: ${FILTER_OPERATORS.join(', ')}`, 'unknown_operator');
  }
  const target = resolver.field(filter.field);
  const op = operator as FilterOperator;
  if ('measure' in target && !MEASURE_OPERATORS.has(op)) {
    throw new BadRequestError(`Operator ${op} does not apply to measure ${filter.field}`, 'invalid_filter');
  }
  return { resolved: { kind: 'leaf', filter, operator: op, target }, place: 'measure' in target ? 'measure' : 'dimension' };
}

/** The field filters of a resolved filter, however nested. */
export function leavesOf(filter: ResolvedFilter): ResolvedLeaf[] {
  if (filter.kind === 'leaf') return [filter];
  return filter.kind === 'not' ? leavesOf(filter.item) : filter.items.flatMap(leavesOf);
}

/** The measures the filters read, however nested. */
export function measuresIn(filters: ResolvedFilter[]): MeasureRef[] {
  return filters.flatMap(leavesOf).flatMap((leaf) => ('measure' in leaf.target ? [leaf.target.measure] : []));
}

/** The dimensions the filters read, however nested. */
export function dimensionsIn(filters: ResolvedFilter[]): DimensionRef[] {
  return filters.flatMap(leavesOf).flatMap((leaf) => ('dimension' in leaf.target ? [leaf.target.dimension] : []));
}

export interface FilterRenderContext {
  dimensionExpr(ref: DimensionRef): Expr;
  measureExpr(ref: MeasureRef): Expr;
  timezone: string;
  now: Date;
}

export function filterToExpr(filter: ResolvedFilter, ctx: FilterRenderContext, negated = false): Expr {
  switch (filter.kind) {
    case 'not':
      return filterToExpr(filter.item, ctx, !negated);
    case 'group': {
      // NOT (a AND b) keeps the rows either leaves out; NOT (a OR b) those both leave out.
      const op = negated ? (filter.op === 'and' ? 'or' : 'and') : filter.op;
      return { kind: 'logical', op, items: filter.items.map((f) => filterToExpr(f, ctx, negated)) };
    }
    case 'leaf': {
      const condition = leafToExpr(filter, filter.operator, ctx);
      if (!negated) return condition;
      const opposite = OPPOSITE_OPERATORS[filter.operator];
      if (opposite) return leafToExpr(filter, opposite, ctx);
      return orNull({ kind: 'not', expr: condition }, fieldExpr(filter, ctx));
    }
  }
}

function fieldExpr({ target }: ResolvedLeaf, ctx: FilterRenderContext): Expr {
  return 'measure' in target ? ctx.measureExpr(target.measure) : ctx.dimensionExpr(target.dimension);
}

/** One field filter with `operator` (its own, or its opposite when negated). */
function leafToExpr(leaf: ResolvedLeaf, operator: FilterOperator, ctx: FilterRenderContext): Expr {
  const { target, filter: raw } = leaf;
  if ('measure' in target) return comparison(ctx.measureExpr(target.measure), operator, raw, (v) => numberValue(v, raw.field));

  const ref = target.dimension;
  const expr = ctx.dimensionExpr(ref);
  const type = ref.part ? 'number' : ref.granularity ? 'timestamp' : ref.dimension.type;
  const isTime = type === 'date' || type === 'timestamp';
  if (TIME_ONLY_OPERATORS.has(operator) && !isTime) {
    throw new BadRequestError(`Operator ${operator} applies to date and timestamp dimensions; ${raw.field} is ${type}`, 'invalid_filter');
  }
  if (TEXT_ONLY_OPERATORS.has(operator)) {
    if (type !== 'string') throw new BadRequestError(`Operator ${operator} applies to string dimensions; ${raw.field} is ${type}`, 'invalid_filter');
    return textMatch(expr, operator, raw);
  }
  if (isTime) return timeCondition(expr, operator, raw, ctx);
  return comparison(expr, operator, raw, (v) => scalarValue(v, raw.field, type));
}

// ---- value checks ------------------------------------------------------------------------------

function values(raw: FieldFilter): unknown[] {
  if (raw.value === undefined) throw new BadRequestError(`Filter on ${raw.field} with ${raw.operator} needs a value`, 'invalid_filter_value');
  return Array.isArray(raw.value) ? raw.value : [raw.value];
}

function pair(raw: FieldFilter): [unknown, unknown] {
  const list = values(raw);
  if (list.length !== 2) throw new BadRequestError(`Filter on ${raw.field} with ${raw.operator} needs two values [from, to]`, 'invalid_filter_value');
  return [list[0], list[1]];
}

function numberValue(value: unknown, field: string): Expr {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new BadRequestError(`Filter on ${field} needs a number, got ${JSON.stringify(value)}`, 'invalid_filter_value');
  }
  return param(value);
}

function scalarValue(value: unknown, field: string, type: string): Expr {
  if (type === 'number') return numberValue(value, field);
  if (type === 'boolean') {
    if (typeof value !== 'boolean') throw new BadRequestError(`Filter on ${field} needs true or false, got ${JSON.stringify(value)}`, 'invalid_filter_value');
    return param(value);
  }
  if (typeof value === 'number') return param(String(value));
  if (typeof value !== 'string') throw new BadRequestError(`Filter on ${field} needs a string, got ${JSON.stringify(value)}`, 'invalid_filter_value');
  return param(value);
}

// ---- operators ---------------------------------------------------------------------------------

const orNull = (condition: Expr, expr: Expr): Expr => ({ kind: 'logical', op: 'or', items: [condition, { kind: 'isNull', expr, negate: false }] });
const cmp = (op: '=' | '<>' | '<' | '<=' | '>' | '>=', left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right });
const both = (items: Expr[]): Expr => ({ kind: 'logical', op: 'and', items });

function comparison(expr: Expr, operator: FilterOperator, raw: FieldFilter, value: (v: unknown) => Expr): Expr {
  switch (operator) {
    case 'isNull':
    case 'notNull':
      return { kind: 'isNull', expr, negate: operator === 'notNull' };
    case 'equals':
    case 'in': {
      const list = values(raw);
      if (list.length === 1 && list[0] === null) return { kind: 'isNull', expr, negate: false };
      return list.length === 1 ? cmp('=', expr, value(list[0])) : { kind: 'in', expr, values: list.map(value), negate: false };
    }
    case 'notEquals':
    case 'notIn': {
      const list = values(raw);
      if (list.length === 1 && list[0] === null) return { kind: 'isNull', expr, negate: true };
      // "Not X" keeps rows where the value is unknown, as a person reading the filter expects.
      const condition = list.length === 1 ? cmp('<>', expr, value(list[0])) : { kind: 'in' as const, expr, values: list.map(value), negate: true };
      return orNull(condition, expr);
    }
    case 'gt':
      return cmp('>', expr, value(single(raw)));
    case 'gte':
      return cmp('>=', expr, value(single(raw)));
    case 'lt':
      return cmp('<', expr, value(single(raw)));
    case 'lte':
      return cmp('<=', expr, value(single(raw)));
    case 'between':
    case 'notBetween': {
      const [from, to] = pair(raw);
      const inside = both([cmp('>=', expr, value(from)), cmp('<=', expr, value(to))]);
      return operator === 'between' ? inside : orNull({ kind: 'not', expr: inside }, expr);
    }
    default:
      throw new BadRequestError(`Operator ${operator} does not apply to ${raw.field}`, 'invalid_filter');
  }
}

function single(raw: FieldFilter): unknown {
  const list = values(raw);
  if (list.length !== 1) throw new BadRequestError(`Filter on ${raw.field} with ${raw.operator} takes one value`, 'invalid_filter_value');
  return list[0];
}

function textMatch(expr: Expr, operator: FilterOperator, raw: FieldFilter): Expr {
  const escape = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);
  const negate = operator === 'notContains' || operator === 'notStartsWith' || operator === 'notEndsWith';
  const shape = negate ? OPPOSITE_OPERATORS[operator] : operator;
  const patterns = values(raw).map((v) => {
    if (typeof v !== 'string') throw new BadRequestError(`Filter on ${raw.field} with ${operator} needs text, got ${JSON.stringify(v)}`, 'invalid_filter_value');
    const text = escape(v);
    return shape === 'startsWith' ? `${text}%` : shape === 'endsWith' ? `%${text}` : `%${text}%`;
  });
  const likes = patterns.map((pattern): Expr => ({ kind: 'like', expr, pattern: param(pattern), negate }));
  // Negated: none of the patterns matches, or there is no value.
  if (negate) return orNull(likes.length === 1 ? likes[0]! : both(likes), expr);
  return likes.length === 1 ? likes[0]! : { kind: 'logical', op: 'or', items: likes };
}

function timeCondition(expr: Expr, operator: FilterOperator, raw: FieldFilter, ctx: FilterRenderContext): Expr {
  const at = (wall: Date) => param(formatWall(wall), 'timestamp');
  const read = (value: unknown) => parseTimeValue(value, raw.field, ctx.timezone);
  /** The first instant after the value: the next day for a date, the value itself otherwise. */
  const endOf = (value: unknown) => {
    const { wall, dateOnly } = read(value);
    return dateOnly ? addUnits('day', wall, 1) : wall;
  };
  const range = (from: Date, to: Date) => both([cmp('>=', expr, at(from)), cmp('<', expr, at(to))]);

  switch (operator) {
    case 'before':
      return cmp('<', expr, at(read(single(raw)).wall));
    case 'onOrAfter':
      return cmp('>=', expr, at(read(single(raw)).wall));
    case 'after': {
      const { wall, dateOnly } = read(single(raw));
      return dateOnly ? cmp('>=', expr, at(addUnits('day', wall, 1))) : cmp('>', expr, at(wall));
    }
    case 'onOrBefore': {
      const { wall, dateOnly } = read(single(raw));
      return dateOnly ? cmp('<', expr, at(addUnits('day', wall, 1))) : cmp('<=', expr, at(wall));
    }
    case 'inDateRange': {
      const [from, to] = pair(raw);
      const end = read(to);
      return both([cmp('>=', expr, at(read(from).wall)), end.dateOnly ? cmp('<', expr, at(endOf(to))) : cmp('<=', expr, at(end.wall))]);
    }
    case 'inThePast': {
      // Complete units before the current one: "7 days" on a Wednesday is the seven days before today.
      const { amount, unit } = parsePeriod(single(raw), raw.field, true);
      const current = startOf(unit, wallClock(ctx.now, ctx.timezone));
      return range(addUnits(unit, current, -amount), current);
    }
    case 'inTheCurrent': {
      const { unit } = parsePeriod(single(raw), raw.field, false);
      const current = startOf(unit, wallClock(ctx.now, ctx.timezone));
      return range(current, addUnits(unit, current, 1));
    }
    case 'notInDateRange':
    case 'notInThePast':
    case 'notInTheCurrent':
      // Outside the period, or no time at all.
      return orNull({ kind: 'not', expr: timeCondition(expr, OPPOSITE_OPERATORS[operator]!, raw, ctx) }, expr);
    default:
      return comparison(expr, operator, raw, (v) => at(read(v).wall));
  }
}
