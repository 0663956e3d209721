// Rollup builds as durable jobs, on both metadata stores, from a real DuckDB source into a real rollup
// file: a deploy plans and the build loop builds; a refresh rebuilds only the partition still open; a
// changed definition is a new table and the old one is dropped (by the instance holding the file); a
// failing build keeps the last good rows and shows the row failed with its error, retried later.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rollupTableName } from '../../src/core/semantic/rollup-table.js';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { rollupStorePath } from '../../src/rollups/rollup-store.js';
import { rollupPartitionsRepo } from '../../src/store/rollup-partitions-repo.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { buildService, buildSuite, eventsModel } from './build-source.js';

const DAYS = 3;
const HOUR = 3_600_000;

describe.each(METADATA_STORES)('rollup builds on $name', (metadata) => {
  let model = eventsModel();
  const suite = buildSuite(metadata, DAYS, () => model);
  const { dir, events } = suite;
  let t: StoreTestApp;
  let workspaceId: string;
  let builds: ReturnType<typeof buildService>;
  let scheduler: RollupBuildScheduler;
  let sourceRows = 0;

  const table = (name: string) => rollupTableName(model, model.nodes.get('events')!.rollups.find((r) => r.name === name)!);
  /** Ticks until nothing is due; the builds recorded. */
  const drain = async () => {
    let recorded = 0;
    for (let n = await scheduler.tick(); n > 0; n = await scheduler.tick()) recorded += n;
    return recorded;
  };
  const stored = async (name: string) => {
    const store = await builds.stores.of(workspaceId);
    const result = await store.query(`SELECT CAST(SUM(event_count) AS INTEGER) AS n FROM "${table(name)}"`, [], 1);
    return Number(result.rows[0]!['n']);
  };
  const status = async (name: string) => (await builds.service.list(workspaceId)).find((s) => s.rollup === name)!;

  beforeAll(async () => {
    ({ t, builds, sourceRows } = suite);
    workspaceId = (await seedWorkspace(t.services)).id;
    scheduler = new RollupBuildScheduler(builds.repo, builds.service, t.clock, 60_000, { pollMs: 60_000 });
  });

  it('a deploy plans each partition of the source span and the loop builds them all', async () => {
    const { planned, dropped } = await builds.service.deployed(workspaceId, model);
    // The daily rollup's partitions are the days the source holds rows in; the whole table is one more.
    expect(planned).toBe(DAYS + 1);
    expect(dropped).toEqual([]);
    expect(await drain()).toBe(DAYS + 1);
    expect(await builds.started()).toBe(DAYS + 1);
    expect(await stored('daily')).toBe(sourceRows);
    expect(await stored('totals')).toBe(sourceRows);
    const daily = await status('daily');
    expect(daily).toMatchObject({ state: 'ready', partitions: DAYS, lastError: null });
    expect(daily.rows).toBeGreaterThan(0);
    // Refreshed hourly: the open partition is next due an hour after its build.
    expect(daily.nextRefreshAt!.getTime() - daily.lastBuiltAt!.getTime()).toBe(HOUR);
    // An on_deploy rollup waits for the next deploy.
    expect(await status('totals')).toMatchObject({ state: 'ready', partitions: 1, nextRefreshAt: null });
    const recorded = await rollupPartitionsRepo(t.store.db).list(workspaceId, table('daily'));
    expect(recorded.map((p) => p.row_count).reduce((a, b) => a + b, 0)).toBe(daily.rows);
  });

  it('a refresh rebuilds only the partition that was open, not the complete ones nor the on_deploy table', async () => {
    const before = await rollupPartitionsRepo(t.store.db).list(workspaceId, table('daily'));
    expect(await drain()).toBe(0);
    t.clock.advance(HOUR + 60_000);
    await events.add([t.clock.now()]);
    sourceRows += 1;
    const startedBefore = await builds.started();
    const recorded = await drain();
    // The open partition (and, if the hour crossed midnight, the new day's) and nothing else.
    expect(recorded).toBeGreaterThanOrEqual(1);
    expect(await builds.started()).toBe(startedBefore + recorded);
    const after = await rollupPartitionsRepo(t.store.db).list(workspaceId, table('daily'));
    const complete = before.slice(0, DAYS - 1);
    for (const partition of complete) expect(after.find((p) => p.partition_start === partition.partition_start)!.built_at).toEqual(partition.built_at);
    expect(after.find((p) => p.partition_start === before.at(-1)!.partition_start)!.built_at.getTime()).toBeGreaterThan(before.at(-1)!.built_at.getTime());
    expect(await stored('daily')).toBe(sourceRows);
    // The on_deploy table still has the rows of the deploy's build.
    expect(await stored('totals')).toBe(sourceRows - 1);
  });

  it('a changed definition builds a new table and drops the old one', async () => {
    const oldTable = table('totals');
    model = eventsModel('measures: [event_count, total]');
    expect(table('totals')).not.toBe(oldTable);
    const { dropped } = await builds.service.deployed(workspaceId, model);
    expect(dropped).toEqual([oldTable]);
    const store = await builds.stores.of(workspaceId);
    expect(await store.columnTypes(oldTable)).toBeUndefined();
    expect(await rollupPartitionsRepo(t.store.db).list(workspaceId, oldTable)).toEqual([]);
    expect(await drain()).toBeGreaterThanOrEqual(1);
    expect(await stored('totals')).toBe(sourceRows);
    expect((await builds.service.list(workspaceId)).map((s) => s.table).sort()).toEqual([table('daily'), table('totals')].sort());
  });

  it('a definition changed by a deploy on an instance without the file is dropped by the instance that builds', async () => {
    const oldTable = table('totals');
    const deployerDir = path.join(dir, 'deployer');
    const deployer = buildService(t.store, t.clock, deployerDir, events, () => model);
    model = eventsModel('measures: [total]');
    expect((await deployer.service.deployed(workspaceId, model)).dropped).toEqual([oldTable]);
    // The deploying instance never built, so it has no rollup file, and opens none.
    expect(existsSync(rollupStorePath(deployerDir, workspaceId))).toBe(false);
    const store = await builds.stores.of(workspaceId);
    expect(await store.columnTypes(oldTable)).toBeDefined();
    expect(await drain()).toBeGreaterThanOrEqual(1);
    expect(await store.columnTypes(oldTable)).toBeUndefined();
    expect((await store.tables()).sort()).toEqual([table('daily'), table('totals')].sort());
    await deployer.stores.close();
  });

  it('a deploy during the build of an on_deploy rollup makes it due again once that build ends', async () => {
    expect(await drain()).toBe(0);
    await builds.service.deployed(workspaceId, model);
    const claimed = await builds.repo.claimDue(t.clock.now(), 60_000, 10);
    const totals = claimed.find((row) => row.table_name === table('totals'))!;
    expect(totals).toBeDefined();
    t.clock.advance(1000);
    // Another deploy while the build reads the source: the build's rows may predate it.
    await builds.service.deployed(workspaceId, model);
    for (const row of claimed) expect(await builds.service.runClaimed(row)).toBe(true);
    const [after] = await builds.repo.listTable(workspaceId, table('totals'));
    expect(after).toMatchObject({ state: 'ready', claimed_by: null });
    expect(after!.next_run_at!.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await drain()).toBeGreaterThanOrEqual(1);
    expect((await builds.repo.listTable(workspaceId, table('totals')))[0]!.next_run_at).toBeNull();
  });

  it('a failing build keeps the last good rows, shows the error and is retried later', async () => {
    await events.change(async (run) => {
      await run('DROP TABLE events');
    });
    t.clock.advance(HOUR + 60_000);
    const rowsBefore = await stored('daily');
    expect(await drain()).toBeGreaterThanOrEqual(1);
    const daily = await status('daily');
    expect(daily.state).toBe('failed');
    expect(daily.lastError).toMatch(/events/i);
    expect(await stored('daily')).toBe(rowsBefore);
    const failed = (await builds.repo.listTable(workspaceId, table('daily'))).filter((r) => r.state === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const row of failed) {
      expect(row.attempts).toBe(1);
      expect(row.claimed_by).toBeNull();
      // Retried after 30 s, not at once.
      expect(row.next_run_at!.getTime()).toBeGreaterThan(t.clock.now().getTime() + 20_000);
    }
    expect(await drain()).toBe(0);
    const text = await builds.registry.metrics();
    expect(text).toMatch(/svc_rollup_builds_total\{outcome="error"\} [1-9]/);
    expect(text).toMatch(/svc_rollup_build_duration_seconds_count\{outcome="success"\} [1-9]/);
  });
});
