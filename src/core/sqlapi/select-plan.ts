// A governed SELECT → the plan of a semantic query (values still as written, see bind-values.ts):
//   SELECT dims…, MEASURE(m)… FROM table [WHERE …] GROUP BY dims [HAVING …] [ORDER BY …] [LIMIT n]
// Columns are named as the client sees them: the alias, else PostgreSQL's default name (the column's
// name for a column or a cast of it, the function's name for an aggregate or DATE_TRUNC), except
// MEASURE(m), named after its measure (PostgreSQL would name every one of them `measure`).
// Grouping follows PostgreSQL: with a measure, a GROUP BY or a HAVING, every selected dimension is
// grouped (by expression, output name or position), else 42803; without any, SELECT DISTINCT dims is a
// grouping too, and plain SELECT dims (one row per row of the table) is not something a model answers.
// What a semantic query cannot express is 0A000 with a hint saying what is accepted; in particular
// arithmetic, CASE, window functions and ORDER BY an expression belong to an outer query over this one
// (SELECT … FROM (SELECT …) AS t), which runs over this one's rows (see governed-parts.ts).
import type { Node, ResTarget, SelectStmt, SortBy } from 'libpg-query';
import { MAX_QUERY_LIMIT } from '../semantic/query.js';
import type { GovernedStatement } from './classify.js';
import { locationOf, namesOf, nodeAs, positionAt } from './pg-ast.js';
import { ConditionBuilder } from './select-conditions.js';
import { defaultColumnName, ExpressionResolver, SELECT_FORMS_HINT, type Clause, type Resolved } from './select-expressions.js';
import type { Condition, GovernedColumn, ParamType, SelectPlan, ValueSlot, ValueType } from './select-plan-types.js';
import { TableScope } from './select-scope.js';
import { AMBIGUOUS_COLUMN, FEATURE_NOT_SUPPORTED, GROUPING_ERROR, INVALID_COLUMN_REFERENCE, SqlStateError } from './sql-state-error.js';
import type { SqlTable } from './tables.js';

interface SelectItem {
  readonly node: Node;
  readonly name: string;
  readonly resolved: Resolved;
  readonly position?: number;
}

const SHAPE_HINT = 'A query over a model table is SELECT dimensions, MEASURE(m) … FROM table [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT n].';

export function planSelect(statement: GovernedStatement, tables: readonly SqlTable[]): SelectPlan {
  const { ast: select, text } = statement;
  refuseShapes(select, text);
  const scope = TableScope.of(select, tables, text);
  const resolver = new ExpressionResolver(scope);
  const items = (select.targetList ?? []).map((target) => selectItem(nodeAs(target, 'ResTarget')!, resolver, text));
  if (items.length === 0) throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a query over a model table must select at least one column', SELECT_FORMS_HINT);

  const keys = groupKeys(select, items, resolver, scope.table.columns.map((c) => c.name), text);
  const measured = items.some((item) => item.resolved.kind === 'measure');
  const grouping = measured || keys.size > 0 || select.havingClause !== undefined;
  for (const item of items) {
    if (item.resolved.kind !== 'dimension' || keys.has(item.resolved.field)) continue;
    if (grouping) {
      throw new SqlStateError(GROUPING_ERROR, `column "${scope.reference}.${item.resolved.column.name}" must appear in the GROUP BY clause or be used in an aggregate function`, `GROUP BY every selected dimension, e.g. GROUP BY ${items.filter((i) => i.resolved.kind === 'dimension').map((i) => items.indexOf(i) + 1).join(', ')}.`, item.position);
    }
    if (!select.distinctClause) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a model table answers grouped rows, not its rows one by one', `Group the dimensions (GROUP BY ${items.map((_, i) => i + 1).join(', ')}) or write SELECT DISTINCT.`, item.position);
    }
  }

  const conditions = new ConditionBuilder(resolver, text, (field) => keys.has(field));
  const where = conditions.build(select.whereClause, 'where');
  const havingAll = conditions.build(select.havingClause, 'having');
  const having = havingAll.filter((c) => placeOf(c) === 'measure');
  where.push(...havingAll.filter((c) => placeOf(c) === 'dimension'));

  const sorts = (select.sortClause ?? []).map((node) => sortOf(nodeAs(node, 'SortBy')!, items, resolver, keys, scope, text));
  const { limit, limitGiven } = limitOf(select, text);

  const dims = unique(items.filter((i) => i.resolved.kind === 'dimension').map((i) => i.resolved.field));
  const measures = unique(items.filter((i) => i.resolved.kind === 'measure').map((i) => i.resolved.field));
  return {
    node: scope.table.node,
    columns: items.map(({ name, resolved }) => columnOf(name, resolved)),
    dimensions: dims,
    measures,
    where,
    having,
    sorts: uniqueBy(sorts, (s) => s.field),
    ...(limit ? { limit } : {}),
    limitGiven,
    params: paramTypes([...where, ...having], limit),
  };
}

