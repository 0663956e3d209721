// Rollup builds as durable jobs: a deploy plans the model's builds (rollup-plan.ts) as rows of
// rollup_builds and drops the tables of definitions no longer in it; the build loop
// (rollup-build-scheduler.ts) claims due rows and runs each here: buildRollup from the node's source
// into where its connection stores rollups (the workspace's rollup file, or the connection's rollup
// schema: rollup-stores.ts), under a time limit of its own. A success is recorded on the row and
// in rollup_partitions and schedules the next refresh; a failure leaves the last good rows (a partition
// is replaced atomically), marks the row failed with its error and retries it later, waiting longer
// after each failure in a row.
import type { Clock } from '../clock.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import type { Warehouse } from '../core/warehouse/types.js';
import type { RollupBuildMetrics } from '../observability/rollup-build-metrics.js';
import type { ClaimedRollupBuild, RollupBuildRow, RollupBuildsRepo } from '../store/rollup-builds-repo.js';
import { rollupPartitionsRepo } from '../store/rollup-partitions-repo.js';
import { buildRollup } from './build-rollup.js';
import { dueOnDeploy, nextBuildAfter, parseWall, plannedBuilds, retryAfter, rollupTables, WHOLE_TABLE } from './rollup-plan.js';
import { sourceSpan } from './rollup-source-span.js';
import type { RollupStores } from './rollup-stores.js';

/** Groups one build may store at most: past this a rollup needs a (finer) partition. */
export const ROLLUP_BUILD_MAX_ROWS = 5_000_000;
/** How long the source's time span may take to read when a rollup is planned. */
const SPAN_TIMEOUT_MS = 30_000;

export interface RollupBuildDeps {
  readonly repo: RollupBuildsRepo;
  readonly models: { live(workspaceId: string): Promise<{ readonly model: SemanticModel }> };
  /** The warehouse a node's connection names. */
  readonly source: (workspaceId: string, connection: string) => Promise<Warehouse>;
  readonly stores: RollupStores;
  readonly clock: Clock;
  readonly metrics: RollupBuildMetrics;
  /** Time limit of one build (SVC_ROLLUP_BUILD_TIMEOUT_MS). */
  readonly timeoutMs: number;
  readonly maxRows?: number;
  /** Tells every instance's routing that the workspace's build records changed (rollup-partition-cache.ts). */
  readonly partitionsChanged?: (workspaceId: string) => Promise<void>;
}

/** What the console and the API show of one rollup: its builds taken together. */
export interface RollupBuildStatus {
  readonly node: string;
  readonly rollup: string;
  readonly table: string;
  /** failed if any partition's last build failed, else building, else pending, else ready. */
  readonly state: RollupBuildRow['state'];
  readonly partitions: number;
  /** Rows stored over its built partitions. */
  readonly rows: number;
  readonly lastBuiltAt: Date | null;
  /** The earliest build due; null when none is (on_deploy, or every partition complete). */
  readonly nextRefreshAt: Date | null;
  readonly lastError: string | null;
}

export class RollupBuildService {
  constructor(private readonly deps: RollupBuildDeps) {}

  /** Plans a newly deployed model: new builds due now, `on_deploy` ones made due, dropped definitions removed. */
  async deployed(workspaceId: string, model: SemanticModel): Promise<{ planned: number; dropped: string[] }> {
    const tables = rollupTables(model);
    let planned = 0;
    for (const { rollup } of tables) planned += await this.plan(workspaceId, model, rollup, true);
    const dropped = await this.deps.repo.deleteTablesOtherThan(
      workspaceId,
      tables.map((t) => t.table),
    );
    // Dropped here from every rollup schema of the workspace's connections, and from the file when this
    // instance holds it; otherwise by the instance that builds, at its next build of a new table (dropOrphans).
    const stores = dropped.length > 0 ? await this.deps.stores.every(workspaceId) : [];
    for (const store of stores) for (const table of dropped) await store.drop(table);
    if (dropped.length > 0) await this.announce(workspaceId);
    return { planned, dropped };
  }

