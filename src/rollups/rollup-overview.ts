// What GET /api/rollups shows of each rollup of the deployed model (its builds taken together, its
// built partitions and its answer counts), and "build now": every partition of a rollup made due.
// Sizes are the workspace's rollup file as a whole: DuckDB keeps every rollup of the workspace in one
// file, and a per-table share is not cheap to read. A rollup stored in its connection's rollup schema
// has its table's size as the warehouse reports it instead.
import { stat } from 'node:fs/promises';
import type { Clock } from '../clock.js';
import { NotFoundError } from '../core/errors.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { RollupBuildsRepo } from '../store/rollup-builds-repo.js';
import type { RollupPartitionRow } from '../store/rollup-partitions-repo.js';
import { tallyKey, type RollupAnswerCounts, type RollupAnswerTally } from './rollup-answer-counts.js';
import type { RollupBuildService, RollupBuildStatus } from './rollup-builds.js';
import { rollupTables } from './rollup-plan.js';
import { rollupStorePath } from './rollup-store.js';
import type { RollupStorage } from './rollup-storage.js';

export interface RollupOverviewDeps {
  readonly models: { live(workspaceId: string): Promise<{ readonly model: SemanticModel }> };
  readonly builds: RollupBuildService;
  readonly repo: RollupBuildsRepo;
  readonly partitions: { listWorkspace(workspaceId: string): Promise<RollupPartitionRow[]> };
  readonly answers: RollupAnswerCounts;
  readonly clock: Clock;
  readonly dataDir: string;
  /** Where the rollups of a connection's nodes are stored (rollup-stores.ts). */
  readonly stores?: { existing(workspaceId: string, connection: string): Promise<RollupStorage | undefined> };
}

export interface RollupOverview extends RollupBuildStatus {
  readonly partitionsBuilt: number;
  readonly lastBuildMs: number | null;
  /** A build is due now (queued for the build loop's next poll). */
  readonly due: boolean;
  readonly answers: RollupAnswerTally;
  /** Where its rows live: the workspace's embedded file, or its connection's rollup schema. */
  readonly storage: RollupStorage['kind'];
  /** Its table's size as the warehouse reports it (rollup schema only); null when not known. */
  readonly tableBytes: number | null;
}

const NO_ANSWERS: RollupAnswerTally = { hits: 0, misses: 0, missReasons: {} };

export class RollupOverviews {
  constructor(private readonly deps: RollupOverviewDeps) {}

  /** Each rollup of the deployed model, in node and declaration order, and the size of the workspace's rollup file (null: none yet). */
  async list(workspaceId: string): Promise<{ rollups: RollupOverview[]; fileBytes: number | null }> {
    const { model } = await this.deps.models.live(workspaceId);
    const statuses = new Map((await this.deps.builds.list(workspaceId)).map((s) => [s.table, s]));
    const built = new Map<string, RollupPartitionRow[]>();
    for (const row of await this.deps.partitions.listWorkspace(workspaceId)) built.set(row.table_name, [...(built.get(row.table_name) ?? []), row]);
    const tallies = await this.deps.answers.tallies(workspaceId);
    const now = this.deps.clock.now().getTime();
    // Where each rollup's rows live, its storage looked up once per connection.
    const stores = new Map<string, RollupStorage | undefined>();
    const placed = new Map<string, Pick<RollupOverview, 'storage' | 'tableBytes'>>();
    for (const { rollup, table } of rollupTables(model)) {
      const connection = model.nodes.get(rollup.node)!.connection;
      if (!stores.has(connection)) stores.set(connection, await this.storageOf(workspaceId, connection));
      const store = stores.get(connection);
      placed.set(table, store?.kind === 'warehouse' ? { storage: 'warehouse', tableBytes: await store.tableBytes(table) } : { storage: 'embedded', tableBytes: null });
    }
    const rollups = rollupTables(model).map(({ rollup, table }): RollupOverview => {
      // Not planned (yet): a deploy whose planning failed shows it pending, with nothing built.
      const status = statuses.get(table) ?? { node: rollup.node, rollup: rollup.name, table, state: 'pending', partitions: 0, rows: 0, lastBuiltAt: null, nextRefreshAt: null, lastError: null };
      const records = built.get(table) ?? [];
      const latest = records.reduce<RollupPartitionRow | undefined>((a, b) => (a && a.built_at >= b.built_at ? a : b), undefined);
      return { ...status, partitionsBuilt: records.length, lastBuildMs: latest ? latest.duration_ms : null, due: status.nextRefreshAt !== null && status.nextRefreshAt.getTime() <= now, answers: tallies.get(tallyKey(rollup.node, rollup.name)) ?? NO_ANSWERS, ...placed.get(table)! };
    });
    return { rollups, fileBytes: await fileSize(rollupStorePath(this.deps.dataDir, workspaceId)) };
  }

  private async storageOf(workspaceId: string, connection: string): Promise<RollupStorage | undefined> {
    try {
      return await this.deps.stores?.existing(workspaceId, connection);
    } catch {
      // A connection deleted under the model: its rollups are shown without a place.
      return undefined;
    }
  }

  /** Makes every partition of the rollup due now; its overview after. NotFoundError for a rollup the deployed model lacks. */
  async buildNow(workspaceId: string, node: string, name: string): Promise<RollupOverview> {
    const { model } = await this.deps.models.live(workspaceId);
    const found = rollupTables(model).find(({ rollup }) => rollup.node === node && rollup.name === name);
    if (!found) throw new NotFoundError(`No rollup ${name} of node ${node} in the deployed model`, 'unknown_rollup');
    // Never planned (its deploy's planning failed): planned now, due now.
    if (!(await this.deps.repo.makeTableDue(workspaceId, found.table, this.deps.clock.now()))) await this.deps.builds.plan(workspaceId, model, found.rollup, false);
    const { rollups } = await this.list(workspaceId);
    return rollups.find((r) => r.table === found.table)!;
  }
}

async function fileSize(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}
