// Rollup build jobs (migration 0021): rows planned at deploys and after builds, claimed as signals and
// scheduled deliveries are (FOR UPDATE SKIP LOCKED, a lease on the store's clock, a token), so a row is
// built by one instance at a time and only the holder of the current claim records its outcome.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, RollupBuildsTable } from './schema.js';
import { claimable, leaseEnd } from './store-clock.js';

export type RollupBuildRow = Selectable<RollupBuildsTable>;
export type ClaimedRollupBuild = RollupBuildRow & { claim: string };
type Db = Kysely<Database> | Transaction<Database>;

/** A row as planned: its table and partition, and when it is first due. */
export interface PlannedRow {
  workspace_id: string;
  table_name: string;
  node: string;
  rollup: string;
  partition_start: string;
  partition_end: string;
  next_run_at: Date | null;
}

/** What a build's end records on its row. */
export type BuildOutcome = Partial<Pick<RollupBuildRow, 'state' | 'next_run_at' | 'attempts' | 'last_error' | 'last_built_at' | 'row_count'>>;

export function rollupBuildsRepo(db: Kysely<Database>) {
  return {
    async listWorkspace(workspaceId: string): Promise<RollupBuildRow[]> {
      return db.selectFrom('rollup_builds').selectAll().where('workspace_id', '=', workspaceId).orderBy('node').orderBy('rollup').orderBy('partition_start').execute();
    },

    async listTable(workspaceId: string, table: string): Promise<RollupBuildRow[]> {
      return db.selectFrom('rollup_builds').selectAll().where('workspace_id', '=', workspaceId).where('table_name', '=', table).orderBy('partition_start').execute();
    },

    /** The tables the workspace's planned builds are of. */
    async tables(workspaceId: string): Promise<string[]> {
      const rows = await db.selectFrom('rollup_builds').select('table_name').distinct().where('workspace_id', '=', workspaceId).execute();
      return rows.map((r) => r.table_name);
    },

    /** Adds rows not planned yet; rows already there keep their state and schedule. */
    async addMissing(rows: readonly PlannedRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) {
        await db.insertInto('rollup_builds').values(rows.slice(i, i + 500)).onConflict((c) => c.columns(['workspace_id', 'table_name', 'partition_start']).doNothing()).execute();
      }
    },

    /** Makes rows due at `at` (a deploy of an `on_deploy` rollup); a failed row keeps its retry time. */
    async makeDue(workspaceId: string, table: string, partitionStarts: readonly string[], at: Date): Promise<void> {
      if (partitionStarts.length === 0) return;
      await db
        .updateTable('rollup_builds')
        .set({ next_run_at: at, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('table_name', '=', table)
        .where('partition_start', 'in', partitionStarts)
        .where('state', '!=', 'failed')
        .execute();
    },

    /** Deletes the rows (and build records) of tables no longer in the model; returns the tables they were of. */
    /** "Build now": every row of the table due at `at`, a failed one too (its attempts stand); false when it has none. */
    async makeTableDue(workspaceId: string, table: string, at: Date): Promise<boolean> {
      const result = await db.updateTable('rollup_builds').set({ next_run_at: at, updated_at: at }).where('workspace_id', '=', workspaceId).where('table_name', '=', table).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteTablesOtherThan(workspaceId: string, keep: readonly string[]): Promise<string[]> {
      let query = db.deleteFrom('rollup_builds').where('workspace_id', '=', workspaceId);
      if (keep.length > 0) query = query.where('table_name', 'not in', keep);
      const rows = await query.returning('table_name').execute();
      const dropped = [...new Set(rows.map((r) => r.table_name))];
      // Their build records go too: provenance never names a table that is no longer there.
      if (dropped.length > 0) await db.deleteFrom('rollup_partitions').where('workspace_id', '=', workspaceId).where('table_name', 'in', dropped).execute();
      return dropped;
    },

    /** Deletes the rows and build records of one table's partitions no longer planned (out of a moving build range). */
    async deletePartitions(workspaceId: string, table: string, partitionStarts: readonly string[]): Promise<void> {
      if (partitionStarts.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const from of ['rollup_builds', 'rollup_partitions'] as const) {
          await trx.deleteFrom(from).where('workspace_id', '=', workspaceId).where('table_name', '=', table).where('partition_start', 'in', partitionStarts).execute();
        }
      });
    },

    /**
     * Claims up to `limit` builds: rows due and unheld, and rows whose holder's lease ran out (it died
     * mid-build: the build is retried). Rows another transaction is claiming are skipped; the claim
     * sets the lease, a fresh token and the `building` state in the same transaction.
     */
    async claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedRollupBuild[]> {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('rollup_builds')
          .select(['workspace_id', 'table_name', 'partition_start'])
          .where(claimable(now))
          .orderBy('next_run_at')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        const claimed: ClaimedRollupBuild[] = [];
        for (const key of due) {
          const claim = randomUUID();
          const row = await trx
            .updateTable('rollup_builds')
            .set({ claimed_until: leaseEnd(leaseMs), claimed_by: claim, state: 'building', updated_at: now })
            .where('workspace_id', '=', key.workspace_id)
            .where('table_name', '=', key.table_name)
            .where('partition_start', '=', key.partition_start)
            .returningAll()
            .executeTakeFirstOrThrow();
          claimed.push({ ...row, claim });
        }
        return claimed;
      });
    },

    /**
     * Records a build's outcome and ends the claim, in `trx`; false when the claim is no longer the
     * holder's (its lease ran out and another instance took the row): then nothing is recorded.
     */
    async finish(trx: Db, row: ClaimedRollupBuild, outcome: BuildOutcome, at: Date): Promise<boolean> {
      const updated = await trx
        .updateTable('rollup_builds')
        .set({ ...outcome, claimed_until: null, claimed_by: null, updated_at: at })
        .where('workspace_id', '=', row.workspace_id)
        .where('table_name', '=', row.table_name)
        .where('partition_start', '=', row.partition_start)
        .where('claimed_by', '=', row.claim)
        .returning('table_name')
        .executeTakeFirst();
      return updated !== undefined;
    },

    /** The row as it is now, locked until `trx` ends. */
    async lockRow(trx: Db, row: RollupBuildRow): Promise<RollupBuildRow | undefined> {
      return trx
        .selectFrom('rollup_builds')
        .selectAll()
        .where('workspace_id', '=', row.workspace_id)
        .where('table_name', '=', row.table_name)
        .where('partition_start', '=', row.partition_start)
        .forUpdate()
        .executeTakeFirst();
    },

    async deleteRow(row: RollupBuildRow): Promise<void> {
      await db.deleteFrom('rollup_builds').where('workspace_id', '=', row.workspace_id).where('table_name', '=', row.table_name).where('partition_start', '=', row.partition_start).execute();
    },

    transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },
  };
}

export type RollupBuildsRepo = ReturnType<typeof rollupBuildsRepo>;
