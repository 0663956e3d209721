// Loads the demo dataset into PostgreSQL: one `INSERT … SELECT * FROM unnest($1::int[], …)` per batch,
// so a 5,000-row batch is one round trip with one parameter per column, all in one transaction (a
// failed load leaves the previous demo data untouched). Keys and indexes are built after the rows.
import pg from 'pg';
import { formatCents, formatUtcTimestamp } from './format.js';
import { generateDemo } from './generate.js';
import { batchColumns, columnsOf, createTableSql, DEMO_SCHEMA, emptyCounts, SECONDARY_INDEXES, type ColumnKind, type DdlDialect } from './tables.js';
import { DEMO_TABLES, type DemoOptions, type DemoTable, type LoadResult } from './types.js';

const POSTGRES_DDL: DdlDialect = {
  types: { integer: 'integer', text: 'varchar', money: 'numeric(12,2)', timestamp: 'timestamp' },
  quote: (name) => `"${name}"`,
  primaryKeyInline: false,
};

/** Money and instants cross the wire as exact text; integers and strings as they are. */
const TO_PARAM: Record<ColumnKind, (value: number | string) => number | string> = {
  integer: (v) => v,
  text: (v) => v,
  money: (v) => formatCents(v as number),
  timestamp: (v) => formatUtcTimestamp(v as number),
};

function insertSql(table: DemoTable): string {
  const columns = columnsOf(table);
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${POSTGRES_DDL.types[c.kind]}[]`).join(', ');
  return `INSERT INTO ${DEMO_SCHEMA}.${table} (${names}) SELECT * FROM unnest(${arrays})`;
}

/** Creates (or replaces) schema `shop` in the given database and fills it. */
export async function loadPostgres(connection: string | pg.ClientConfig, options: DemoOptions): Promise<LoadResult> {
  const started = performance.now();
  const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
  await client.connect();
  try {
    const counts = emptyCounts();
    const inserts = Object.fromEntries(DEMO_TABLES.map((t) => [t, insertSql(t)])) as Record<DemoTable, string>;
    await client.query('BEGIN');
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${DEMO_SCHEMA} CASCADE`);
      await client.query(`CREATE SCHEMA ${DEMO_SCHEMA}`);
      for (const table of DEMO_TABLES) await client.query(createTableSql(DEMO_SCHEMA, table, POSTGRES_DDL));
      for (const batch of generateDemo(options)) {
        const { columns, rows } = batchColumns(batch);
        const params = columns.map((column) => rows.map((row) => TO_PARAM[column.kind](column.value(row))));
        await client.query(inserts[batch.table], params);
        counts[batch.table] += rows.length;
      }
      for (const table of DEMO_TABLES) await client.query(`ALTER TABLE ${DEMO_SCHEMA}.${table} ADD PRIMARY KEY (id)`);
      for (const { table, column } of SECONDARY_INDEXES) {
        await client.query(`CREATE INDEX ${table}_${column}_idx ON ${DEMO_SCHEMA}.${table} (${column})`);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    // Fresh statistics, so the first analytics queries get sensible plans.
    await client.query(`ANALYZE ${DEMO_TABLES.map((t) => `${DEMO_SCHEMA}.${t}`).join(', ')}`);
    return { counts, elapsedMs: Math.round(performance.now() - started) };
  } finally {
    await client.end();
  }
}
