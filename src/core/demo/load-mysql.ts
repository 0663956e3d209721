// Loads the demo dataset into MySQL/MariaDB: database `shop` (or another name, so tests can use a
// throwaway one) is dropped and recreated, then filled with multi-row INSERTs whose values mysql2
// escapes (`VALUES ?`), inside one transaction for speed. InnoDB clusters rows by primary key, so the
// key is declared up front and rows arrive in key order; secondary indexes are added afterwards.
import mysql from 'mysql2/promise';
import { formatCents, formatUtcTimestamp } from './format.js';
import { generateDemo } from './generate.js';
import { batchColumns, columnsOf, createTableSql, emptyCounts, DEMO_SCHEMA, SECONDARY_INDEXES, type ColumnKind, type DdlDialect } from './tables.js';
import { DEMO_TABLES, type DemoOptions, type DemoTable, type LoadResult } from './types.js';

/** Rows per INSERT statement: keeps each packet far below MariaDB's default 16 MB max_allowed_packet. */
const ROWS_PER_INSERT = 2_000;
const quote = (name: string) => `\`${name}\``;

const MYSQL_DDL: DdlDialect = {
  // VARCHAR needs a length here; utf8mb4 holds every name the generator makes.
  types: { integer: 'INT', text: 'VARCHAR(255)', money: 'DECIMAL(12,2)', timestamp: 'DATETIME(3)' },
  quote,
  primaryKeyInline: true,
  tableSuffix: ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
};

const TO_PARAM: Record<ColumnKind, (value: number | string) => number | string> = {
  integer: (v) => v,
  text: (v) => v,
  money: (v) => formatCents(v as number),
  timestamp: (v) => formatUtcTimestamp(v as number),
};

export interface MysqlLoadOptions extends DemoOptions {
  /** Target database, dropped and recreated (default `shop`). */
  readonly database?: string;
}

/** Creates (or replaces) database `shop` on the server at `url` and fills it. */
export async function loadMysql(url: string, options: MysqlLoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const database = options.database ?? DEMO_SCHEMA;
  if (!/^[A-Za-z0-9_]+$/.test(database)) throw new RangeError(`database name must be letters, digits and underscores: ${database}`);
  const connection = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
  try {
    const counts = emptyCounts();
    const inserts = Object.fromEntries(
      DEMO_TABLES.map((t) => [t, `INSERT INTO ${quote(database)}.${quote(t)} (${columnsOf(t).map((c) => quote(c.name)).join(', ')}) VALUES ?`]),
    ) as Record<DemoTable, string>;
    // DDL commits implicitly on MySQL, so it runs before the transaction.
    await connection.query(`DROP DATABASE IF EXISTS ${quote(database)}`);
    await connection.query(`CREATE DATABASE ${quote(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    for (const table of DEMO_TABLES) await connection.query(createTableSql(database, table, MYSQL_DDL));
    await connection.beginTransaction();
    try {
      for (const batch of generateDemo(options)) {
        const { columns, rows } = batchColumns(batch);
        for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
          const values = rows.slice(start, start + ROWS_PER_INSERT).map((row) => columns.map((c) => TO_PARAM[c.kind](c.value(row))));
          await connection.query(inserts[batch.table], [values]);
        }
        counts[batch.table] += rows.length;
      }
      await connection.commit();
    } catch (error) {
      await connection.rollback().catch(() => {});
      throw error;
    }
    for (const { table, column } of SECONDARY_INDEXES) {
      await connection.query(`ALTER TABLE ${quote(database)}.${quote(table)} ADD INDEX ${quote(`${table}_${column}_idx`)} (${quote(column)})`);
    }
    return { counts, elapsedMs: Math.round(performance.now() - started) };
  } finally {
    await connection.end();
  }
}
