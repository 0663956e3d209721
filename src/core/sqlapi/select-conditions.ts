// WHERE and HAVING as the filters of a semantic query: comparisons (=, <>, !=, <, <=, >, >=, also
// with the constant on the left), IN, NOT IN, BETWEEN, NOT BETWEEN, IS [NOT] NULL, IS [NOT] TRUE/FALSE,
// a boolean column alone, LIKE/ILIKE (select-values.ts reads the pattern), NOT over any of them,
// AND/OR; values are constants or `$n`.
//
// NOT is pushed down to the comparisons (De Morgan, `NOT a < 1` → `a >= 1`), which is exact in SQL's
// three-valued logic. Where a filter's operator keeps the rows whose value is NULL (the compiler's
// notEquals, notIn, notBetween and notContains do, as a person reading "not X" expects) but SQL's
// does not, a `notNull` filter on the same field is added, so that the rows are PostgreSQL's.
import type { A_Expr, Node } from 'libpg-query';
import type { FilterOperator } from '../semantic/query.js';
import { locationOf, namesOf, nodeAs, positionAt } from './pg-ast.js';
import type { Clause, ExpressionResolver, Resolved } from './select-expressions.js';
import type { Condition, LeafCondition, LikeMode, ValueSlot } from './select-plan-types.js';
import { DATATYPE_MISMATCH, FEATURE_NOT_SUPPORTED, GROUPING_ERROR, SqlStateError, UNDEFINED_PARAMETER } from './sql-state-error.js';

/** Casts that make a constant a date or a timestamp. */
const TIME_CASTS: Partial<Record<string, 'date' | 'timestamp'>> = { date: 'date', timestamp: 'timestamp', timestamptz: 'timestamp' };

/** `true` stands for a condition that always holds (`WHERE TRUE`, `1 = 1`, as generated SQL writes). */
type Built = Condition | true;

const FILTERS_HINT = 'Compare a column with constants or $n: =, <>, <, <=, >, >=, IN, BETWEEN, LIKE, IS NULL, combined with AND, OR and NOT.';

/** Each SQL comparison, its negation, and the operator of a filter. */
const COMPARISONS: Record<string, { negation: string; flipped: string; operator: FilterOperator }> = {
  '=': { negation: '<>', flipped: '=', operator: 'equals' },
  '<>': { negation: '=', flipped: '<>', operator: 'notEquals' },
  '<': { negation: '>=', flipped: '>', operator: 'lt' },
  '<=': { negation: '>', flipped: '>=', operator: 'lte' },
  '>': { negation: '<=', flipped: '<', operator: 'gt' },
  '>=': { negation: '<', flipped: '<=', operator: 'gte' },
};

export class ConditionBuilder {
  constructor(
    private readonly resolver: ExpressionResolver,
    private readonly text: string,
    /** In HAVING: whether a dimension field is grouped (only grouped dimensions may be filtered there). */
    private readonly grouped: (field: string) => boolean,
  ) {}