/** Refuses what a semantic query has no place for, before anything is resolved. */
function refuseShapes(select: SelectStmt, text: string): void {
  const refuse = (what: string, hint: string, node?: Node) => {
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, `${what} is not supported on model tables`, hint, positionAt(text, locationOf(node)));
  };
  if (select.op && select.op !== 'SETOP_NONE') refuse(select.op.replace('SETOP_', ''), 'Run each SELECT on its own.');
  if (select.withClause) refuse('WITH', SHAPE_HINT);
  if (select.valuesLists) refuse('VALUES', SHAPE_HINT);
  if (select.windowClause?.length) refuse('WINDOW', SELECT_FORMS_HINT);
  if (select.distinctClause?.some((item) => Object.keys(item).length > 0)) refuse('DISTINCT ON', 'Write SELECT DISTINCT, or GROUP BY the columns.', select.distinctClause[0]);
  if (select.groupDistinct) refuse('GROUP BY DISTINCT', 'Write GROUP BY.');
  const offset = select.limitOffset;
  if (offset && !(nodeAs(offset, 'A_Const') && !nodeAs(offset, 'A_Const')!.ival?.ival)) {
    refuse('OFFSET', `Narrow the rows with WHERE, or ask for more of them with LIMIT (at most ${MAX_QUERY_LIMIT}).`, offset);
  }
  if (select.limitOption === 'LIMIT_OPTION_WITH_TIES') refuse('FETCH … WITH TIES', 'Write LIMIT n.');
}

function selectItem(target: ResTarget, resolver: ExpressionResolver, text: string): SelectItem {
  const node = target.val!;
  const position = positionAt(text, target.location);
  const resolved = resolver.resolve(node, 'select');
  if (resolved.kind === 'dimension' && resolved.caseFold) throw resolver.unsupported(node);
  return { node, name: target.name ?? defaultColumnName(node), resolved, ...(position ? { position } : {}) };
}

/** The item a GROUP BY or ORDER BY entry names by position (`1`) or, when `byName`, by output name. */
function itemNamed(node: Node, items: readonly SelectItem[], clause: string, byName: boolean, text: string): SelectItem | undefined {
  const constant = nodeAs(node, 'A_Const');
  if (constant?.ival) {
    const index = constant.ival.ival ?? 0;
    const item = items[index - 1];
    if (!item) throw new SqlStateError(INVALID_COLUMN_REFERENCE, `${clause} position ${index} is not in select list`, undefined, positionAt(text, constant.location));
    return item;
  }
  const names = namesOf(nodeAs(node, 'ColumnRef')?.fields);
  if (!byName || names.length !== 1 || names[0] === undefined) return undefined;
  const named = items.filter((item) => item.name === names[0]);
  if (named.length > 1 && new Set(named.map((i) => i.resolved.field)).size > 1) {
    throw new SqlStateError(AMBIGUOUS_COLUMN, `${clause} "${names[0]}" is ambiguous`, undefined, positionAt(text, locationOf(node)));
  }
  return named[0];
}

function groupKeys(select: SelectStmt, items: readonly SelectItem[], resolver: ExpressionResolver, columnNames: readonly string[], text: string): Set<string> {
  const keys = new Set<string>();
  for (const node of select.groupClause ?? []) {
    if (nodeAs(node, 'GroupingSet')) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'ROLLUP, CUBE and GROUPING SETS are not supported on model tables', 'GROUP BY the selected dimensions; run one query per grouping.', positionAt(text, locationOf(node)));
    }
    // An input column's name wins over an output name in GROUP BY, as in PostgreSQL.
    const ref = namesOf(nodeAs(node, 'ColumnRef')?.fields);
    const isColumn = ref.length === 1 && columnNames.includes(ref[0]!);
    const item = itemNamed(node, items, 'GROUP BY', !isColumn, text);
    if (item?.resolved.kind === 'measure') {
      throw new SqlStateError(GROUPING_ERROR, 'aggregate functions are not allowed in GROUP BY', 'GROUP BY dimensions only.', positionAt(text, locationOf(node)));
    }
    const resolved = item?.resolved ?? resolver.resolve(node, 'group');
    if (resolved.kind === 'dimension' && resolved.caseFold) throw resolver.unsupported(node);
    if (!items.some((i) => i.resolved.field === resolved.field)) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'GROUP BY a column that is not selected is not supported on model tables', 'Select every column you group by.', positionAt(text, locationOf(node)));
    }
    keys.add(resolved.field);
  }
  return keys;
}

