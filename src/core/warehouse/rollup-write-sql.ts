// The statements a rollup writer (rollup-writer.ts) runs around the build SELECT, per engine. Pure, so
// that Snowflake's, which cannot be run here, are kept as golden files. Every name is quoted by the
// dialect (a schema and a table are used exactly as written); values travel as parameters.
// - The table is created from the build SELECT's own types (no rows read: PostgreSQL's WITH NO DATA,
//   a false condition on Snowflake), the time bucket cast to a wall timestamp as every engine stores it.
// - PostgreSQL inserts with one statement that also counts the groups inserted and reads their latest
//   source time, so the SELECT runs once. Snowflake has no INSERT in a WITH: the SELECT's groups go to
//   a temporary table of the session first (DDL, which commits, so before the transaction), then the
//   transaction counts them, deletes the target's rows and inserts.
import { DIALECTS } from '../sql/dialects.js';
import { checkRollupIdentifier, type RollupTimeRange, type RollupWrite } from './rollup-writer.js';

export type RollupWriteEngine = 'postgres' | 'snowflake';

export interface WriteStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

const WALL_TIMESTAMP: Record<RollupWriteEngine, string> = { postgres: 'TIMESTAMP', snowflake: 'TIMESTAMP_NTZ' };

/** The output names of the statement that counts what a write stored (`insertCounted`, `countStaged`). */
export const WRITTEN_ROWS = 'rows';
export const WRITTEN_MAX_TIME = 'source_max_time';

export class RollupWriteSql {
  private readonly q: (name: string) => string;
  private readonly placeholder: (n: number) => string;

  constructor(
    readonly engine: RollupWriteEngine,
    readonly schema: string,
  ) {
    checkRollupIdentifier(schema, 'rollup schema');
    const dialect = DIALECTS[engine];
    this.q = (name) => dialect.quoteIdentifier(name);
    this.placeholder = engine === 'postgres' ? (n) => `$${n}` : () => '?';
  }

  /** The schema-qualified, quoted name of a table of the schema. */
  table(table: string): string {
    return `${this.q(this.schema)}.${this.q(checkRollupIdentifier(table, 'rollup table'))}`;
  }

  /** Whether the schema exists: CREATE SCHEMA IF NOT EXISTS may need the right to create one even then. */
  schemaExists(): WriteStatement {
    if (this.engine === 'postgres') return { sql: 'SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1', params: [this.schema] };
    return { sql: 'SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', params: [this.schema] };
  }

  /** PostgreSQL: a lock of the schema's creations until the transaction ends (an advisory lock on its name). */
  lockSchema(): WriteStatement {
    return { sql: "SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('rollup schema ' || $1))", params: [this.schema] };
  }

  createSchema(): WriteStatement {
    return { sql: `CREATE SCHEMA IF NOT EXISTS ${this.q(this.schema)}`, params: [] };
  }

  tableExists(table: string): WriteStatement {
    return { sql: `SELECT 1 FROM information_schema.tables WHERE table_schema = ${this.placeholder(1)} AND table_name = ${this.placeholder(2)}`, params: [this.schema, table] };
  }

  /** The table, with the stored columns of the build SELECT and their types, no rows read. */
  createTable(write: RollupWrite): WriteStatement {
    const empty = this.engine === 'postgres' ? 'WITH NO DATA' : 'WHERE 1 = 0';
    return { sql: `CREATE TABLE IF NOT EXISTS ${this.table(write.table)} AS SELECT ${this.storedItems(write, true)} FROM (${write.select.sql}) AS ${this.q('b')} ${empty}`, params: write.select.params };
  }

  /** Deletes the target's rows, or every row. */
  deleteRows(table: string, target: RollupTimeRange | undefined): WriteStatement {
    if (!target) return { sql: `DELETE FROM ${this.table(table)}`, params: [] };
    const column = this.q(target.timeColumn);
    const type = WALL_TIMESTAMP[this.engine];
    return {
      sql: `DELETE FROM ${this.table(table)} WHERE ${column} >= CAST(${this.placeholder(1)} AS ${type}) AND ${column} < CAST(${this.placeholder(2)} AS ${type})`,
      params: [target.start, target.end],
    };
  }

  /** PostgreSQL: inserts the SELECT's groups and returns how many (WRITTEN_ROWS) and their latest source time (WRITTEN_MAX_TIME). */
  insertCounted(write: RollupWrite): WriteStatement {
    const b = this.q('b');
    const latest = write.sourceMaxTimeKey ? `(SELECT MAX(${b}.${this.q(write.sourceMaxTimeKey)}) FROM ${b})` : 'CAST(NULL AS TEXT)';
    return {
      sql:
        `WITH ${b} AS (${write.select.sql}), ${this.q('i')} AS (INSERT INTO ${this.table(write.table)} (${this.storedNames(write)}) SELECT ${this.storedItems(write, false)} FROM ${b} RETURNING 1) ` +
        `SELECT (SELECT COUNT(*) FROM ${this.q('i')}) AS ${this.q(WRITTEN_ROWS)}, ${latest} AS ${this.q(WRITTEN_MAX_TIME)}`,
      params: write.select.params,
    };
  }

  /** Snowflake: the session's temporary table the SELECT's groups are read into before the transaction. */
  stage(write: RollupWrite): WriteStatement {
    return { sql: `CREATE TEMPORARY TABLE ${this.staged(write.table)} AS SELECT * FROM (${write.select.sql}) AS ${this.q('b')}`, params: write.select.params };
  }

  /** Snowflake: how many groups were staged (WRITTEN_ROWS) and their latest source time (WRITTEN_MAX_TIME). */
  countStaged(write: RollupWrite): WriteStatement {
    const latest = write.sourceMaxTimeKey ? `MAX(${this.q(write.sourceMaxTimeKey)})` : 'CAST(NULL AS VARCHAR)';
    return { sql: `SELECT COUNT(*) AS ${this.q(WRITTEN_ROWS)}, ${latest} AS ${this.q(WRITTEN_MAX_TIME)} FROM ${this.staged(write.table)}`, params: [] };
  }

  /** Snowflake: the staged groups into the table. */
  insertStaged(write: RollupWrite): WriteStatement {
    return { sql: `INSERT INTO ${this.table(write.table)} (${this.storedNames(write)}) SELECT ${this.storedItems(write, false)} FROM ${this.staged(write.table)} AS ${this.q('b')}`, params: [] };
  }

  dropTable(table: string): WriteStatement {
    return { sql: `DROP TABLE IF EXISTS ${this.table(table)}`, params: [] };
  }

  private staged(table: string): string {
    return `${this.q(this.schema)}.${this.q(`${checkRollupIdentifier(table, 'rollup table')}__build`)}`;
  }

  private storedNames(write: RollupWrite): string {
    return write.columns.map((c) => this.q(c.name)).join(', ');
  }

  /** The stored columns read from the SELECT `b`: the time bucket as a wall timestamp; named when `named`. */
  private storedItems(write: RollupWrite, named: boolean): string {
    const b = this.q('b');
    return write.columns
      .map((c) => {
        const value = `${b}.${this.q(c.key)}`;
        const item = c.time ? `CAST(${value} AS ${WALL_TIMESTAMP[this.engine]})` : value;
        return named ? `${item} AS ${this.q(c.name)}` : item;
      })
      .join(', ');
  }
}
