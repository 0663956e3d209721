// A mirror's DDL keeps every name and description exactly, whatever characters they hold, types each
// kind of column as documented, and comments columns with their label and description.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlColumn, SqlTable } from '../../src/core/sqlapi/tables.js';
import { CatalogMirrors, type CatalogMirror } from '../../src/sqlwire/catalog/catalog-mirror.js';
import { columnComment, mirrorSchemaSql } from '../../src/sqlwire/catalog/mirror-schema.js';

function column(name: string, kind: SqlColumn['kind'], type: SqlColumn['type'], more: Partial<SqlColumn> = {}): SqlColumn {
  return { name, kind, field: name, type, label: name, description: '', ...more };
}

const ODD_SCHEMA = 'sales "EU"';
const ODD_TABLE = "o'rders; DROP TABLE x --";
const ODD_DESCRIPTION = "It's a \\ backslash, a \"quote\", a -- comment, a ; and a\nnew line.";

const COLUMNS: SqlColumn[] = [
  column('name', 'dimension', 'string', { label: 'Name', description: ODD_DESCRIPTION }),
  column('amount', 'dimension', 'number', { label: 'Amount', description: 'Amount' }),
  column('is_open', 'dimension', 'boolean', { label: '', description: 'Open or not.' }),
  column('day', 'dimension', 'date', { label: 'Day' }),
  column('at', 'dimension', 'timestamp', { label: 'At' }),
  column('customers.region', 'dimension', 'string', { label: 'Region', description: 'Where the customer is.' }),
  column('a"b', 'dimension', 'string', { label: 'Quote\u0000d' }),
  column('rows', 'measure', 'number', { measureType: 'count' }),
  column('buyers', 'measure', 'number', { measureType: 'count_distinct' }),
  column('revenue', 'measure', 'number', { measureType: 'sum' }),
  column('average', 'measure', 'number', { measureType: 'avg' }),
  column('least', 'measure', 'number', { measureType: 'min' }),
  column('most', 'measure', 'number', { measureType: 'max' }),
  column('ratio', 'measure', 'number', { measureType: 'number' }),
];

const TABLES: SqlTable[] = [
  { schema: 'public', name: ODD_TABLE, node: 'orders', description: ODD_DESCRIPTION, columns: COLUMNS },
  { schema: ODD_SCHEMA, name: ODD_TABLE, node: 'orders', description: '', columns: COLUMNS.slice(0, 2) },
];

let mirrors: CatalogMirrors;
let mirror: CatalogMirror;

beforeAll(async () => {
  mirrors = new CatalogMirrors();
  mirror = await mirrors.get('odd', () => ({ tables: TABLES, database: "proj'ect" }));
});
afterAll(() => mirrors.close());

async function rows(sql: string, params: string[] = []): Promise<(string | null)[][]> {
  return (await mirror.run(sql, params)).rows.map((row) => row.map((v) => (v === null ? null : v.toString('utf8'))));
}

describe('the mirror DDL', () => {
  it('creates schemas other than public, and writes every statement on its own line', () => {
    const ddl = mirrorSchemaSql(TABLES);
    expect(ddl.startsWith('CREATE SCHEMA "sales ""EU""";\n')).toBe(true);
    expect(ddl).not.toContain('CREATE SCHEMA "public"');
  });

  it('keeps names and descriptions exactly, with and without quotes, backslashes and new lines', async () => {
    expect(await rows('SELECT current_database()')).toEqual([["proj'ect"]]);
    const listed = await rows(
      `SELECT n.nspname, c.relname, pg_catalog.obj_description(c.oid, 'pg_class') FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('public', $1) ORDER BY 1`,
      [ODD_SCHEMA],
    );
    expect(listed).toEqual([
      ['public', ODD_TABLE, ODD_DESCRIPTION],
      [ODD_SCHEMA, ODD_TABLE, null],
    ]);
  });

  it('types dimensions by their type, counts as bigint and other measures as numeric; comments label — description', async () => {
    const described = await rows(
      `SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), pg_catalog.col_description(a.attrelid, a.attnum)
       FROM pg_catalog.pg_attribute a WHERE a.attrelid = pg_catalog.format('%I.%I', 'public', $1::text)::regclass AND a.attnum > 0 ORDER BY a.attnum`,
      [ODD_TABLE],
    );
    expect(described).toEqual([
      ['name', 'text', `Name — ${ODD_DESCRIPTION}`],
      ['amount', 'numeric', 'Amount'],
      ['is_open', 'boolean', 'Open or not.'],
      ['day', 'date', 'Day'],
      ['at', 'timestamp without time zone', 'At'],
      ['customers.region', 'text', 'Region — Where the customer is.'],
      ['a"b', 'text', 'Quoted'],
      ['rows', 'bigint', 'rows'],
      ['buyers', 'bigint', 'buyers'],
      ['revenue', 'numeric', 'revenue'],
      ['average', 'numeric', 'average'],
      ['least', 'numeric', 'least'],
      ['most', 'numeric', 'most'],
      ['ratio', 'numeric', 'ratio'],
    ]);
    expect(columnComment(column('x', 'dimension', 'string', { label: '', description: '' }))).toBe('');
  });

  it('gives the reader role SELECT on the tables of every schema, and nothing else', async () => {
    const privileges = await rows(
      `SELECT n.nspname, pg_catalog.has_schema_privilege(n.oid, 'USAGE'), pg_catalog.has_table_privilege(c.oid, 'SELECT'), pg_catalog.has_table_privilege(c.oid, 'INSERT')
       FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('public', $1) ORDER BY 1`,
      [ODD_SCHEMA],
    );
    expect(privileges).toEqual([
      ['public', 't', 't', 'f'],
      [ODD_SCHEMA, 't', 't', 'f'],
    ]);
  });
});
