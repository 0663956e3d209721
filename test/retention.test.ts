// Retention on both metadata stores: each table is pruned by its own setting, each row aged by the clock
// that stamped it (events by the store's, whose now() wrote them; the rest against the test clock, never
// the machine's date), in bounded batches; a delivery goes
// with its event and a pending one is never pruned on its own; a run stops at its bound and the next
// continues; the job runs once across instances, under a lease on the store's clock; the server's job
// runner prunes in the background; and GET /metrics reports every table's rows and bytes.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../src/events/event-record.js';
import { JobRunner, type Job } from '../src/jobs/job-runner.js';
import { pruneExpired, retentionJob } from '../src/jobs/retention.js';
import { openStore, type Store } from '../src/store/db.js';
import { readStoreNow } from '../src/store/store-clock.js';
import { vaultsRepo } from '../src/store/vaults-repo.js';
import { seedWorkspace, type SeededWorkspace } from './helpers/app.js';
import { TestClock } from './helpers/clock.js';
import { METADATA_STORES, type StoreTestApp } from './helpers/metadata-stores.js';

const DAY = 86_400_000;
const TOKEN = 'metrics-token-for-the-retention-test';
// Distinct values, so that a setting read for the wrong table shows.
const POLICY = { eventsDays: 30, deliveriesDays: 7, signalEvaluationsDays: 90, queryHistoryDays: 60, scheduleRunsDays: 45 };

