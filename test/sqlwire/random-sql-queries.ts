// Random governed SELECTs over the demo model, each with the semantic query (C's POST /v1/query body)
// that means the same: dimensions (time grains through DATE_TRUNC, `::date` and CAST), measures through
// MEASURE() or their own aggregate, WHERE conditions of every kind (see semantic-sql.ts) nested in
// AND/OR/NOT, HAVING on measures (and on grouped dimensions), GROUP BY by position, expression or alias,
// SELECT DISTINCT, ORDER BY by position, alias or expression, LIMIT (literal, `$n` or ALL), table aliases
// and schemas, quoted and unquoted joined fields, constants as literals or parameters. Seeded: the same
// seed gives the same queries.
import { createRng, pickOne, type Rng } from '../../src/core/demo/prng.js';
import type { Filter } from '../../src/core/semantic/query.js';
import { TABLES, type DimensionSpec, type MeasureSpec, type TableSpec } from './demo-sql-columns.js';
import { conditionOn, dimensionColumn, measureColumn, measureCondition } from './random-sql-conditions.js';
import { SqlWriter, toFilter, type Condition } from './semantic-sql.js';

/** A selected column's values as PostgreSQL types them (integer: a count's bigint). */
export type ColumnType = 'text' | 'number' | 'integer' | 'timestamp' | 'date';

export interface SelectedColumn {
  readonly field: string;
  readonly type: ColumnType;
}

export interface SqlCase {
  readonly sql: string;
  /** The `$n` parameters (extended protocol), or undefined for the simple protocol. */
  readonly params: string[] | undefined;
  /** C's body for the same question. */
  readonly query: { node: string; dimensions: string[]; measures: string[]; filters: Filter[]; sorts: Array<{ field: string; direction: 'asc' | 'desc' }>; limit: number };
  readonly columns: readonly SelectedColumn[];
  /** Columns (by index) whose values order the rows, most significant first; empty when unordered. */
  readonly sortColumns: readonly number[];
  /** LIMIT 0: the SQL answer has no rows (C has no such limit). */
  readonly noRows: boolean;
  /** The column holding orders.ship_region (the data key's dimension), when selected. */
  readonly regionColumn: number | undefined;
}

interface Item {
  readonly sql: string;
  readonly field: string;
  readonly kind: 'dimension' | 'measure';
  readonly type: ColumnType;
  alias?: string;
}

const chance = (rng: Rng, p: number) => rng() < p;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let left = rng() * items.reduce((sum, item) => sum + item.weight, 0);
  return items.find((item) => (left -= item.weight) < 0) ?? items.at(-1)!;
}

function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]!);
  return out;
}

/** `count` random queries for the seed, each with its C body. */
export function randomSqlCases(seed: number, count: number, now: Date): SqlCase[] {
  const rng = createRng(seed, 0);
  return Array.from({ length: count }, () => randomCase(rng, now));
}

