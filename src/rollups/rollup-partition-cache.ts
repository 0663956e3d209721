// The build records routing reads (rollup-route.ts) on every query of a node with rollups, kept in
// process under the workspace's rollups generation, so that a query answered from a rollup costs no
// store round trip. Every write to rollup_partitions announces itself by moving that generation, on any
// instance: a build's success, a deploy dropping tables, partitions leaving a moving build range
// (rollup-builds.ts), and `record` here. The generation is read with the request's admission
// generations (request-generations.ts) when the request carries them, else on its own.
//
// The generation is read before the records: a write that lands after the read moves it, so records
// read before a write are never kept under the generation that follows the write.
import { rollupsGeneration } from '../shared-state/request-generations.js';
import { generationIn, type GenerationSnapshot, type SharedState } from '../shared-state/shared-state.js';
import type { rollupPartitionsRepo, RollupPartitionRow } from '../store/rollup-partitions-repo.js';

/** Stored tables kept at most, over every workspace: past this the cache starts again (a reread each). */
const MAX_TABLES = 10_000;

type Repo = ReturnType<typeof rollupPartitionsRepo>;

export class RollupPartitionCache {
  private readonly entries = new Map<string, { generation: number; rows: Promise<readonly RollupPartitionRow[]> }>();

  constructor(
    private readonly repo: Repo,
    private readonly shared: SharedState,
  ) {}

  /** The workspace's rollups generation: moved by every write to its build records (what a rollup answer's cache key names). */
  generation(workspaceId: string, generations?: GenerationSnapshot): Promise<number> | number {
    return generationIn(this.shared, rollupsGeneration(workspaceId), generations);
  }

  /** The records of a stored table, as `repo.list` has them, read from the store only when the workspace's rollups generation has moved. */
  async list(workspaceId: string, table: string, generations?: GenerationSnapshot): Promise<readonly RollupPartitionRow[]> {
    const generation = await this.generation(workspaceId, generations);
    const key = `${workspaceId}\u0000${table}`;
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) return hit.rows;
    const rows = this.repo.list(workspaceId, table);
    if (this.entries.size >= MAX_TABLES) this.entries.clear();
    this.entries.set(key, { generation, rows });
    // A failed read is not kept: the next query reads again.
    rows.catch(() => {
      if (this.entries.get(key)?.rows === rows) this.entries.delete(key);
    });
    return rows;
  }

  /** Records a partition's build (repo.record) and announces it. */
  async record(row: RollupPartitionRow): Promise<void> {
    await this.repo.record(row);
    await this.changed(row.workspace_id);
  }

  /** Announces, to every instance, that the workspace's build records changed (after the write is committed). */
  changed(workspaceId: string): Promise<void> {
    return this.shared.bump(rollupsGeneration(workspaceId));
  }
}
