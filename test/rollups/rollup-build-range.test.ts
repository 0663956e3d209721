// A rollup over a moving build range ("last 2 days"): as days pass, a refresh plans the new day's
// partition and removes the one that left the range, with its build record and its stored rows; the
// build records routing keeps in process (rollup-partition-cache.ts) forget it, and a dropped rollup's.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { rollupTableName } from '../../src/core/semantic/rollup-table.js';
import { addUnits, formatWall, startOf } from '../../src/core/semantic/time.js';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { rollupPartitionsRepo } from '../../src/store/rollup-partitions-repo.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/metadata-stores.js';
import { buildSuite } from './build-source.js';

const DAY = 86_400_000;

const RECENT_CML = `node events {
  connection: warehouse  table: main.events
  dimension id { type: number  primary_key: true }
  dimension happened_at { type: timestamp }
  measure event_count { type: count }
  rollup recent { measures: [event_count]  time: happened_at  grain: hour  partition: day  build_range: "last 2 days"  refresh: "1 hour" }
}
`;

describe.each(METADATA_STORES)('a moving build range on $name', (metadata) => {
  const { model } = compileModel([{ path: 'events.cml', content: RECENT_CML }]);
  const table = rollupTableName(model!, model!.nodes.get('events')!.rollups[0]!);
  const suite = buildSuite(metadata, 5, () => model!);

  it('keeps the partitions of the range: the new day is built, the one out of range removed', async () => {
    const { t, builds, events } = suite;
    const workspaceId = (await seedWorkspace(t.services)).id;
    const loop = new RollupBuildScheduler(builds.repo, builds.service, t.clock, 60_000, { pollMs: 60_000 });
    const drain = async () => {
      while ((await loop.tick()) > 0);
    };
    /** Day starts (UTC) `from`..0 days from the clock's day. */
    const days = (from: number) => Array.from({ length: 1 - from }, (_, i) => formatWall(addUnits('day', startOf('day', t.clock.now()), from + i)));
    const stored = async () => {
      const store = await builds.stores.of(workspaceId);
      const result = await store.query(`SELECT strftime(MIN(happened_at__hour), '%Y-%m-%d %H:%M:%S.000') AS first, CAST(SUM(event_count) AS INTEGER) AS n FROM "${table}"`, [], 1);
      return result.rows[0]!;
    };

    await builds.service.deployed(workspaceId, model!);
    await drain();
    expect((await builds.repo.listTable(workspaceId, table)).map((r) => r.partition_start)).toEqual(days(-2));
    expect((await stored())['first']).toBe(days(-2)[0]);

    t.clock.advance(DAY);
    await events.add([t.clock.now()]);
    await drain();
    expect((await builds.repo.listTable(workspaceId, table)).map((r) => r.partition_start)).toEqual(days(-2));
    expect((await rollupPartitionsRepo(t.store.db).list(workspaceId, table)).map((p) => p.partition_start)).toEqual(days(-2));
    // The day that left the range left the file too.
    expect((await stored())['first']).toBe(days(-2)[0]);
  });

  it('routing no longer counts a partition that left the range, or a dropped rollup, though their records were kept before', async () => {
    const { t, builds } = suite;
    const workspaceId = (await seedWorkspace(t.services)).id;
    const loop = new RollupBuildScheduler(builds.repo, builds.service, t.clock, 60_000, { pollMs: 60_000 });
    // The earlier test's workspace first: what is due there now is not this test's.
    while ((await loop.tick()) > 0);
    await builds.service.deployed(workspaceId, model!);
    while ((await loop.tick()) > 0);
    const kept = async () => (await builds.partitionCache!.list(workspaceId, table)).map((p) => p.partition_start);
    const before = await kept();
    expect(before).toHaveLength(3);
    t.clock.advance(DAY);
    // Planning alone (no build) moves the range: the oldest day's records go.
    await builds.service.plan(workspaceId, model!, model!.nodes.get('events')!.rollups[0]!, false);
    expect(await kept()).toEqual(before.slice(1));
    // A deploy without the rollup drops its table, and its records with it.
    const { model: without } = compileModel([{ path: 'events.cml', content: RECENT_CML.replace(/^ {2}rollup .*\n/m, '') }]);
    expect(without!.nodes.get('events')!.rollups).toEqual([]);
    await builds.service.deployed(workspaceId, without!);
    expect(await kept()).toEqual([]);
  });
});