  /**
   * Adds the rows of partitions not planned yet (due now) and removes those that left a moving build
   * range; at a deploy, makes an `on_deploy` rollup's open partitions due. Returns the builds planned.
   */
  async plan(workspaceId: string, model: SemanticModel, rollup: Rollup, deploy: boolean): Promise<number> {
    const now = this.deps.clock.now();
    // The source's span is read only where it bounds the plan: a partitioned rollup over all its rows.
    const span = rollup.partition && rollup.buildRange.kind === 'all' ? await this.spanOf(workspaceId, model, rollup, now) : undefined;
    const builds = plannedBuilds(model, rollup, now, span);
    const table = builds[0]?.table;
    if (!table) return 0;
    const existing = await this.deps.repo.listTable(workspaceId, table);
    const known = new Set(existing.map((row) => row.partition_start));
    const planned = new Set(builds.map((b) => b.start));
    await this.deps.repo.addMissing(
      builds.filter((b) => !known.has(b.start)).map((b) => ({ workspace_id: workspaceId, table_name: table, node: rollup.node, rollup: rollup.name, partition_start: b.start, partition_end: b.end, next_run_at: now })),
    );
    // Older partitions go only when the plan knows where the rows start (a build range, or the source's
    // span): an unreachable source must not make a whole history look out of range.
    if (rollup.buildRange.kind !== 'all' || span) await this.dropPartitionsBefore(workspaceId, model, rollup, table, existing, builds[0]!.start);
    if (deploy) {
      const due = existing.filter((row) => planned.has(row.partition_start) && dueOnDeploy(rollup, row.partition_end, row.last_built_at));
      await this.deps.repo.makeDue(workspaceId, table, due.map((row) => row.partition_start), now);
    }
    return builds.length;
  }

  /** Removes the partitions before `first` (planned no more): their rows, build records and stored rows. */
  private async dropPartitionsBefore(workspaceId: string, model: SemanticModel, rollup: Rollup, table: string, existing: readonly RollupBuildRow[], first: string): Promise<void> {
    const gone = existing.filter((row) => row.partition_start !== WHOLE_TABLE && row.partition_start < first);
    if (gone.length === 0) return;
    await this.deps.repo.deletePartitions(workspaceId, table, gone.map((row) => row.partition_start));
    await this.announce(workspaceId);
    const timeColumn = rollup.columns.find((c) => c.kind === 'time')?.name;
    const store = await this.deps.stores.existing(workspaceId, model.nodes.get(rollup.node)!.connection);
    if (timeColumn && store) await store.clear(table, { timeColumn, range: { start: parseWall(gone[0]!.partition_start), end: parseWall(first) } });
  }

  /** Builds one claimed row; false when nothing was recorded (the definition is gone, or the claim was taken over). */
  async runClaimed(row: ClaimedRollupBuild): Promise<boolean> {
    const { model } = await this.deps.models.live(row.workspace_id);
    const rollup = rollupTables(model).find((t) => t.table === row.table_name)?.rollup;
    if (!rollup) {
      // Deployed away since it was planned: the deploy's clean-up removes its table.
      await this.deps.repo.deleteRow(row);
      return false;
    }
    const { metrics, clock } = this.deps;
    metrics.buildStarted();
    const started = performance.now();
    try {
      const connection = model.nodes.get(rollup.node)!.connection;
      const store = await this.deps.stores.of(row.workspace_id, connection);
      const source = await this.deps.source(row.workspace_id, connection);
      const fresh = (await store.columnTypes(row.table_name)) === undefined;
      const partition = row.partition_start === WHOLE_TABLE ? undefined : { start: parseWall(row.partition_start), end: parseWall(row.partition_end) };
      const built = await buildRollup({ model, rollup, source, store, now: clock.now(), maxRows: this.deps.maxRows ?? ROLLUP_BUILD_MAX_ROWS, timeoutMs: this.deps.timeoutMs, ...(partition ? { partition } : {}) });
      const seconds = (performance.now() - started) / 1000;
      metrics.buildFinished('success', seconds);
      const recorded = await this.recordSuccess(row, rollup, built.rows, built.sourceMaxTime, seconds);
      if (recorded) await this.announce(row.workspace_id);
      // A new table is often a changed definition deployed on another instance: drop what it replaced.
      if (recorded && fresh) await this.dropOrphans(row.workspace_id);
      // A refresh of a partition that was open may find time has moved into a new one: plan it.
      if (recorded && rollup.partition && row.last_built_at !== null) await this.plan(row.workspace_id, model, rollup, false);
      return recorded;
    } catch (error) {
      metrics.buildFinished('error', (performance.now() - started) / 1000);
      const now = clock.now();
      const attempts = row.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      return this.deps.repo.transaction((trx) => this.deps.repo.finish(trx, row, { state: 'failed', attempts, last_error: message, next_run_at: retryAfter(attempts, now) }, now));
    }
  }

