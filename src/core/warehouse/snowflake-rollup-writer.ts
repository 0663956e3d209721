// The Snowflake rollup writer (rollup-writer.ts): one session per write (snowflake.ts), autocommit off
// and STATEMENT_TIMEOUT_IN_SECONDS set as for every run, the running statement cancelled at the time
// limit or on the caller's cancel. DDL commits by itself in Snowflake, so the schema, the table and the
// session's temporary table of the build's groups are made before the transaction; the transaction
// then counts the groups, deletes the target's rows and inserts. Readers see the old rows until the
// commit; a failure, or a session that ends without a commit, rolls it back.
import { RollupWriteSql, type WriteStatement } from './rollup-write-sql.js';
import type { RollupTimeRange, RollupWrite, RollupWriteOptions, RollupWriter, RollupWriteResult } from './rollup-writer.js';
import type { WarehouseValue } from './types.js';

/** One statement of the write's session, its rows read as the driver reads values. */
export type SnowflakeWriteRun = (statement: WriteStatement) => Promise<WarehouseValue[][]>;
/** A session of its own for one write, ended (and what it did not commit rolled back) after `body`. */
export type SnowflakeWriteSession = <T>(options: RollupWriteOptions, body: (run: SnowflakeWriteRun) => Promise<T>) => Promise<T>;

const statement = (sql: string): WriteStatement => ({ sql, params: [] });

export class SnowflakeRollupWriter implements RollupWriter {
  private readonly sql: RollupWriteSql;

  constructor(
    readonly schema: string,
    private readonly session: SnowflakeWriteSession,
  ) {
    this.sql = new RollupWriteSql('snowflake', schema);
  }

  /**
   * The statements of one replace, in order (what the golden files keep): `create` only when the table
   * does not exist yet (`tableExists` finds no row), the schema only when `schemaExists` finds none.
   */
  replaceStatements(write: RollupWrite) {
    return {
      tableExists: this.sql.tableExists(write.table),
      schemaExists: this.sql.schemaExists(),
      createSchema: this.sql.createSchema(),
      createTable: this.sql.createTable(write),
      prepare: [this.sql.stage(write), statement('BEGIN')],
      count: this.sql.countStaged(write),
      replace: [this.sql.deleteRows(write.table, write.target), this.sql.insertStaged(write), statement('COMMIT')],
    };
  }

  replace(write: RollupWrite, options: RollupWriteOptions): Promise<RollupWriteResult> {
    const { tableExists, schemaExists, createSchema, createTable, prepare, count, replace } = this.replaceStatements(write);
    return this.session(options, async (run) => {
      if ((await run(tableExists)).length === 0) {
        if ((await run(schemaExists)).length === 0) await run(createSchema);
        await run(createTable);
      }
      for (const step of prepare) await run(step);
      const [counted] = await run(count);
      const rows = Number(counted?.[0] ?? 0);
      if (rows > write.maxRows) {
        await run(statement('ROLLBACK'));
        return { rows, sourceMaxTime: null, truncated: true };
      }
      for (const step of replace) await run(step);
      const latest = counted?.[1] ?? null;
      return { rows, sourceMaxTime: latest === null ? null : String(latest), truncated: false };
    });
  }

  async clear(table: string, range: RollupTimeRange, options: RollupWriteOptions): Promise<void> {
    await this.session(options, async (run) => {
      if ((await run(this.sql.tableExists(table))).length === 0) return;
      await run(statement('BEGIN'));
      await run(this.sql.deleteRows(table, range));
      await run(statement('COMMIT'));
    });
  }

  async drop(table: string, options: RollupWriteOptions): Promise<void> {
    await this.session(options, async (run) => {
      await run(this.sql.dropTable(table));
    });
  }
}
