// The model's tables as PostgreSQL definitions: the DDL of a catalog mirror, an empty database whose
// pg_catalog and information_schema then list exactly the tables, columns, types and descriptions a
// client may see. The tables never hold rows: governed SELECTs are answered elsewhere, and only what
// the catalog says about them comes from here.
import { PUBLIC_SCHEMA, type SqlColumn, type SqlTable } from '../../core/sqlapi/tables.js';
import { DIALECTS } from '../../core/sql/dialects.js';
import { BOOL_OID, DATE_OID, INT8_OID, NUMERIC_OID, TEXT_OID, TIMESTAMP_OID } from '../type-oids.js';

/** A column's PostgreSQL type: its name in DDL and its OID (RowDescription, ParameterDescription). */
export interface MirrorType {
  readonly name: 'text' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'bigint';
  readonly oid: number;
}

/** The types a model column can have, with PostgreSQL's OIDs for them (pg_type.dat). */
export const MIRROR_TYPES = {
  text: { name: 'text', oid: TEXT_OID },
  numeric: { name: 'numeric', oid: NUMERIC_OID },
  boolean: { name: 'boolean', oid: BOOL_OID },
  date: { name: 'date', oid: DATE_OID },
  timestamp: { name: 'timestamp', oid: TIMESTAMP_OID },
  bigint: { name: 'bigint', oid: INT8_OID },
} as const satisfies Record<string, MirrorType>;

const DIMENSION_TYPES: Record<SqlColumn['type'], MirrorType> = {
  string: MIRROR_TYPES.text,
  number: MIRROR_TYPES.numeric,
  boolean: MIRROR_TYPES.boolean,
  date: MIRROR_TYPES.date,
  // The model's timestamps are wall-clock times, read in the zone a query names: without time zone.
  timestamp: MIRROR_TYPES.timestamp,
};

/**
 * The type a column is listed with. A count (of rows or of distinct values) is what PostgreSQL's own
 * count() returns, bigint, so a client reads a whole number from it (JDBC: Long). Every other measure is
 * numeric: sums, averages and ratios of amounts have fractions, and numeric keeps a warehouse's decimals
 * exact where float8 would round them.
 */
export function mirrorColumnType(column: Pick<SqlColumn, 'kind' | 'type' | 'measureType'>): MirrorType {
  if (column.kind === 'measure') {
    return column.measureType === 'count' || column.measureType === 'count_distinct' ? MIRROR_TYPES.bigint : MIRROR_TYPES.numeric;
  }
  return DIMENSION_TYPES[column.type];
}

/**
 * An identifier, always quoted: model names are CML identifiers, but joined fields carry a dot
 * (`customers.region`) and quoting every name keeps its case and spelling whatever it is.
 */
export function quoteIdentifier(name: string): string {
  return DIALECTS.postgres.quoteIdentifier(withoutNul(name));
}

/** A string literal, for a server with standard_conforming_strings on (a backslash is itself). */
export function quoteLiteral(text: string): string {
  return `'${withoutNul(text).replaceAll("'", "''")}'`;
}

// PostgreSQL text cannot hold NUL; a description with one would refuse the whole mirror.
function withoutNul(text: string): string {
  return text.replaceAll('\0', '');
}

/** What COMMENT ON COLUMN says: the label, then the description when there is one. */
export function columnComment(column: SqlColumn): string {
  const label = column.label.trim();
  const description = column.description.trim();
  if (!description || description === label) return label;
  return label ? `${label} — ${description}` : description;
}

/**
 * The statements that create the tables: a schema for every domain (public exists already), each
 * table with its columns in order, and the descriptions as comments. One string of statements, run
 * once when the mirror is built.
 */
export function mirrorSchemaSql(tables: readonly SqlTable[]): string {
  const statements: string[] = [];
  const schemas = new Set(tables.map((t) => t.schema).filter((s) => s !== PUBLIC_SCHEMA));
  for (const schema of schemas) statements.push(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
  for (const table of tables) {
    const name = `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
    const columns = table.columns.map((c) => `${quoteIdentifier(c.name)} ${mirrorColumnType(c).name}`);
    statements.push(`CREATE TABLE ${name} (${columns.join(', ')})`);
    if (table.description.trim()) statements.push(`COMMENT ON TABLE ${name} IS ${quoteLiteral(table.description.trim())}`);
    for (const column of table.columns) {
      const comment = columnComment(column);
      if (comment) statements.push(`COMMENT ON COLUMN ${name}.${quoteIdentifier(column.name)} IS ${quoteLiteral(comment)}`);
    }
  }
  return statements.map((s) => `${s};\n`).join('');
}