  /**
   * Tells routing the build records changed, after they are committed. A failure to tell is not the
   * build's: the shared state then owes an epoch bump that makes every cache read through (shared-state.ts).
   */
  private async announce(workspaceId: string): Promise<void> {
    try {
      await this.deps.partitionsChanged?.(workspaceId);
    } catch {
      // See above: nothing cached survives the epoch bump owed.
    }
  }

  private async recordSuccess(row: ClaimedRollupBuild, rollup: Rollup, rows: number, sourceMaxTime: string | null, seconds: number): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.repo.transaction(async (trx) => {
      const outcome = { state: 'ready' as const, attempts: 0, last_error: null, last_built_at: now, row_count: rows, next_run_at: nextBuild(rollup, row, await this.deps.repo.lockRow(trx, row), now) };
      if (!(await this.deps.repo.finish(trx, row, outcome, now))) return false;
      await rollupPartitionsRepo(trx).record({
        workspace_id: row.workspace_id,
        table_name: row.table_name,
        node: row.node,
        rollup: row.rollup,
        partition_start: row.partition_start,
        partition_end: row.partition_end,
        row_count: rows,
        built_at: now,
        source_max_time: sourceMaxTime,
        duration_ms: Math.round(seconds * 1000),
      });
      return true;
    });
  }

  /** Drops the stored tables of the workspace no planned build is of (definitions deployed away), in each of its storages. */
  async dropOrphans(workspaceId: string): Promise<string[]> {
    const planned = new Set(await this.deps.repo.tables(workspaceId));
    const orphans: string[] = [];
    for (const store of await this.deps.stores.every(workspaceId)) {
      try {
        orphans.push(...(await store.dropOthers(planned)));
      } catch {
        // Another connection's warehouse out of reach: its orphans wait for the next new table's build,
        // and this build, recorded already, stands.
      }
    }
    return orphans;
  }

  /** Each rollup's builds of the workspace, taken together, in node and rollup order. */
  async list(workspaceId: string): Promise<RollupBuildStatus[]> {
    const byTable = new Map<string, RollupBuildRow[]>();
    for (const row of await this.deps.repo.listWorkspace(workspaceId)) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row]);
    return [...byTable.entries()].map(([table, rows]) => statusOf(table, rows));
  }

  private async spanOf(workspaceId: string, model: SemanticModel, rollup: Rollup, now: Date) {
    try {
      const source = await this.deps.source(workspaceId, model.nodes.get(rollup.node)!.connection);
      return await sourceSpan(model, rollup, source, now, SPAN_TIMEOUT_MS);
    } catch {
      // Planned without it: from the build range's start, or the current partition only.
      return undefined;
    }
  }
}

/**
 * The next build after a success: by the refresh rule, or sooner when a deploy made the row due while
 * it was being built (the build read the source before that deploy asked for a fresh one).
 */
function nextBuild(rollup: Rollup, claimed: ClaimedRollupBuild, current: RollupBuildRow | undefined, now: Date): Date | null {
  const byRule = nextBuildAfter(rollup, claimed.partition_end, now);
  const madeDue = current && current.updated_at > claimed.updated_at ? current.next_run_at : null;
  if (madeDue === null) return byRule;
  return byRule === null || madeDue < byRule ? madeDue : byRule;
}

const STATE_ORDER: readonly RollupBuildRow['state'][] = ['failed', 'building', 'pending', 'ready'];

function statusOf(table: string, rows: readonly RollupBuildRow[]): RollupBuildStatus {
  const latest = (dates: (Date | null)[], pick: (a: number, b: number) => number) =>
    dates.reduce<Date | null>((best, d) => (d === null ? best : best === null ? d : new Date(pick(best.getTime(), d.getTime()))), null);
  const failed = rows.filter((r) => r.last_error !== null).sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime());
  return {
    node: rows[0]!.node,
    rollup: rows[0]!.rollup,
    table,
    state: STATE_ORDER.find((state) => rows.some((r) => r.state === state)) ?? 'pending',
    partitions: rows.length,
    rows: rows.reduce((sum, r) => sum + Number(r.row_count ?? 0), 0),
    lastBuiltAt: latest(rows.map((r) => r.last_built_at), Math.max),
    nextRefreshAt: latest(rows.map((r) => r.next_run_at), Math.min),
    lastError: failed[0]?.last_error ?? null,
  };
}
