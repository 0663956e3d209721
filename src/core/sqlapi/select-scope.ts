// The one model table a governed SELECT reads, and the columns its names resolve to. A table is
// named with or without its schema (`public` or its domain), with or without an alias; a column with
// or without the table's name or alias. A joined node's field is a column of the base table named
// `customers.region`: written quoted as PostgreSQL requires, or unquoted, which PostgreSQL would read
// as table `customers`, column `region` (accepted here since no other table can be meant).
import type { ColumnRef, Node, RangeVar, SelectStmt } from 'libpg-query';
import { closestName } from '../cml/suggest.js';
import type { SqlColumn, SqlTable } from './tables.js';
import { PUBLIC_SCHEMA } from './tables.js';
import { kindOf, namesOf, nodeAs, positionAt, quoteIdentifier } from './pg-ast.js';
import { FEATURE_NOT_SUPPORTED, SqlStateError, UNDEFINED_COLUMN, UNDEFINED_TABLE } from './sql-state-error.js';

const JOINS_HINT =
  'A query reads one model table; the fields of the nodes it joins are its columns, e.g. SELECT "customers.region", MEASURE(order_count) FROM orders GROUP BY 1.';

export class TableScope {
  private constructor(
    readonly table: SqlTable,
    /** The alias the FROM clause gives the table, if any: then only the alias qualifies its columns. */
    readonly alias: string | undefined,
    /** The statement's text, for error positions. */
    readonly text: string,
    /** Every schema the table is listed in (`public` and its domain's). */
    private readonly schemas: readonly string[],
  ) {}

  /** The table of the FROM clause: exactly one model table. */
  static of(select: SelectStmt, tables: readonly SqlTable[], text: string): TableScope {
    const from = select.fromClause ?? [];
    if (from.length === 0) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'a query over model tables needs FROM', JOINS_HINT);
    }
    const first = from[0]!;
    const range = nodeAs(first, 'RangeVar');
    if (from.length > 1 || !range) throw refusedFrom(from.length > 1 ? from[1]! : first, text);
    if (range.alias?.colnames?.length) {
      throw new SqlStateError(FEATURE_NOT_SUPPORTED, 'column aliases in FROM are not supported', 'Alias the columns in the SELECT list: SELECT status AS s …', positionAt(text, range.location));
    }
    const table = findTable(range, tables, text);
    const schemas = tables.filter((t) => t.node === table.node).map((t) => t.schema);
    return new TableScope(table, range.alias?.aliasname, text, schemas);
  }

  /** The name that qualifies the table's columns: its alias, else its own name. */
  get reference(): string {
    return this.alias ?? this.table.name;
  }

  /** The column a reference names; `*` is the caller's to refuse. */
  column(ref: ColumnRef): SqlColumn {
    const names = namesOf(ref.fields);
    const position = positionAt(this.text, ref.location);
    const [name, qualifier] = this.split(names as string[], position);
    const column = this.table.columns.find((c) => c.name === name);
    if (column) return column;
    // PostgreSQL quotes the name only when it is unqualified: `column "x" does not exist`, `column o.x does not exist`.
    const written = qualifier === undefined ? `"${name}"` : `${qualifier}.${name}`;
    throw new SqlStateError(UNDEFINED_COLUMN, `column ${written} does not exist`, this.columnHint(name), position);
  }

  /** [column name, qualifier as written] of a reference's parts, checking the qualifier. */
  private split(names: string[], position: number | undefined): [string, string | undefined] {
    if (names.length === 1) return [names[0]!, undefined];
    const column = names.at(-1)!;
    const qualifier = names.slice(0, -1);
    const table = qualifier.at(-1)!;
    // An alias hides the table's name (as in PostgreSQL); a schema, when written, is one the table is in.
    const named = this.alias === undefined ? table === this.table.name && (qualifier.length === 1 || this.schemas.includes(qualifier.at(-2)!)) : qualifier.length === 1 && table === this.alias;
    if (named) return [column, qualifier.join('.')];
    // `customers.region` unquoted: a joined node's field.
    if (qualifier.length === 1 && this.table.columns.some((c) => c.name.startsWith(`${table}.`))) return [names.join('.'), undefined];
    const hint =
      this.alias !== undefined && table === this.table.name
        ? `Perhaps you meant to reference the table alias "${this.alias}".`
        : `The query reads ${this.table.name}${this.alias ? ` (as ${this.alias})` : ''}. ${JOINS_HINT}`;
    throw new SqlStateError(UNDEFINED_TABLE, `missing FROM-clause entry for table "${table}"`, hint, position);
  }

  private columnHint(name: string): string {
    const names = this.table.columns.map((c) => c.name);
    // A typo (`stauts`), else a part of the name (`region` for `ship_region`, `stat` for `status`).
    const close = closestName(name, names) ?? (name.length >= 3 ? names.find((n) => n.includes(name) || name.includes(n)) : undefined);
    if (close !== undefined) return `Perhaps you meant to reference the column "${this.reference}.${close}".`;
    const listed = names.slice(0, 12).map(quoteIdentifier).join(', ');
    return `Columns of ${this.table.name}: ${listed}${names.length > 12 ? ', …' : ''}.`;
  }
}

function refusedFrom(item: Node, text: string): SqlStateError {
  const kind = kindOf(item);
  if (kind === 'RangeSubselect') {
    return new SqlStateError(
      FEATURE_NOT_SUPPORTED,
      'a model table cannot be read beside a subquery',
      'Read the model table inside the subquery, and the rest outside it: SELECT … FROM (SELECT dimensions, MEASURE(m) FROM table GROUP BY dimensions) AS t.',
    );
  }
  if (kind === 'RangeVar' || kind === 'JoinExpr') {
    const location = nodeAs(item, 'RangeVar')?.location ?? nodeAs(nodeAs(item, 'JoinExpr')?.rarg, 'RangeVar')?.location;
    return new SqlStateError(FEATURE_NOT_SUPPORTED, 'joins between model tables are not supported', JOINS_HINT, positionAt(text, location));
  }
  return new SqlStateError(FEATURE_NOT_SUPPORTED, 'FROM may name one model table only', JOINS_HINT);
}

function findTable(range: RangeVar, tables: readonly SqlTable[], text: string): SqlTable {
  const name = range.relname ?? '';
  const schema = range.schemaname ?? PUBLIC_SCHEMA;
  const table = tables.find((t) => t.name === name && t.schema === schema);
  if (table) return table;
  const written = range.schemaname === undefined ? name : `${range.schemaname}.${name}`;
  const candidates = range.schemaname === undefined ? tables.filter((t) => t.schema === PUBLIC_SCHEMA).map((t) => t.name) : tables.map((t) => `${t.schema}.${t.name}`);
  const close = closestName(written, candidates);
  const nodes = [...new Set(tables.map((t) => t.name))].sort();
  const schemas = tables.filter((t) => t.name === name).map((t) => t.schema);
  const hint =
    close !== undefined
      ? `Perhaps you meant the table "${close}".`
      : schemas.length > 0
        ? `The table "${name}" is in schemas ${schemas.join(', ')}.`
        : `The model's tables: ${nodes.slice(0, 12).join(', ')}${nodes.length > 12 ? ', …' : ''}.`;
  throw new SqlStateError(UNDEFINED_TABLE, `relation "${written}" does not exist`, hint, positionAt(text, range.location));
}
