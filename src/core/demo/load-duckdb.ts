// Loads the demo dataset into a DuckDB file through the Appender API, one data chunk (up to 2,048
// rows) at a time: filling a chunk's vectors in JS and handing it over whole is about ten times
// faster than appending value by value. The instance is closed at the end so the service can then
// open the file read-only.
import {
  DECIMAL,
  DuckDBDataChunk,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampValue,
  INTEGER,
  TIMESTAMP,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { generateDemo } from './generate.js';
import { batchColumns, createTableSql, DEMO_SCHEMA, emptyCounts, type ColumnKind, type ColumnSpec, type DdlDialect } from './tables.js';
import { DEMO_TABLES, type DemoOptions, type DemoTable, type LoadResult } from './types.js';

const CHUNK_ROWS = 2048;
const MONEY_WIDTH = 12;
const MONEY_SCALE = 2;

const DUCKDB_DDL: DdlDialect = {
  types: { integer: 'INTEGER', text: 'VARCHAR', money: 'DECIMAL(12,2)', timestamp: 'TIMESTAMP' },
  quote: (name) => `"${name}"`,
  primaryKeyInline: false,
};

const VECTOR_TYPES: Record<ColumnKind, DuckDBType> = { integer: INTEGER, text: VARCHAR, money: DECIMAL(MONEY_WIDTH, MONEY_SCALE), timestamp: TIMESTAMP };

function toDuckDbValue(kind: ColumnKind, value: number | string): DuckDBValue {
  switch (kind) {
    case 'money':
      return new DuckDBDecimalValue(BigInt(value), MONEY_WIDTH, MONEY_SCALE);
    case 'timestamp':
      return new DuckDBTimestampValue(BigInt(value) * 1000n);
    default:
      return value;
  }
}

/** Creates (or replaces) schema `shop` in the DuckDB file at `path` and fills it. */
export async function loadDuckDb(path: string, options: DemoOptions): Promise<LoadResult> {
  const started = performance.now();
  const instance = await DuckDBInstance.create(path);
  try {
    const connection = await instance.connect();
    try {
      const counts = await fill(connection, options);
      return { counts, elapsedMs: Math.round(performance.now() - started) };
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

async function fill(connection: DuckDBConnection, options: DemoOptions): Promise<Record<DemoTable, number>> {
  const counts = emptyCounts();
  // One transaction: a failed load leaves the previous demo data in place.
  await connection.run('BEGIN TRANSACTION');
  try {
    await connection.run(`DROP SCHEMA IF EXISTS ${DEMO_SCHEMA} CASCADE`);
    await connection.run(`CREATE SCHEMA ${DEMO_SCHEMA}`);
    const appenders = {} as Record<DemoTable, DuckDBAppender>;
    for (const table of DEMO_TABLES) {
      await connection.run(createTableSql(DEMO_SCHEMA, table, DUCKDB_DDL));
      appenders[table] = await connection.createAppender(table, DEMO_SCHEMA);
    }
    for (const batch of generateDemo(options)) {
      const { columns, rows } = batchColumns(batch);
      appendRows(appenders[batch.table], columns, rows);
      counts[batch.table] += rows.length;
    }
    for (const table of DEMO_TABLES) appenders[table].closeSync();
    // Keys after the rows: building the index once is cheaper than maintaining it row by row.
    for (const table of DEMO_TABLES) await connection.run(`ALTER TABLE ${DEMO_SCHEMA}.${table} ADD PRIMARY KEY (id)`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => {});
    throw error;
  }
  await connection.run('CHECKPOINT');
  return counts;
}

function appendRows(appender: DuckDBAppender, columns: ReadonlyArray<ColumnSpec<unknown>>, rows: readonly unknown[]): void {
  const types = columns.map((c) => VECTOR_TYPES[c.kind]);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const size = Math.min(CHUNK_ROWS, rows.length - start);
    const chunk = DuckDBDataChunk.create(types, size);
    columns.forEach((column, index) => {
      const values = new Array<DuckDBValue>(size);
      for (let i = 0; i < size; i++) values[i] = toDuckDbValue(column.kind, column.value(rows[start + i]));
      chunk.setColumnValues(index, values);
    });
    appender.appendDataChunk(chunk);
  }
}

