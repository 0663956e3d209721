// A signal run's claim is a lease on the store's clock, on both metadata stores: an instance whose clock
// runs an hour ahead does not take over a run another instance holds, the lease ends when the store's
// clock passes it (the test clock never moves for that), and the claim's end is the store's now plus the
// lease.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { principalOf } from '../../src/identity/principal.js';
import { nextRunAfter } from '../../src/signals/signal-schedule.js';
import { seedWorkspace } from '../helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from '../helpers/metadata-stores.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(METADATA_STORES)('signal run leases on $name', (store) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signal-lease-'));
  let t: StoreTestApp;
  let signalId = '';

  beforeAll(async () => {
    t = await store.start({ env: { SVC_DATA_DIR: dataDir } });
    const ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 100 });
    const owner = await t.services.signalRows.owner(ws.id, lum.id);
    const signal = await t.services.signals.create(principalOf(owner!, 'session'), {
      name: 'Leased',
      watch: { node: 'orders', measure: 'order_count' },
      condition: 'greater_than',
      threshold: 0,
      schedule: { interval_seconds: 60 },
      enabled: true,
    });
    signalId = signal.id;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const claim = (now: Date, leaseMs: number) => t.services.signalRows.claimDue(now, leaseMs, 8, (row) => nextRunAfter(row, now));

  it('an instance whose clock runs an hour ahead does not take over a run another holds', async () => {
    t.clock.advance(61_000);
    const before = await t.services.signalRows.now();
    const held = await claim(t.clock.now(), 120_000);
    const after = await t.services.signalRows.now();
    expect(held.map((s) => s.id)).toEqual([signalId]);
    // The lease ends at the store's now plus the lease, whatever the instance's clock says.
    const until = held[0]!.claimed_until!.getTime();
    expect(until).toBeGreaterThanOrEqual(before.getTime() + 120_000);
    expect(until).toBeLessThanOrEqual(after.getTime() + 120_000);

    const ahead = new Date(t.clock.now().getTime() + 3_600_000);
    expect(await claim(ahead, 120_000)).toEqual([]);
    await t.services.signalRows.db.updateTable('signals').set({ claimed_until: null }).where('id', '=', signalId).execute();
  });

  it('a lease ends when the store\'s clock passes it', async () => {
    t.clock.advance(61_000);
    expect((await claim(t.clock.now(), 1000)).map((s) => s.id)).toEqual([signalId]);
    expect(await claim(t.clock.now(), 1000)).toEqual([]);
    await sleep(1300);
    // The test clock has not moved: the retry is the store's doing.
    expect((await claim(t.clock.now(), 120_000)).map((s) => s.id)).toEqual([signalId]);
  });
});
