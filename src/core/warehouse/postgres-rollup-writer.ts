// The PostgreSQL rollup writer (rollup-writer.ts): one pooled connection per write, in a READ WRITE
// transaction of its own (the session's default stays read-only) under `SET LOCAL statement_timeout`,
// stopped by a cancel request at the time limit or on the caller's cancel, wiped (DISCARD ALL) after,
// as every run's connection is (postgres.ts). MVCC keeps readers on the old rows until the commit.
import type pg from 'pg';
import { statementRefused } from './errors.js';
import { plainSelectText } from './postgres-capped-select.js';
import { pgTypes } from './postgres-values.js';
import { RollupWriteSql, type WriteStatement } from './rollup-write-sql.js';
import type { RollupTimeRange, RollupWrite, RollupWriteOptions, RollupWriter, RollupWriteResult } from './rollup-writer.js';
import type { WarehouseValue } from './types.js';

const ENGINE = 'PostgreSQL';

/** A connection of the driver's pool for one write; `check` throws once the write was stopped. */
export type PostgresWriteSession = <T>(options: RollupWriteOptions, body: (client: pg.PoolClient, check: () => void) => Promise<T>) => Promise<T>;

export class PostgresRollupWriter implements RollupWriter {
  private readonly sql: RollupWriteSql;

  constructor(
    readonly schema: string,
    private readonly session: PostgresWriteSession,
  ) {
    this.sql = new RollupWriteSql('postgres', schema);
  }

  async replace(write: RollupWrite, options: RollupWriteOptions): Promise<RollupWriteResult> {
    // The model's SQL runs here in a transaction that can write: one plain SELECT (no data-modifying
    // WITH, no second statement) or nothing.
    if ((await plainSelectText(write.select.sql)) === null) throw statementRefused(ENGINE, 'a rollup is built from one plain SELECT');
    return this.session(options, async (client, check) => {
      // Created on the first build only, in a short transaction of its own under a lock of the schema:
      // builds of a new schema's tables run at once, and two CREATEs of one name race in the catalog.
      if ((await run(client, this.sql.tableExists(write.table))).length === 0) {
        await begin(client, options.timeoutMs);
        await run(client, this.sql.lockSchema());
        if ((await run(client, this.sql.schemaExists())).length === 0) await run(client, this.sql.createSchema());
        await run(client, this.sql.createTable(write));
        await client.query('COMMIT');
        check();
      }
      await begin(client, options.timeoutMs);
      await run(client, this.sql.deleteRows(write.table, write.target));
      check();
      const [counted] = await run(client, this.sql.insertCounted(write));
      const rows = Number(counted?.[0] ?? 0);
      const latest = counted?.[1] ?? null;
      check();
      if (rows > write.maxRows) {
        await client.query('ROLLBACK');
        return { rows, sourceMaxTime: null, truncated: true };
      }
      await client.query('COMMIT');
      return { rows, sourceMaxTime: latest === null ? null : String(latest), truncated: false };
    });
  }

  async clear(table: string, range: RollupTimeRange, options: RollupWriteOptions): Promise<void> {
    await this.session(options, async (client) => {
      await begin(client, options.timeoutMs);
      if ((await run(client, this.sql.tableExists(table))).length === 0) return;
      await run(client, this.sql.deleteRows(table, range));
      await client.query('COMMIT');
    });
  }

  async drop(table: string, options: RollupWriteOptions): Promise<void> {
    await this.session(options, async (client) => {
      await begin(client, options.timeoutMs);
      await run(client, this.sql.dropTable(table));
      await client.query('COMMIT');
    });
  }
}

async function begin(client: pg.PoolClient, timeoutMs: number): Promise<void> {
  await client.query(`BEGIN READ WRITE; SET LOCAL statement_timeout = ${Math.ceil(timeoutMs)}`);
}

async function run(client: pg.PoolClient, statement: WriteStatement): Promise<WarehouseValue[][]> {
  const result = await client.query<WarehouseValue[]>({ text: statement.sql, values: [...statement.params], rowMode: 'array', types: pgTypes });
  return result.rows;
}
