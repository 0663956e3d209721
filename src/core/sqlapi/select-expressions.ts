// The expressions a governed SELECT may use, resolved to the fields of a semantic query:
// - a column: a dimension (`status`, `"customers.region"`); a measure only through an aggregate;
// - MEASURE(m), or the aggregate that matches the measure's type: SUM for sum, COUNT for count,
//   COUNT(DISTINCT m) for count_distinct, AVG, MIN, MAX; a `number` measure (computed from others)
//   only through MEASURE;
// - DATE_TRUNC('grain', t) → `t.grain`, and `t::date` / CAST(t AS date) → `t.day`, for date and
//   timestamp dimensions (grains as GRANULARITIES names them, plural accepted as PostgreSQL does);
// - casts that change nothing (`SUM(m)::numeric`, `status::text`, `COUNT(m)::int`), and LOWER()/UPPER()
//   of a string dimension, which only a LIKE takes (select-conditions.ts). A cast that would change
//   values in PostgreSQL (`SUM(m)::int` rounds, `status::varchar(2)` cuts, `x::timestamp(0)` rounds the
//   seconds) is refused: the model's values cannot be answered as if it had been applied.
// Anything else computes over the result (arithmetic, CASE, window functions): an outer query over
// this one does that (governed-parts.ts).
import type { FuncCall, Node, TypeCast } from 'libpg-query';
import { GRANULARITIES, type DimensionType, type Granularity, type MeasureType } from '../semantic/model.js';
import { kindOf, locationOf, namesOf, nodeAs, positionAt, quoteIdentifier } from './pg-ast.js';
import type { TableScope } from './select-scope.js';
import { FEATURE_NOT_SUPPORTED, GROUPING_ERROR, INVALID_PARAMETER_VALUE, SqlStateError, UNDEFINED_FUNCTION } from './sql-state-error.js';
import type { SqlColumn } from './tables.js';

/** Where an expression stands: what it may be depends on it (no aggregate in WHERE or GROUP BY). */
export type Clause = 'select' | 'where' | 'group' | 'having' | 'order';

export type Resolved =
  | { readonly kind: 'dimension'; readonly column: SqlColumn; readonly field: string; readonly type: DimensionType; readonly caseFold?: 'lower' | 'upper' }
  | { readonly kind: 'measure'; readonly column: SqlColumn; readonly field: string };

export const SELECT_FORMS_HINT =
  "Select dimensions, MEASURE(m) or the measure's own aggregate (SUM, COUNT, COUNT(DISTINCT), AVG, MIN, MAX), DATE_TRUNC('month', t) or t::date; for arithmetic, CASE or window functions over the result, select from it: SELECT a / b FROM (SELECT …) AS t.";

const AGGREGATES = new Set(['measure', 'sum', 'count', 'avg', 'min', 'max']);

/** The aggregate that computes a measure of each type (a `number` measure has none). */
const AGGREGATE_OF: Record<MeasureType, string | undefined> = {
  sum: 'SUM(%)',
  count: 'COUNT(%)',
  count_distinct: 'COUNT(DISTINCT %)',
  avg: 'AVG(%)',
  min: 'MIN(%)',
  max: 'MAX(%)',
  number: undefined,
};

/** `MEASURE(x) or SUM(x)`: the ways to read a measure, for hints. */
export function measureForms(column: SqlColumn): string {
  const name = quoteIdentifier(column.name);
  const aggregate = AGGREGATE_OF[column.measureType ?? 'number'];
  return aggregate === undefined ? `MEASURE(${name})` : `MEASURE(${name}) or ${aggregate.replace('%', name)}`;
}

function matches(fn: string, distinct: boolean, type: MeasureType): boolean {
  if (fn === 'measure') return !distinct;
  if (fn === 'count') return distinct ? type === 'count_distinct' : type === 'count';
  return !distinct && fn === type;
}

const CLAUSE_NAMES: Record<Clause, string> = { select: 'SELECT', where: 'WHERE', group: 'GROUP BY', having: 'HAVING', order: 'ORDER BY' };
const TIME_TYPES = new Set<DimensionType>(['date', 'timestamp']);
/** date_trunc units PostgreSQL knows that a semantic query has no grain for. */
const OTHER_UNITS = new Set(['millennium', 'millenniums', 'millennia', 'century', 'centuries', 'decade', 'decades', 'millisecond', 'milliseconds', 'microsecond', 'microseconds']);
const INTEGER_TYPES = new Set(['int2', 'int4', 'int8', 'integer', 'bigint', 'smallint']);
/** Number types that hold any value of a model's numbers (JSON doubles) unchanged. */
const EXACT_NUMBER_TYPES = new Set(['numeric', 'decimal', 'float8', 'double precision']);
const NUMERIC_TYPES = new Set([...INTEGER_TYPES, ...EXACT_NUMBER_TYPES, 'float4', 'real']);
/** Text types without a length (`"char"` keeps one byte and `name` 63, so neither is here). */
const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar']);

