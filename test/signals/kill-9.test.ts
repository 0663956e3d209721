// `kill -9` of a real `svc serve` in the middle of a signal evaluation loses nothing: the claimed run
// outlives the process, and the next server evaluates it once its lease ends, records one evaluation,
// fires signal.triggered once and delivers it, signed. The evaluation is held mid-query by a lock on
// the warehouse table, so the kill lands while the warehouse query runs. The lease is ended by moving its
// end into the store's past rather than by waiting the 45 s it lasts: the test proves what the next server
// does on each side of it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_SIGNALS_LEASE_SECONDS } from '../../src/config.js';
import { loadPostgres } from '../../src/core/demo/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { principalOf } from '../../src/identity/principal.js';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { spawnServer, until } from '../helpers/spawned-server.js';
import { startReceiver, verifyAt } from '../webhooks/receiver.js';

const withPostgres = await hasService('postgres');
const secretKey = randomBytes(32);
const cleanups: Array<() => Promise<void>> = [];
let meta: Awaited<ReturnType<typeof createTestDatabase>>;
let warehouse: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  if (!withPostgres) return;
  meta = await createTestDatabase();
  warehouse = await createTestDatabase();
  cleanups.push(() => meta.drop(), () => warehouse.drop());
  // The spawned servers' clocks start at this fixed clock's instant and run on from there (spawnServer).
  t = await startTestApp({ databaseUrl: meta.url, secretKey, clock: new TestClock(), env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  await loadPostgres(warehouse.url, { orders: 200, now: t.clock.now() });
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  if (!withPostgres) return;
  await t?.close();
  await receiver?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function serve() {
  return spawnServer({
    DATABASE_URL: meta.url,
    SVC_DATA_DIR: path.join('/tmp', `svc-signal-kill9-${process.pid}`),
    SVC_SECRET_KEY: secretKey.toString('hex'),
    SVC_SIGNALS_POLL_MS: '100',
    // The shortest lease allowed (the warehouse time limit plus its margin): the run is retried after it.
    SVC_SIGNALS_LEASE_SECONDS: String(MIN_SIGNALS_LEASE_SECONDS),
    SVC_EVENTS_POLL_MS: '50',
    SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  }, t.clock.now());
}

describe.skipIf(!withPostgres)('kill -9 mid-evaluation', () => {
  it('the next server evaluates the run once its lease ends, and the crossing fires and arrives once', async () => {
    const ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    const url = new URL(warehouse.url);
    await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'postgres', settings: { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username } });
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'demo', await readModelDir(DEMO_MODEL_DIR));
    await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: '*' }) }).where('workspace_id', '=', ws.id).execute();
    const { secret } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['signal.triggered'] });
    const owner = await t.services.signalRows.owner(ws.id, lum.id);
    const signal = await t.services.signals.create(principalOf(owner!, 'session'), {
      name: 'Any orders',
      watch: { node: 'orders', measure: 'order_count' },
      condition: 'greater_than',
      threshold: 0,
      schedule: { interval_seconds: 60 },
      enabled: true,
    });
    // Due now, by the spawned servers' clocks.
    await t.store.db.updateTable('signals').set({ next_run_at: new Date(t.clock.now().getTime() - 1000) }).where('id', '=', signal.id).execute();
    const row = () => t.store.db.selectFrom('signals').selectAll().where('id', '=', signal.id).executeTakeFirstOrThrow();
    const evaluations = async () => (await t.store.db.selectFrom('signal_evaluations').select('id').where('signal_id', '=', signal.id).execute()).length;
    const events = async () => (await t.store.db.selectFrom('events').selectAll().where('workspace_id', '=', ws.id).where('type', '=', 'signal.triggered').execute());

    // One session holds the lock; another watches pg_stat_activity (whose view is frozen for the length
    // of a transaction, so the locking session cannot watch).
    const locker = new pg.Client({ connectionString: warehouse.url });
    const watcher = new pg.Client({ connectionString: warehouse.url });
    await locker.connect();
    await watcher.connect();
    cleanups.push(() => locker.end(), () => watcher.end());
    // The deploy started value-index builds on the warehouse: let them finish, so that the one query
    // left to wait on the lock below is the evaluation's.
    const othersActive = async () => {
      const { rows } = await watcher.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()");
      return rows[0]!.n;
    };
    let quietChecks = 0;
    await until(async () => ((await othersActive()) === 0 ? ++quietChecks >= 5 : (quietChecks = 0) > 0), 60_000, 'the value-index builds to finish');
    // Hold the warehouse table: the evaluation's query waits on the lock.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE shop.orders IN ACCESS EXCLUSIVE MODE');
    const waitingOnLock = async () => {
      const { rows } = await watcher.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      return rows[0]!.n > 0;
    };

    const first = serve();
    try {
      await until(waitingOnLock, 25_000, () => `the evaluation's query to wait on the lock (${first.output()})`);
    } catch (error) {
      first.child.kill('SIGKILL');
      await locker.query('ROLLBACK');
      throw error;
    }
    expect((await row()).claimed_until).not.toBeNull();
    first.child.kill('SIGKILL');
    await first.exited;
    // Nothing of the run was recorded: no evaluation, no state change, no event.
    expect(await evaluations()).toBe(0);
    expect((await row()).state).toBe('ok');
    expect(await events()).toHaveLength(0);
    await locker.query('ROLLBACK');

    const second = serve();
    try {
      await until(() => /listening on http/.test(second.output()), 60_000, () => `the second server to listen (${second.output()})`);
      // While the dead process's lease runs, the next server leaves the run alone (some 10 polls).
      await new Promise((r) => setTimeout(r, 1000));
      expect(await evaluations()).toBe(0);
      expect((await row()).claimed_until).not.toBeNull();
      await sql`update signals set claimed_until = now() - interval '1 second' where id = ${signal.id}`.execute(t.store.db);
      await until(() => receiver.received.length >= 1, 30_000, () => `the signal.triggered delivery (${second.output()})`);
      await until(async () => (await t.store.db.selectFrom('webhook_deliveries').select('status').where('workspace_id', '=', ws.id).executeTakeFirst())?.status === 'delivered', 10_000, 'the delivery to be marked delivered');
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited).toBe(0);
    expect(await evaluations()).toBe(1);
    expect(await row()).toMatchObject({ state: 'triggered', last_value: 200, last_error: null });
    const fired = await events();
    expect(fired).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery!.headers['webhook-id']).toBe(fired[0]!.id);
    expect(verifyAt(t.clock, secret, delivery!)).toMatchObject({ event: 'signal.triggered', signal_id: signal.id, workspace_id: ws.id });
  }, 240_000);
});