describe.each(METADATA_STORES)('retention on $name', (store) => {
  let t: StoreTestApp;
  let ws: SeededWorkspace;
  let endpointId = '';
  let signalId = '';
  let scheduleId = '';

  beforeAll(async () => {
    t = await store.start({
      env: {
        SVC_METRICS_TOKEN: TOKEN,
        SVC_RETENTION_EVENTS_DAYS: '30',
        SVC_RETENTION_DELIVERIES_DAYS: '7',
        SVC_RETENTION_SIGNAL_EVALUATIONS_DAYS: '90',
        SVC_RETENTION_QUERY_HISTORY_DAYS: '60',
      },
    });
    ws = await seedWorkspace(t.services);
    const owner = ws.members.luminary.id;
    endpointId = (await t.services.webhooks.create(ws.id, { url: 'https://93.184.216.34/hook', events: ['*'] })).endpoint.id;
    const vault = await vaultsRepo(t.store.db).create({ workspaceId: ws.id, name: 'Signals', description: '', createdBy: owner, at: t.clock.now() });
    const signal = await t.services.signalRows.insert(
      ws.id,
      owner,
      { vault_id: vault.id, name: 'Old', watch: { node: 'orders', measure: 'order_count' }, condition: 'greater_than', threshold: 0, cron: null, timezone: null, interval_seconds: 60, enabled: false, next_run_at: null },
      t.clock.now(),
    );
    signalId = signal.id;
    // A schedule whose target no longer exists (a run's history is all the test needs).
    const values = { name: 'Old runs', target_kind: 'scene' as const, target_id: '00000000-0000-4000-8000-000000000000', endpoint_id: endpointId, cron: '0 9 * * *', timezone: 'UTC', enabled: false, next_run_at: null };
    scheduleId = (await t.services.scheduleRows.insert(ws.id, owner, values, t.clock.now())).id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  /** `days` before the test clock's now, give or take a minute so that no row sits on a boundary. */
  const ago = (days: number) => new Date(t.clock.now().getTime() - days * DAY);
  const count = async (table: 'events' | 'webhook_deliveries' | 'signal_evaluations' | 'query_history' | 'delivery_schedule_runs') =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.store.db)).rows[0]!.n);

  /** An event `days` old by the store's clock, which stamps events (with a delivery aged by the service's). */
  async function event(days: number, delivery?: { status: 'pending' | 'delivered'; updatedDays: number }) {
    const recorded = await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: {} });
    const storeAgo = sql<Date>`now() - ${days}::double precision * interval '1 day'`;
    await t.store.db.updateTable('events').set({ created_at: storeAgo, fanned_out_at: storeAgo } as never).where('id', '=', recorded.id).execute();
    if (delivery)
      await t.store.db
        .insertInto('webhook_deliveries')
        .values({ event_id: recorded.id, endpoint_id: endpointId, workspace_id: ws.id, status: delivery.status, next_attempt_at: delivery.status === 'pending' ? t.clock.now() : null, created_at: ago(days), updated_at: ago(delivery.updatedDays) })
        .execute();
    return recorded.id;
  }

  async function evaluations(days: number, n: number) {
    for (let i = 0; i < n; i++)
      await t.services.signalRows.appendEvaluation(t.store.db, { signal_id: signalId, evaluated_at: new Date(ago(days).getTime() - i * 1000), value: i, previous: null, holds: true, state: 'triggered', fired: false, error: null, read_as: null });
  }

  async function history(days: number, n: number) {
    await t.store.db
      .insertInto('query_history')
      .values(Array.from({ length: n }, (_, i) => ({ workspace_id: ws.id, connection_name: 'warehouse', source: 'test', surface: 'studio' as const, sql: `SELECT ${i}`, status: 'success' as const, created_at: new Date(ago(days).getTime() - i * 1000) })))
      .execute();
  }

  async function scheduleRuns(days: number, n: number) {
    await t.store.db
      .insertInto('delivery_schedule_runs')
      .values(Array.from({ length: n }, (_, i) => ({ schedule_id: scheduleId, ran_at: new Date(ago(days).getTime() - i * 1000), trigger: 'schedule' as const, status: 'error' as const, error: 'Not sent' })))
      .execute();
  }

  async function clear() {
    await t.store.db.deleteFrom('delivery_schedule_runs').execute();
    await t.store.db.deleteFrom('events').execute();
    await t.store.db.deleteFrom('signal_evaluations').execute();
    await t.store.db.deleteFrom('query_history').execute();
  }

  it('prunes each table by its own setting, in batches; a delivery goes with its event, a pending one is kept on its own', async () => {
    await clear();
    const oldEvents = [];
    for (let i = 0; i < 12; i++) oldEvents.push(await event(30.01, i === 0 ? { status: 'pending', updatedDays: 30.01 } : undefined));
    const young = [
      await event(29.99, { status: 'delivered', updatedDays: 7.01 }), // the delivery is older than its retention
      await event(29.99, { status: 'delivered', updatedDays: 6.99 }),
      await event(29.99, { status: 'pending', updatedDays: 20 }), // pending: never pruned on its own
    ];
    await evaluations(90.01, 5);
    await evaluations(89.99, 2);
    await history(60.01, 5);
    await history(59.99, 2);
    await scheduleRuns(45.01, 4);
    await scheduleRuns(44.99, 3);

    const report = await pruneExpired(t.store, t.clock, POLICY, { batchSize: 5, maxBatches: 100 });
    expect(report).toEqual({ deleted: { webhook_deliveries: 1, events: 12, signal_evaluations: 5, query_history: 5, delivery_schedule_runs: 4 }, more: false });
    const left = await t.store.db.selectFrom('events').select('id').execute();
    expect(left.map((e) => e.id).sort()).toEqual([...young].sort());
    const deliveries = await t.store.db.selectFrom('webhook_deliveries').select(['event_id', 'status']).where('endpoint_id', '=', endpointId).execute();
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([young[1], young[2]].sort());
    expect([await count('signal_evaluations'), await count('query_history'), await count('delivery_schedule_runs')]).toEqual([2, 2, 3]);

    // Nothing is old any more: a second run deletes nothing.
    expect(await pruneExpired(t.store, t.clock, POLICY)).toEqual({ deleted: {}, more: false });
    // 0 keeps for ever.
    await history(400, 3);
    expect(await pruneExpired(t.store, t.clock, { ...POLICY, queryHistoryDays: 0 })).toEqual({ deleted: {}, more: false });
    expect(await count('query_history')).toBe(5);
  });

  it("ages events by the store's clock that stamped them, whatever the service's clock says", async () => {
    await clear();
    const fresh = await event(0);
    const old = await event(30.01);
    // A service clock 40 days ahead of the store's prunes no event the store has just written...
    const storeNow = await readStoreNow(t.store.db);
    const ahead = new TestClock(new Date(storeNow.getTime() + 40 * DAY));
    expect(await pruneExpired(t.store, ahead, POLICY)).toEqual({ deleted: { events: 1 }, more: false });
    expect((await t.store.db.selectFrom('events').select('id').execute()).map((e) => e.id)).toEqual([fresh]);
    // ...and one 40 days behind still prunes an event that is old by the store's.
    const older = await event(30.01);
    const behind = new TestClock(new Date(storeNow.getTime() - 40 * DAY));
    expect(await pruneExpired(t.store, behind, POLICY)).toEqual({ deleted: { events: 1 }, more: false });
    expect((await t.store.db.selectFrom('events').select('id').execute()).map((e) => e.id)).toEqual([fresh]);
    expect([old, older]).not.toContain(fresh);
  });

  it('a run stops at its bound (or when asked to stop), says so, and the next continues', async () => {
    await clear();
    await history(61, 10);
    expect(await pruneExpired(t.store, t.clock, POLICY, { batchSize: 4, maxBatches: 2 })).toEqual({ deleted: { query_history: 8 }, more: true });
    expect(await count('query_history')).toBe(2);
    expect(await pruneExpired(t.store, t.clock, POLICY, { batchSize: 4, maxBatches: 2 })).toEqual({ deleted: { query_history: 2 }, more: false });
    // Asked to stop (the server shuts down): it ends before its next batch and says there may be more.
    await history(61, 3);
    expect(await pruneExpired(t.store, t.clock, POLICY, { batchSize: 4, maxBatches: 2 }, AbortSignal.abort())).toEqual({ deleted: {}, more: true });
    expect(await count('query_history')).toBe(3);
  });

  it('the job runs once across instances, and not again before its next run; a run that stopped early comes back soon', async () => {
    await clear();
    await t.store.db.deleteFrom('scheduled_jobs').execute();
    await history(61, 6);
    const second: Store = t.databaseUrl ? await openStore({ kind: 'postgres', url: t.databaseUrl }) : t.store;
    try {
      const limits = { batchSize: 2, maxBatches: 2 };
      const runners = [t.store, second, t.store, second].map((s) => new JobRunner(s, t.clock, [retentionJob(s, t.clock, POLICY, limits)], { pollMs: 60_000 }));
      const ran = await Promise.all(runners.map((r) => r.tick()));
      expect(ran.flat()).toEqual(['retention']);
      expect(await count('query_history')).toBe(2);
      expect((await Promise.all(runners.map((r) => r.tick()))).flat()).toEqual([]);
      // It stopped at its bound with work left: due again within a minute, not an hour.
      t.clock.advance(61_000);
      expect((await Promise.all(runners.map((r) => r.tick()))).flat()).toEqual(['retention']);
      expect(await count('query_history')).toBe(0);
      t.clock.advance(61_000);
      expect((await Promise.all(runners.map((r) => r.tick()))).flat()).toEqual([]);
      const row = await t.store.db.selectFrom('scheduled_jobs').selectAll().where('name', '=', 'retention').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ claimed_until: null, claimed_by: null, last_error: null });
      expect(row.next_run_at.getTime()).toBeGreaterThan(t.clock.now().getTime() + 58 * 60_000);
    } finally {
      if (second !== t.store) await second.close();
    }
  });

  it('a job under way is not taken over by an instance whose clock runs hours ahead', async () => {
    let release = () => {};
    let runs = 0;
    const job: Job = {
      name: 'held-job',
      everyMs: 3_600_000,
      leaseMs: 60_000,
      run: () => {
        runs++;
        return new Promise((resolve) => (release = () => resolve({ more: false })));
      },
    };
    const holder = new JobRunner(t.store, t.clock, [job], { pollMs: 60_000 });
    const running = holder.tick();
    while (runs === 0) await new Promise((r) => setTimeout(r, 10));
    const ahead = new TestClock(new Date(t.clock.now().getTime() + 5 * 3_600_000));
    expect(await new JobRunner(t.store, ahead, [job], { pollMs: 60_000 }).tick()).toEqual([]);
    release();
    expect(await running).toEqual(['held-job']);
    expect(runs).toBe(1);
  });

  it("the server's job runner prunes in the background", async () => {
    await clear();
    await t.store.db.deleteFrom('scheduled_jobs').execute();
    await history(61, 3);
    await history(1, 1);
    t.services.jobs.start();
    try {
      const deadline = performance.now() + 20_000;
      while ((await count('query_history')) > 1 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await t.services.jobs.stop();
    }
    expect(await count('query_history')).toBe(1);
  });

  it('GET /metrics reports every table: rows (the estimate once analyzed, counted before) and bytes', async () => {
    await clear();
    for (let i = 0; i < 5; i++) await event(1);
    for (let i = 0; i < 2; i++) await event(31);
    // The embedded store analyzes what the job pruned; PostgreSQL leaves it to autovacuum, done by hand here.
    await pruneExpired(t.store, t.clock, POLICY);
    if (t.store.kind === 'postgres') await sql`analyze events`.execute(t.store.db);
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    const value = (name: string, table: string) => {
      const line = response.body.split('\n').find((l) => l.startsWith(`${name}{table="${table}"} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    expect(value('svc_store_table_rows', 'events')).toBe(5);
    // Never analyzed by anyone: counted.
    expect(value('svc_store_table_rows', 'webhook_endpoints')).toBe(Number((await sql<{ n: number }>`select count(*) as n from webhook_endpoints`.execute(t.store.db)).rows[0]!.n));
    for (const table of ['events', 'webhook_deliveries', 'signal_evaluations', 'query_history', 'scheduled_jobs', 'workspaces']) {
      expect(value('svc_store_table_bytes', table), table).toBeGreaterThan(0);
      expect(value('svc_store_table_rows', table), table).toBeGreaterThanOrEqual(0);
    }
  });
});