export class ExpressionResolver {
  constructor(private readonly scope: TableScope) {}

  /** The 1-based position in the statement of a parser location (a byte offset). */
  private at(location: number | undefined): number | undefined {
    return positionAt(this.scope.text, location);
  }

  resolve(node: Node, clause: Clause): Resolved {
    const ref = nodeAs(node, 'ColumnRef');
    if (ref) {
      if (namesOf(ref.fields).includes(undefined)) {
        throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'SELECT * is not supported on model tables', 'Name the columns: dimensions, and measures through MEASURE(name).', this.at(locationOf(node)));
      }
      const column = this.scope.column(ref);
      if (column.kind === 'dimension') return { kind: 'dimension', column, field: column.field, type: column.type as DimensionType };
      throw this.bareMeasure(column, clause, this.at(locationOf(node)));
    }
    const call = nodeAs(node, 'FuncCall');
    if (call) return this.call(call, clause);
    const cast = nodeAs(node, 'TypeCast');
    if (cast) return this.cast(cast, clause);
    throw this.unsupported(node);
  }

  private bareMeasure(column: SqlColumn, clause: Clause, position: number | undefined): SqlStateError {
    if (clause === 'where' || clause === 'group') {
      const hint = clause === 'where' ? `Filter on measures in HAVING: HAVING ${measureForms(column).split(' or ').at(-1)} > …` : 'GROUP BY dimensions only.';
      return new SqlStateError(GROUPING_ERROR, `measure "${column.name}" is an aggregate: aggregate functions are not allowed in ${CLAUSE_NAMES[clause]}`, hint, position);
    }
    return new SqlStateError(GROUPING_ERROR, `measure "${column.name}" must be used in an aggregate function`, `Write ${measureForms(column)}.`, position);
  }

  private call(call: FuncCall, clause: Clause): Resolved {
    const names = namesOf(call.funcname);
    const fn = (names.at(-1) ?? '').toLowerCase();
    const position = this.at(call.location);
    if (call.over) throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'window functions are not supported on model tables', SELECT_FORMS_HINT, position);
    if (names.length > 1 && names[0] !== 'pg_catalog') throw this.unknownFunction(names.join('.'), position);
    if (AGGREGATES.has(fn)) return this.aggregate(call, fn, clause, position);
    if (fn === 'date_trunc') return this.dateTrunc(call, clause, position);
    if (fn === 'lower' || fn === 'upper') {
      const arg = this.resolveOne(call, clause, fn);
      if (arg.kind !== 'dimension' || arg.type !== 'string' || arg.caseFold) throw this.noSuchFunction(fn, arg, position);
      return { ...arg, caseFold: fn };
    }
    throw this.unknownFunction(fn, position);
  }

  private resolveOne(call: FuncCall, clause: Clause, fn: string): Resolved {
    if (call.args?.length !== 1) throw this.unknownFunction(fn, this.at(call.location));
    return this.resolve(call.args[0]!, clause);
  }

  private aggregate(call: FuncCall, fn: string, clause: Clause, position: number | undefined): Resolved {
    if (clause === 'where' || clause === 'group') {
      const hint = clause === 'where' ? 'Filter on measures in HAVING.' : 'GROUP BY dimensions only.';
      throw new SqlStateError(GROUPING_ERROR, `aggregate functions are not allowed in ${CLAUSE_NAMES[clause]}`, hint, position);
    }
    const label = fn === 'measure' ? 'MEASURE' : fn.toUpperCase();
    if (call.agg_star) {
      const counts = this.scope.table.columns.filter((c) => c.measureType === 'count' && !c.name.includes('.')).map((c) => `COUNT(${quoteIdentifier(c.name)})`);
      const hint = counts.length ? `Count with a count measure: ${counts.slice(0, 3).join(', ')}.` : 'Count with a count measure of the model: COUNT(measure) or MEASURE(measure).';
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${label}(*) is not supported on model tables`, hint, position);
    }
    if (call.agg_filter) throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'FILTER on an aggregate is not supported', 'Filter rows with WHERE, or use a measure whose definition carries the filter.', position);
    if (call.agg_order?.length || call.agg_within_group) throw new SqlStateError(FEATURE_NOT_SUPPORTED, `ordered ${label}() is not supported`, SELECT_FORMS_HINT, position);
    if (call.args?.length !== 1) throw this.unknownFunction(fn, position);
    const arg = call.args[0]!;
    const ref = nodeAs(arg, 'ColumnRef');
    if (!ref) {
      if (nodeAs(arg, 'FuncCall') && AGGREGATES.has((namesOf(nodeAs(arg, 'FuncCall')!.funcname).at(-1) ?? '').toLowerCase())) {
        throw new SqlStateError(GROUPING_ERROR, 'aggregate function calls cannot be nested', undefined, this.at(locationOf(arg)));
      }
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${label}() of an expression is not supported`, `${label}() takes a measure column: ${label}(name).`, position);
    }
    const column = this.scope.column(ref);
    const name = quoteIdentifier(column.name);
    if (column.kind === 'dimension') {
      throw new SqlStateError(
        GROUPING_ERROR,
        `${label}() applies to measures; column "${column.name}" is a dimension`,
        `Select ${name} and GROUP BY it to split the measures by it; read measures with MEASURE(name).`,
        position,
      );
    }
    const type = column.measureType ?? 'number';
    if (!matches(fn, call.agg_distinct === true, type)) {
      const written = `${label}(${call.agg_distinct ? 'DISTINCT ' : ''}${name})`;
      const reason = type === 'number' ? 'it is computed from other measures' : `it is a ${type} measure`;
      throw new SqlStateError(GROUPING_ERROR, `${written} does not compute measure "${column.name}": ${reason}`, `Write ${measureForms(column)}.`, position);
    }
    return { kind: 'measure', column, field: column.field };
  }

  private dateTrunc(call: FuncCall, clause: Clause, position: number | undefined): Resolved {
    const [unitNode, valueNode] = call.args ?? [];
    const unit = nodeAs(unitNode, 'A_Const')?.sval?.sval;
    if (call.args?.length !== 2 || unit === undefined) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'DATE_TRUNC takes a unit written as a string and a column here', "Write DATE_TRUNC('month', column).", position);
    }
    const value = this.resolve(valueNode!, clause);
    if (value.kind !== 'dimension' || !TIME_TYPES.has(value.type)) throw this.noSuchFunction('date_trunc', value, position, 'unknown, ');
    if (value.field !== value.column.field || value.caseFold) throw this.unsupported(valueNode!);
    return { kind: 'dimension', column: value.column, field: `${value.column.field}.${granularity(unit, this.at(locationOf(unitNode)))}`, type: 'timestamp' };
  }

  private cast(cast: TypeCast, clause: Clause): Resolved {
    const type = (namesOf(cast.typeName?.names).at(-1) ?? '').toLowerCase();
    const value = this.resolve(cast.arg!, clause);
    const position = this.at(cast.location);
    if (cast.typeName?.arrayBounds?.length) throw this.unsupportedCast(type, position);
    // A length, precision or scale (`varchar(2)`, `numeric(10,1)`, `timestamp(0)`; `char` is char(1)).
    if (cast.typeName?.typmods?.length) throw this.changingCast(type, position);
    if (value.kind === 'measure') {
      const integral = value.column.measureType === 'count' || value.column.measureType === 'count_distinct';
      if (EXACT_NUMBER_TYPES.has(type) || (integral && INTEGER_TYPES.has(type))) return value;
      throw NUMERIC_TYPES.has(type) ? this.changingCast(type, position) : this.unsupportedCast(type, position);
    }
    if (value.type === 'number' && NUMERIC_TYPES.has(type) && !EXACT_NUMBER_TYPES.has(type)) throw this.changingCast(type, position);
    if (TIME_TYPES.has(value.type) && !value.caseFold) {
      if (type === 'timestamp' || type === 'timestamptz') return value.type === 'date' && value.field === value.column.field ? { ...value, type: 'timestamp' } : value;
      if (type === 'date') {
        if (value.type === 'date' && value.field === value.column.field) return value;
        return { ...value, field: dayOrCoarser(value.field, value.column.field), type: 'date' };
      }
    }
    if ((value.type === 'string' && TEXT_TYPES.has(type)) || (value.type === 'number' && NUMERIC_TYPES.has(type)) || (value.type === 'boolean' && (type === 'bool' || type === 'boolean'))) return value;
    throw this.unsupportedCast(type, position);
  }

  private unsupportedCast(type: string, position: number | undefined): SqlStateError {
    return new SqlStateError(FEATURE_NOT_SUPPORTED, `this cast to ${type} is not supported on model tables`, SELECT_FORMS_HINT, position);
  }

  /** A cast PostgreSQL would answer with other values (rounded, cut): refused rather than ignored. */
  private changingCast(type: string, position: number | undefined): SqlStateError {
    return new SqlStateError(
      FEATURE_NOT_SUPPORTED,
      `this cast to ${type} is not supported on model tables: it would round or cut the values`,
      'Read the column as it is, or cast it to numeric (numbers) or text (strings), without a length or precision.',
      position,
    );
  }

  private noSuchFunction(fn: string, arg: Resolved, position: number | undefined, before = ''): SqlStateError {
    const type = arg.kind === 'measure' ? 'numeric' : PG_TYPE_NAMES[arg.type];
    return new SqlStateError(UNDEFINED_FUNCTION, `function ${fn}(${before}${type}) does not exist`, fn === 'date_trunc' ? 'DATE_TRUNC applies to date and timestamp dimensions.' : `${fn.toUpperCase()}() applies to string dimensions, in a LIKE.`, position);
  }

  private unknownFunction(fn: string, position: number | undefined): SqlStateError {
    return new SqlStateError(FEATURE_NOT_SUPPORTED, `function ${fn}() is not supported on model tables`, SELECT_FORMS_HINT, position);
  }

  unsupported(node: Node): SqlStateError {
    const kind = kindOf(node);
    const position = this.at(locationOf(node));
    if (kind === 'SubLink') return new SqlStateError(FEATURE_NOT_SUPPORTED, 'subqueries are not supported on model tables', SELECT_FORMS_HINT, position);
    if (kind === 'ParamRef') return new SqlStateError(FEATURE_NOT_SUPPORTED, 'a parameter can only be compared with a column here', SELECT_FORMS_HINT, position);
    return new SqlStateError(FEATURE_NOT_SUPPORTED, 'this expression is not supported on model tables', SELECT_FORMS_HINT, position);
  }
}