function randomCase(rng: Rng, now: Date): SqlCase {
  const table = weighted(rng, TABLES);
  const alias = chance(rng, 0.2) ? pickOne(rng, ['o', 't', 'x']) : undefined;
  const from = `${chance(rng, 0.15) ? `${pickOne(rng, ['public', table.domain])}.` : ''}${table.name}${alias ? ` ${chance(rng, 0.5) ? 'AS ' : ''}${alias}` : ''}`;
  const name = (column: string) => columnName(rng, column, table, alias);
  const writer = new SqlWriter(rng, chance(rng, 0.3) ? 0.5 : 0);

  const dimensions = sample(rng, table.dimensions, pickOne(rng, [0, 1, 1, 1, 2, 2, 2, 3]));
  // The data key's dimension often: where it is selected, the two members' answers must differ.
  const region = table.dimensions.find((d) => d.name === table.regionColumn)!;
  if (dimensions.length > 0 && !dimensions.includes(region) && chance(rng, 0.15)) dimensions[0] = region;
  const measureCount = dimensions.length === 0 ? int(rng, 1, 3) : pickOne(rng, [0, 1, 1, 2, 2, 3]);
  const measures = sample(rng, table.measures, measureCount);
  const items: Item[] = [...dimensions.map((d) => dimensionItem(rng, d, name)), ...measures.map((m) => measureItem(rng, m, name))];
  if (chance(rng, 0.5)) items.splice(0, items.length, ...sample(rng, items, items.length));
  if (chance(rng, 0.05)) items.push({ ...items[0]!, alias: undefined });
  for (const [i, item] of items.entries()) if (chance(rng, 0.4)) item.alias = pickOne(rng, [`c${i + 1}`, `"Column ${i + 1}"`, `"${item.kind === 'measure' ? 'Σ' : 'by'} ${i}"`]);
  // Now and then an output name that is also a column of the table: ORDER BY reads it as the output.
  const unselected = table.dimensions.filter((d) => !d.name.includes('.') && !items.some((i) => i.field.split('.')[0] === d.name));
  const shadowing = items.find((i) => i.kind === 'dimension');
  if (shadowing && unselected.length > 0 && chance(rng, 0.08)) shadowing.alias = pickOne(rng, unselected).name;
  const columnNames = new Set(table.dimensions.map((d) => d.name));

  // WHERE on any dimensions of the table; HAVING on measures (selected or not) and grouped dimensions.
  // Each condition on one column, or AND/OR of conditions on several.
  const several = (one: () => Condition): Condition => (chance(rng, 0.25) ? { kind: chance(rng, 0.6) ? 'or' : 'and', items: Array.from({ length: int(rng, 2, 3) }, one) } : one());
  const where = Array.from({ length: pickOne(rng, [0, 0, 1, 1, 1, 2, 2, 3]) }, () => several(() => conditionOn(rng, pickOne(rng, table.dimensions), name, now, 1)));
  const grouped = measures.length > 0;
  const groupedFields = items.filter((i) => i.kind === 'dimension').map((i) => i.field);
  const having = grouped && chance(rng, 0.3) ? Array.from({ length: pickOne(rng, [1, 1, 2]) }, () => several(() => measureCondition(rng, pickOne(rng, table.measures), groupedFields, name))) : [];
  const dimensionItems = items.filter((i) => i.kind === 'dimension');
  const groupedCondition: Condition[] = [];
  if (grouped && dimensionItems.length > 0 && chance(rng, 0.1)) {
    // A condition on a grouped dimension in HAVING: PostgreSQL filters the groups, which is filtering the rows.
    const item = pickOne(rng, dimensionItems);
    const spec = table.dimensions.find((d) => item.field === d.name || item.field.startsWith(`${d.name}.`))!;
    groupedCondition.push(conditionOn(rng, spec, name, now, 1, { sql: item.sql, field: item.field, type: item.type === 'date' ? 'date' : spec.type === 'string' ? 'text' : spec.type }));
  }

  const distinct = measures.length === 0 && chance(rng, 0.4);
  const groupBy = distinct || (measures.length > 0 && dimensionItems.length === 0) ? [] : groupKeys(rng, items, columnNames);
  const { sorts, sortColumns, limit, limitSql } = orderAndLimit(rng, items, writer);

  const conditionSql = (written: Condition[]) => written.map((c) => writer.condition(c)).join(' AND ');
  const sql = [
    `SELECT ${distinct ? 'DISTINCT ' : ''}${items.map((i) => (i.alias ? `${i.sql} AS ${i.alias}` : i.sql)).join(', ')}`,
    `FROM ${from}`,
    where.length ? `WHERE ${conditionSql(where)}` : '',
    groupBy.length ? `GROUP BY ${groupBy.join(', ')}` : '',
    having.length + groupedCondition.length ? `HAVING ${conditionSql([...groupedCondition, ...having])}` : '',
    sorts.length ? `ORDER BY ${sorts.map((s) => s.sql).join(', ')}` : '',
    limitSql,
  ].filter(Boolean).join(' ');

  const unique = (kind: Item['kind']) => [...new Set(items.filter((i) => i.kind === kind).map((i) => i.field))];
  const regionIndex = items.findIndex((i) => i.field === table.regionColumn);
  return {
    sql,
    params: writer.params.length > 0 || chance(rng, 0.1) ? writer.params : undefined,
    query: {
      node: table.name,
      dimensions: unique('dimension'),
      measures: unique('measure'),
      filters: [[...where, ...groupedCondition], having].flatMap((group) => (chance(rng, 0.5) || group.length < 2 ? group.map(toFilter) : [toFilter({ kind: 'and', items: group })])),
      sorts: sorts.map(({ field, direction }) => ({ field, direction })),
      limit: limit === undefined || limit === 0 ? 50_000 : limit,
    },
    columns: items.map(({ field, type }) => ({ field, type })),
    sortColumns,
    noRows: limit === 0,
    regionColumn: regionIndex >= 0 ? regionIndex : undefined,
  };
}

