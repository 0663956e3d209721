// Two instances sharing one PostgreSQL store: every due run of every signal is evaluated exactly once,
// however their polls interleave, and a run claimed by an instance that died before recording it is
// retried by the other once the lease runs out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { SignalScheduler } from '../../src/signals/signal-scheduler.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { createTestDatabase, hasService } from '../helpers/services.js';

const postgres = await hasService('postgres');
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signals-pg-'));
let a: TestApp;
let b: TestApp;
let drop: () => Promise<void>;
let ws: SeededWorkspace;
let key: string;
const SIGNALS = 12;

beforeAll(async () => {
  if (!postgres) return;
  const db = await createTestDatabase();
  drop = db.drop;
  a = await startTestApp({ databaseUrl: db.url, env: { SVC_DATA_DIR: dataDir } });
  b = await startTestApp({ databaseUrl: db.url, env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(a.services);
  const lum = ws.members.luminary;
  await setUpDemo(a.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 200 });
  key = (await createKey(a.services, ws, 'luminary', 'structured', { scopes: ['query', 'content:read', 'content:write'] })).value;
}, 120_000);

afterAll(async () => {
  if (!postgres) return;
  await a.close();
  await b.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function evaluationsOf(id: string): Promise<number> {
  const rows = await a.store.db.selectFrom('signal_evaluations').select('id').where('signal_id', '=', id).execute();
  return rows.length;
}

describe.skipIf(!postgres)('two schedulers on one PostgreSQL store', () => {
  it('evaluate each due run exactly once, and retry a run whose claim was abandoned after its lease', async () => {
    const ids: string[] = [];
    for (let i = 0; i < SIGNALS; i++) {
      const response = await a.app.inject({
        method: 'POST',
        url: '/v1/signals',
        headers: { authorization: `Bearer ${key}` },
        payload: { name: `Signal ${i}`, watch: { node: 'orders', measure: 'order_count' }, condition: 'greater_than', threshold: 0, schedule: { interval_seconds: 60 } },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().signal).toMatchObject({ state: 'pending', last_evaluated_at: null });
      ids.push(response.json().signal.id);
    }
    // Small batches make the two instances interleave their claims.
    const first = new SignalScheduler(a.services.signalRows, a.services.signals, a.clock, { pollMs: 60_000, batch: 3 });
    const second = new SignalScheduler(b.services.signalRows, b.services.signals, b.clock, { pollMs: 60_000, batch: 3 });
    for (const round of [1, 2]) {
      a.clock.advance(61_000);
      b.clock.advance(61_000);
      let evaluated = 0;
      for (let poll = 0; poll < SIGNALS; poll++) {
        const counts = await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);
        evaluated += counts.reduce((x, y) => x + y, 0);
      }
      expect(evaluated).toBe(SIGNALS);
      for (const id of ids) expect(await evaluationsOf(id)).toBe(round);
    }
    // Evaluated, none is pending any more: the count is above 0, so each holds.
    const listed = await a.app.inject({ method: 'GET', url: '/v1/signals?limit=50', headers: { authorization: `Bearer ${key}` } });
    expect(listed.json().signals.map((s: { state: string }) => s.state)).toEqual(ids.map(() => 'triggered'));
    // Only the first crossing fired: one event per signal.
    const events = await a.store.db.selectFrom('events').select('id').where('workspace_id', '=', ws.id).where('type', '=', 'signal.triggered').execute();
    expect(events).toHaveLength(SIGNALS);

    // An instance claims a run and dies before evaluating it: nobody else takes it while the lease runs…
    a.clock.advance(61_000);
    b.clock.advance(61_000);
    // The lease runs on the store's clock, so the test waits for it (a short one) instead of moving clocks.
    const leaseMs = 8000;
    const abandoned = await a.services.signalRows.claimDue(a.clock.now(), leaseMs, 1, () => new Date(a.clock.now().getTime() + 60_000));
    const leaseEnds = performance.now() + leaseMs;
    expect(abandoned).toHaveLength(1);
    const abandonedId = abandoned[0]!.id;
    let others = 0;
    for (let poll = 0; poll < SIGNALS; poll++) others += await second.tick();
    expect(performance.now()).toBeLessThan(leaseEnds);
    expect(others).toBe(SIGNALS - 1);
    expect(await evaluationsOf(abandonedId)).toBe(2);
    // …and once it has run out, the other instance evaluates the run, once.
    await new Promise((resolve) => setTimeout(resolve, leaseEnds - performance.now() + 300));
    let retried = 0;
    for (let poll = 0; poll < SIGNALS; poll++) retried += await second.tick();
    expect(retried).toBeGreaterThanOrEqual(1);
    expect(await evaluationsOf(abandonedId)).toBe(3);
  }, 60_000);
});