/** How PostgreSQL names the type of a column of each dimension type, in its messages. */
export const PG_TYPE_NAMES: Record<DimensionType, string> = {
  string: 'text',
  number: 'numeric',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp without time zone',
};

function granularity(unit: string, position: number | undefined): Granularity {
  const lower = unit.toLowerCase();
  const singular = lower.endsWith('s') ? lower.slice(0, -1) : lower;
  const grain = [lower, singular].find((u): u is Granularity => (GRANULARITIES as readonly string[]).includes(u));
  if (grain) return grain;
  const hint = `Truncate to one of: ${GRANULARITIES.join(', ')}.`;
  if (OTHER_UNITS.has(lower)) throw new SqlStateError(FEATURE_NOT_SUPPORTED, `date_trunc unit "${unit}" is not supported on model tables`, hint, position);
  throw new SqlStateError(INVALID_PARAMETER_VALUE, `unit "${unit}" not recognized for type timestamp without time zone`, hint, position);
}

/** A time field cast to date: its grain when it is a day or coarser, else the day. */
function dayOrCoarser(field: string, columnField: string): string {
  const grain = field === columnField ? undefined : (field.slice(columnField.length + 1) as Granularity);
  const coarse = grain !== undefined && GRANULARITIES.indexOf(grain) >= GRANULARITIES.indexOf('day');
  return coarse ? field : `${columnField}.day`;
}

/** PostgreSQL's name for a SELECT item without an alias (its FigureColname), `?column?` when it has none. */
export function defaultColumnName(node: Node): string {
  const ref = nodeAs(node, 'ColumnRef');
  if (ref) return namesOf(ref.fields).at(-1) ?? '?column?';
  const call = nodeAs(node, 'FuncCall');
  if (call) {
    const fn = (namesOf(call.funcname).at(-1) ?? '?column?').toLowerCase();
    // MEASURE(x) is the interface's own: named after its measure, which is what the column holds.
    if (fn === 'measure' && call.args?.length === 1) return defaultColumnName(call.args[0]!);
    return fn;
  }
  const cast = nodeAs(node, 'TypeCast');
  if (cast) {
    const inner = cast.arg ? defaultColumnName(cast.arg) : '?column?';
    return inner !== '?column?' ? inner : (namesOf(cast.typeName?.names).at(-1) ?? '?column?');
  }
  return '?column?';
}