/** A column as written: its name, qualified by the table or its alias, a joined field quoted or not. */
function columnName(rng: Rng, column: string, table: TableSpec, alias: string | undefined): string {
  const joined = column.includes('.');
  const bare = joined && chance(rng, 0.3) && !alias ? column : joined ? `"${column}"` : column;
  if (bare !== column && joined && alias && chance(rng, 0.3)) return `${alias}.${bare}`;
  if (!joined && chance(rng, 0.2)) return `${alias ?? table.name}.${column}`;
  return bare;
}

function dimensionItem(rng: Rng, spec: DimensionSpec, name: (column: string) => string): Item {
  const column = dimensionColumn(rng, spec, name, 'select');
  const type: ColumnType = column.type === 'text' ? 'text' : column.type;
  return { sql: column.sql, field: column.field, kind: 'dimension', type };
}

function measureItem(rng: Rng, spec: MeasureSpec, name: (column: string) => string): Item {
  const column = measureColumn(rng, spec, name);
  // A cast that keeps the value: to numeric or float8 always, to an integer type only for a count.
  const integer = spec.type === 'count' || spec.type === 'count_distinct';
  const cast = chance(rng, 0.1) ? pickOne(rng, integer ? ['::bigint', '::numeric', '::int8'] : ['::numeric', '::float8', '::double precision']) : '';
  return { sql: `${column.sql}${cast}`, field: spec.name, kind: 'measure', type: integer ? 'integer' : 'number' };
}

/** GROUP BY every dimension item: by position, by its expression, or by its alias (unless a column has that name, which GROUP BY would read). */
function groupKeys(rng: Rng, items: readonly Item[], columnNames: ReadonlySet<string>): string[] {
  return items.flatMap((item, i) => {
    if (item.kind !== 'dimension' || items.findIndex((other) => other.field === item.field) !== i) return [];
    const ways = [String(i + 1), item.sql, ...(item.alias && !columnNames.has(item.alias) ? [item.alias] : [])];
    return [pickOne(rng, ways)];
  });
}

function orderAndLimit(rng: Rng, items: readonly Item[], writer: SqlWriter) {
  const sorts: Array<{ sql: string; field: string; direction: 'asc' | 'desc' }> = [];
  const sortColumns: number[] = [];
  const addSort = (index: number) => {
    const item = items[index]!;
    if (sorts.some((s) => s.field === item.field)) return;
    const direction = chance(rng, 0.5) ? 'desc' : 'asc';
    const by = pickOne(rng, [String(index + 1), item.sql, item.alias ?? item.sql]);
    const written = direction === 'desc' ? 'DESC' : pickOne(rng, ['', 'ASC']);
    sorts.push({ sql: `${by}${written ? ` ${written}` : ''}${chance(rng, 0.1) ? ' NULLS LAST' : ''}`, field: item.field, direction });
    sortColumns.push(index);
  };
  const ordered = chance(rng, 0.6);
  if (ordered) for (let n = int(rng, 1, 2); n > 0; n--) addSort(int(rng, 0, items.length - 1));
  let limit: number | undefined;
  let limitSql = '';
  if (ordered && chance(rng, 0.5)) {
    // A LIMIT takes the first rows of a total order: every dimension sorts the ties of the others.
    items.forEach((item, i) => item.kind === 'dimension' && addSort(i));
    limit = pickOne(rng, [0, 1, 3, 5, 10, 25]);
    const count = writer.value({ literal: String(limit), param: String(limit), c: limit });
    limitSql = chance(rng, 0.15) ? `FETCH FIRST ${count.startsWith('$') ? `(${count})` : count} ROWS ONLY` : `LIMIT ${count}`;
  } else if (chance(rng, 0.05)) {
    limitSql = pickOne(rng, ['LIMIT ALL', 'LIMIT NULL']);
  }
  return { sorts, sortColumns, limit, limitSql };
}

