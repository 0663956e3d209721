// Two instances' build loops on one PostgreSQL store never build one row twice: the claim (FOR UPDATE
// SKIP LOCKED, a token) is the guard. Each instance has its own data directory, as separate servers
// would; both read one DuckDB source. And a build whose claim was taken over records nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { openStore, type Store } from '../../src/store/db.js';
import { rollupPartitionsRepo } from '../../src/store/rollup-partitions-repo.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';
import { buildService, EventSource, eventsModel, eventTimes } from './build-source.js';

const DAYS = 30;
const postgres = METADATA_STORES.find((s) => s.name === 'PostgreSQL');

describe.runIf(postgres)('rollup build loops racing on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rollup-race-'));
  const events = new EventSource(path.join(dir, 'source.duckdb'));
  const model = eventsModel();
  let t: StoreTestApp;
  let second: Store;
  let workspaceId: string;
  let runners: ReturnType<typeof buildService>[];

  beforeAll(async () => {
    t = await postgres!.start();
    second = await openStore({ kind: 'postgres', url: t.databaseUrl! });
    workspaceId = (await seedWorkspace(t.services)).id;
    await events.create(eventTimes(t.clock.now(), DAYS));
    runners = [t.store, second].map((store, i) => buildService(store, t.clock, path.join(dir, `instance-${i}`), events, () => model));
  }, 60_000);

  afterAll(async () => {
    for (const runner of runners ?? []) await runner.stores.close();
    await events.close();
    await second?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each planned row is built exactly once between two instances', async () => {
    const { planned } = await runners[0]!.service.deployed(workspaceId, model);
    expect(planned).toBe(DAYS + 1);
    const loops = runners.map((r) => new RollupBuildScheduler(r.repo, r.service, t.clock, 60_000, { pollMs: 60_000, batch: 3 }));
    // Three pollers per instance, all at once, until none finds a due row.
    const drain = async (loop: RollupBuildScheduler) => {
      while ((await loop.tick()) > 0);
    };
    await Promise.all(loops.flatMap((loop) => [drain(loop), drain(loop), drain(loop)]));
    const started = await Promise.all(runners.map((r) => r.started()));
    expect(started[0]! + started[1]!).toBe(DAYS + 1);
    const rows = await runners[0]!.repo.listWorkspace(workspaceId);
    expect(rows).toHaveLength(DAYS + 1);
    expect(rows.filter((r) => r.state !== 'ready' || r.claimed_by !== null || r.last_built_at === null).map((r) => [r.partition_start, r.state, r.last_error])).toEqual([]);
    const daily = rows.find((r) => r.rollup === 'daily')!.table_name;
    expect(await rollupPartitionsRepo(t.store.db).list(workspaceId, daily)).toHaveLength(DAYS);
  });

  it('a build whose lease ran out and was claimed again records only the new holder', async () => {
    const [a, b] = runners as [ReturnType<typeof buildService>, ReturnType<typeof buildService>];
    await t.store.db.updateTable('rollup_builds').set({ next_run_at: t.clock.now() }).where('workspace_id', '=', workspaceId).where('rollup', '=', 'totals').execute();
    const [first] = await a.repo.claimDue(t.clock.now(), 60_000, 1);
    expect(first).toBeDefined();
    // Nobody else can claim it while the lease holds.
    expect(await b.repo.claimDue(t.clock.now(), 60_000, 5)).toEqual([]);
    // The lease runs out (by the store's clock): another instance takes the row over.
    await sql`update rollup_builds set claimed_until = now() - interval '1 second' where claimed_by = ${first!.claim}::uuid`.execute(t.store.db);
    const [again] = await b.repo.claimDue(t.clock.now(), 60_000, 5);
    expect(again?.table_name).toBe(first!.table_name);
    expect(await a.service.runClaimed(first!)).toBe(false);
    expect(await b.service.runClaimed(again!)).toBe(true);
    const row = (await a.repo.listTable(workspaceId, first!.table_name))[0]!;
    expect(row).toMatchObject({ state: 'ready', claimed_by: null });
  });
});
