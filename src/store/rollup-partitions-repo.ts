// Records of built rollup partitions (migration 0020): each build of a partition replaces its record.
import type { Kysely } from 'kysely';
import type { Database, RollupPartitionsTable } from './schema.js';

export type RollupPartitionRow = RollupPartitionsTable;

export function rollupPartitionsRepo(db: Kysely<Database>) {
  return {
    /** Records a build of a partition ('' start and end for a table built whole), replacing the previous one. */
    async record(row: RollupPartitionRow): Promise<void> {
      await db
        .insertInto('rollup_partitions')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'table_name', 'partition_start']).doUpdateSet({
            partition_end: row.partition_end,
            row_count: row.row_count,
            built_at: row.built_at,
            source_max_time: row.source_max_time,
            duration_ms: row.duration_ms,
          }),
        )
        .execute();
    },

    /** The partitions built of a stored table, in time order. */
    async list(workspaceId: string, table: string): Promise<RollupPartitionRow[]> {
      return db.selectFrom('rollup_partitions').selectAll().where('workspace_id', '=', workspaceId).where('table_name', '=', table).orderBy('partition_start').execute();
    },

    /** Every built partition of the workspace's rollups. */
    async listWorkspace(workspaceId: string): Promise<RollupPartitionRow[]> {
      return db.selectFrom('rollup_partitions').selectAll().where('workspace_id', '=', workspaceId).execute();
    },
  };
}