  /** The conditions of a WHERE or HAVING clause, all of which must hold. */
  build(node: Node | undefined, clause: 'where' | 'having'): Condition[] {
    if (node === undefined) return [];
    const built = this.condition(node, clause, false);
    if (built === true) return [];
    const conditions = 'and' in built ? [...built.and] : [built];
    // The compiler evaluates dimension filters before grouping and measure filters after: a group
    // of conditions must be all of one kind.
    if (conditions.some((condition) => placesOf(condition).size > 1)) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'an OR cannot combine conditions on measures with conditions on dimensions', 'Filter dimensions in WHERE and measures in HAVING, each condition on its own.', this.at(node));
    }
    return conditions;
  }

  private at(node: Node | undefined): number | undefined {
    return positionAt(this.text, locationOf(node));
  }

  private condition(node: Node, clause: 'where' | 'having', negate: boolean): Built {
    const bool = nodeAs(node, 'BoolExpr');
    if (bool) {
      if (bool.boolop === 'NOT_EXPR') return this.condition(bool.args![0]!, clause, !negate);
      const and = (bool.boolop === 'AND_EXPR') !== negate;
      const items = (bool.args ?? []).map((arg) => this.condition(arg, clause, negate));
      return and ? group('and', items) : group('or', items);
    }
    const nullTest = nodeAs(node, 'NullTest');
    if (nullTest) {
      const isNull = (nullTest.nulltesttype === 'IS_NULL') !== negate;
      return this.leaf(this.operand(nullTest.arg!, clause), isNull ? 'isNull' : 'notNull', [], 'IS NULL');
    }
    const test = nodeAs(node, 'BooleanTest');
    if (test) {
      const operand = this.booleanOperand(test.arg!, clause, 'IS TRUE');
      const kind = test.booltesttype ?? 'IS_TRUE';
      if (kind === 'IS_UNKNOWN' || kind === 'IS_NOT_UNKNOWN') return this.leaf(operand, (kind === 'IS_UNKNOWN') !== negate ? 'isNull' : 'notNull', [], 'IS NULL');
      // IS NOT TRUE holds for false and for NULL: exactly the compiler's notEquals.
      const positive = kind === 'IS_TRUE' || kind === 'IS_FALSE';
      const value: ValueSlot = { kind: 'literal', value: kind === 'IS_TRUE' || kind === 'IS_NOT_TRUE', literal: 'boolean' };
      return this.leaf(operand, positive !== negate ? 'equals' : 'notEquals', [value], '=');
    }
    const expr = nodeAs(node, 'A_Expr');
    if (expr) return this.expression(expr, clause, negate);
    const constant = nodeAs(node, 'A_Const');
    if (constant?.boolval !== undefined) return this.constant(constant.boolval.boolval === true, negate, node);
    if (nodeAs(node, 'ColumnRef') || nodeAs(node, 'TypeCast')) {
      // A boolean column alone: `WHERE is_active`, `WHERE NOT is_active`.
      const operand = this.booleanOperand(node, clause, clause.toUpperCase());
      return this.leaf(operand, 'equals', [{ kind: 'literal', value: !negate, literal: 'boolean' }], '=');
    }
    throw this.refused(node);
  }

  private constant(value: boolean, negate: boolean, node: Node): Built {
    if (value !== negate) return true;
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a condition that is always false is not supported on model tables', FILTERS_HINT, this.at(node));
  }

  private expression(expr: A_Expr, clause: 'where' | 'having', negate: boolean): Built {
    const name = namesOf(expr.name).at(-1) ?? '';
    const position = positionAt(this.text, expr.location);
    switch (expr.kind) {
      case 'AEXPR_OP': {
        const comparison = COMPARISONS[name];
        if (!comparison || !expr.lexpr) break;
        const [fieldNode, valueNode, op] = this.isValue(expr.lexpr) ? [expr.rexpr!, expr.lexpr, comparison.flipped] : [expr.lexpr, expr.rexpr!, name];
        if (this.isValue(fieldNode)) return this.constantComparison(expr, negate);
        const sqlOp = negate ? COMPARISONS[op]!.negation : op;
        const leaf = this.leaf(this.operand(fieldNode, clause), COMPARISONS[sqlOp]!.operator, [this.value(valueNode)], sqlOp);
        return sqlOp === '<>' ? withNotNull(leaf) : leaf;
      }
      case 'AEXPR_IN': {
        const items = nodeAs(expr.rexpr, 'List')?.items ?? [];
        const inside = (name === '=') !== negate;
        const leaf = this.leaf(this.operand(expr.lexpr!, clause), inside ? 'in' : 'notIn', items.map((item) => this.value(item)), '=');
        return inside ? leaf : withNotNull(leaf);
      }
      case 'AEXPR_BETWEEN':
      case 'AEXPR_NOT_BETWEEN': {
        const bounds = nodeAs(expr.rexpr, 'List')?.items ?? [];
        const inside = (expr.kind === 'AEXPR_BETWEEN') !== negate;
        const leaf = this.leaf(this.operand(expr.lexpr!, clause), inside ? 'between' : 'notBetween', bounds.map((item) => this.value(item)), '>=');
        return inside ? leaf : withNotNull(leaf);
      }
      case 'AEXPR_LIKE':
      case 'AEXPR_ILIKE': {
        const operand = this.operand(expr.lexpr!, clause, true);
        const folded = 'caseFold' in operand ? operand.caseFold : undefined;
        if (folded && expr.kind === 'AEXPR_ILIKE') throw this.refused(expr.lexpr!);
        const mode: LikeMode = expr.kind === 'AEXPR_ILIKE' ? 'ilike' : (folded ?? 'like');
        if (nodeAs(expr.rexpr, 'FuncCall')) {
          throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'LIKE … ESCAPE is not supported on model tables', 'Escape % and _ with a backslash, the default escape.', position);
        }
        const like = { mode, negate: name.startsWith('!') !== negate };
        return { ...this.leaf(operand, 'contains', [this.value(expr.rexpr!)], expr.kind === 'AEXPR_LIKE' ? '~~' : '~~*'), like };
      }
      case 'AEXPR_OP_ANY':
      case 'AEXPR_OP_ALL':
        throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${name} ${expr.kind === 'AEXPR_OP_ANY' ? 'ANY' : 'ALL'}(…) is not supported on model tables`, 'Write column IN (value, …).', position);
      case 'AEXPR_BETWEEN_SYM':
      case 'AEXPR_NOT_BETWEEN_SYM':
        throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'BETWEEN SYMMETRIC is not supported on model tables', 'Write BETWEEN low AND high.', position);
    }
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, `operator ${name || expr.kind} is not supported in conditions on model tables`, FILTERS_HINT, position);
  }

  /** `1 = 1` and the like: a comparison of two constants, folded when it is an equality that holds. */
  private constantComparison(expr: A_Expr, negate: boolean): Built {
    const left = nodeAs(expr.lexpr, 'A_Const');
    const right = nodeAs(expr.rexpr, 'A_Const');
    const name = namesOf(expr.name).at(-1);
    if (left && right && name === '=' && JSON.stringify({ ...left, location: 0 }) === JSON.stringify({ ...right, location: 0 })) {
      return this.constant(true, negate, { A_Expr: expr });
    }
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a comparison must name a column of the table', FILTERS_HINT, positionAt(this.text, expr.location));
  }

  /** A column side of a condition: a dimension (in HAVING, a grouped one) or, in HAVING, a measure. */
  private operand(node: Node, clause: 'where' | 'having', allowCaseFold = false): Resolved {
    const resolved = this.resolver.resolve(node, clause satisfies Clause);
    if (resolved.kind === 'dimension' && resolved.caseFold && !allowCaseFold) throw this.refused(node);
    if (clause === 'having' && resolved.kind === 'dimension' && !this.grouped(resolved.field)) {
      throw new SqlStateError(GROUPING_ERROR, `column "${resolved.column.name}" must appear in the GROUP BY clause or be used in an aggregate function`, undefined, this.at(node));
    }
    return resolved;
  }

  private booleanOperand(node: Node, clause: 'where' | 'having', construct: string): Resolved {
    const operand = this.operand(node, clause);
    if (operand.kind === 'dimension' && operand.type === 'boolean') return operand;
    const type = operand.kind === 'measure' ? 'numeric' : operand.type === 'string' ? 'text' : operand.type;
    throw new SqlStateError(DATATYPE_MISMATCH, `argument of ${construct} must be type boolean, not type ${type}`, FILTERS_HINT, this.at(node));
  }

  private leaf(operand: Resolved, operator: FilterOperator, values: ValueSlot[], symbol: string): LeafCondition {
    return {
      field: operand.field,
      column: operand.column.name,
      type: operand.kind === 'measure' ? 'number' : operand.type,
      place: operand.kind,
      operator,
      values,
      symbol,
    };
  }

  /** True for the constant side of a comparison. */
  private isValue(node: Node): boolean {
    if (nodeAs(node, 'A_Const') || nodeAs(node, 'ParamRef')) return true;
    const cast = nodeAs(node, 'TypeCast');
    if (cast) return cast.arg !== undefined && this.isValue(cast.arg);
    const expr = nodeAs(node, 'A_Expr');
    return expr?.kind === 'AEXPR_OP' && !expr.lexpr && expr.rexpr !== undefined && ['-', '+'].includes(namesOf(expr.name).at(-1) ?? '') && this.isValue(expr.rexpr);
  }

  private value(node: Node): ValueSlot {
    const position = this.at(node);
    const constant = nodeAs(node, 'A_Const');
    if (constant) {
      if (constant.sval) return { kind: 'literal', value: constant.sval.sval ?? '', literal: 'unknown', position };
      if (constant.ival) return { kind: 'literal', value: constant.ival.ival ?? 0, literal: 'integer', position };
      if (constant.fval) return { kind: 'literal', value: Number(constant.fval.fval), literal: 'numeric', position };
      if (constant.boolval) return { kind: 'literal', value: constant.boolval.boolval === true, literal: 'boolean', position };
      if (constant.isnull) {
        throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a comparison with NULL is never true', 'Write column IS NULL or column IS NOT NULL.', position);
      }
      throw this.refused(node);
    }
    const param = nodeAs(node, 'ParamRef');
    if (param) {
      const number = param.number ?? 0;
      if (number < 1) throw new SqlStateError(UNDEFINED_PARAMETER, `there is no parameter $${number}`, undefined, position);
      return { kind: 'param', number, position };
    }
    const cast = nodeAs(node, 'TypeCast');
    // A typed constant (`DATE '2025-01-01'`, `'5'::int`, `$1::date`) is read by its column's type; a
    // time cast is kept, since it changes the value: `DATE '2025-01-01 10:00'` is the day's midnight.
    if (cast?.arg && this.isValue(cast.arg)) {
      const inner = this.value(cast.arg);
      const type = TIME_CASTS[(namesOf(cast.typeName?.names).at(-1) ?? '').toLowerCase()];
      return type ? { ...inner, cast: type } : inner;
    }
    const expr = nodeAs(node, 'A_Expr');
    if (expr?.rexpr && this.isValue(node)) {
      const inner = this.value(expr.rexpr);
      if (namesOf(expr.name).at(-1) === '+') return inner;
      if (inner.kind === 'literal' && typeof inner.value === 'number') return { ...inner, value: -inner.value };
    }
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a column can only be compared with a constant or a parameter here', FILTERS_HINT, position);
  }

  private refused(node: Node): SqlStateError {
    if (nodeAs(node, 'SubLink')) return this.resolver.unsupported(node);
    return new SqlStateError(FEATURE_NOT_SUPPORTED, 'this condition is not supported on model tables', FILTERS_HINT, this.at(node));
  }
}

function group(op: 'and' | 'or', items: Built[]): Built {
  const kept = items.filter((item): item is Condition => item !== true);
  if (op === 'or' && kept.length < items.length) return true;
  if (kept.length === 0) return true;
  // Nested groups of the same operator are one group.
  const flat = kept.flatMap((item) => (op in item ? (item as Record<typeof op, Condition[]>)[op] : [item]));
  if (flat.length === 1) return flat[0]!;
  return op === 'and' ? { and: flat } : { or: flat };
}

function placesOf(condition: Condition): Set<'dimension' | 'measure'> {
  if ('and' in condition) return new Set(condition.and.flatMap((c) => [...placesOf(c)]));
  if ('or' in condition) return new Set(condition.or.flatMap((c) => [...placesOf(c)]));
  return new Set([condition.place]);
}

/** A negative filter restricted to non-null values, as SQL's negative comparisons are. */
function withNotNull(leaf: LeafCondition): Condition {
  return { and: [leaf, { ...leaf, operator: 'notNull', values: [], symbol: 'IS NOT NULL' }] };
}