function sortOf(sort: SortBy, items: readonly SelectItem[], resolver: ExpressionResolver, keys: ReadonlySet<string>, scope: TableScope, text: string): { field: string; direction: 'asc' | 'desc' } {
  const node = sort.node!;
  const position = positionAt(text, locationOf(node));
  if (sort.sortby_dir === 'SORTBY_USING') throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'ORDER BY … USING is not supported on model tables', 'Write ASC or DESC.', position);
  if (sort.sortby_nulls === 'SORTBY_NULLS_FIRST') {
    throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'NULLS FIRST is not supported on model tables', 'Nulls sort last here, in either direction: leave NULLS FIRST out.', position);
  }
  const direction = sort.sortby_dir === 'SORTBY_DESC' ? 'desc' : 'asc';
  // An output name wins over an input column's name in ORDER BY, as in PostgreSQL.
  const named = itemNamed(node, items, 'ORDER BY', true, text);
  if (named) return { field: named.resolved.field, direction };
  const resolved = resolveSortExpression(node, resolver);
  if (items.some((i) => i.resolved.field === resolved.field)) return { field: resolved.field, direction };
  if (resolved.kind === 'dimension' && !keys.has(resolved.field) && (keys.size > 0 || items.some((i) => i.resolved.kind === 'measure'))) {
    throw new SqlStateError(GROUPING_ERROR, `column "${scope.reference}.${resolved.column.name}" must appear in the GROUP BY clause or be used in an aggregate function`, undefined, position);
  }
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'ORDER BY a column that is not selected is not supported on model tables', 'Order by a selected column: its name, alias or position.', position);
}

function resolveSortExpression(node: Node, resolver: ExpressionResolver): Resolved {
  try {
    const resolved = resolver.resolve(node, 'order' satisfies Clause);
    if (resolved.kind === 'dimension' && resolved.caseFold) throw resolver.unsupported(node);
    return resolved;
  } catch (error) {
    // An expression over selected columns (`ORDER BY 2 * revenue`) is post-processing, said as such.
    if (error instanceof SqlStateError && error.sqlstate === FEATURE_NOT_SUPPORTED && !nodeAs(node, 'ColumnRef')) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'ORDER BY an expression is not supported on model tables', 'Order by a selected column (its name, alias or position), or order an outer query: SELECT * FROM (SELECT …) AS t ORDER BY expression.', error.position);
    }
    throw error;
  }
}

function limitOf(select: SelectStmt, text: string): { limit?: ValueSlot; limitGiven: boolean } {
  const node = select.limitCount;
  if (!node) return { limitGiven: false };
  const position = positionAt(text, locationOf(node));
  const constant = nodeAs(node, 'A_Const');
  if (constant?.isnull) return { limitGiven: false }; // LIMIT ALL, LIMIT NULL
  if (constant?.ival) return { limit: { kind: 'literal', value: constant.ival.ival ?? 0, literal: 'integer', ...(position ? { position } : {}) }, limitGiven: true };
  if (constant?.fval) return { limit: { kind: 'literal', value: Number(constant.fval.fval), literal: 'numeric', ...(position ? { position } : {}) }, limitGiven: true };
  const param = nodeAs(node, 'ParamRef');
  if (param) return { limit: { kind: 'param', number: param.number ?? 0, ...(position ? { position } : {}) }, limitGiven: true };
  throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'LIMIT takes a number or a parameter here', 'Write LIMIT 100 or LIMIT $1.', position);
}

function columnOf(name: string, resolved: Resolved): GovernedColumn {
  if (resolved.kind === 'measure') return { name, field: resolved.field, kind: 'measure', type: 'number', ...(resolved.column.measureType ? { measureType: resolved.column.measureType } : {}) };
  return { name, field: resolved.field, kind: 'dimension', type: resolved.type };
}

function placeOf(condition: Condition): 'dimension' | 'measure' {
  if ('and' in condition) return placeOf(condition.and[0]!);
  if ('or' in condition) return placeOf(condition.or[0]!);
  return condition.place;
}

const PARAM_TYPES: Record<ValueType, ParamType> = { string: 'text', number: 'numeric', boolean: 'bool', date: 'date', timestamp: 'timestamp' };

/** Each `$n`'s type: what it is first compared with; LIMIT's is int8, a LIKE pattern's text. */
function paramTypes(conditions: readonly Condition[], limit: ValueSlot | undefined): ParamType[] {
  const types: ParamType[] = [];
  const note = (slot: ValueSlot, type: ParamType) => {
    if (slot.kind !== 'param') return;
    for (let i = types.length; i < slot.number; i++) types.push('text');
    if (!seen.has(slot.number)) types[slot.number - 1] = type;
    seen.add(slot.number);
  };
  const seen = new Set<number>();
  const visit = (condition: Condition): void => {
    if ('and' in condition) return condition.and.forEach(visit);
    if ('or' in condition) return condition.or.forEach(visit);
    for (const slot of condition.values) note(slot, condition.like ? 'text' : PARAM_TYPES[condition.type]);
  };
  conditions.forEach(visit);
  if (limit) note(limit, 'int8');
  return types;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function uniqueBy<T>(values: readonly T[], key: (value: T) => string): T[] {
  const seen = new Set<string>();
  return values.filter((value) => !seen.has(key(value)) && seen.add(key(value)));
}
