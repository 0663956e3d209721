// The server's runtime starts the signal scheduler and stops it on close: a due signal is evaluated by
// the background loop alone, and closing waits for the loop instead of leaving it to run on a closed store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { setUpDemo } from '../../src/demo-setup.js';
import { principalOf } from '../../src/identity/principal.js';
import { openRuntime } from '../../src/runtime.js';
import { seedWorkspace } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-signals-runtime-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('evaluates due signals in the background and stops on close', async () => {
  const clock = new TestClock();
  const errors: unknown[] = [];
  const runtime = await openRuntime(loadConfig({ SVC_DATA_DIR: dataDir, SVC_DEMO: 'off', SVC_SIGNALS_POLL_MS: '100' }), { clock, signals: true, onBackgroundError: (e) => errors.push(e) });
  try {
    const { services } = runtime;
    const ws = await seedWorkspace(services);
    const lum = ws.members.luminary;
    await setUpDemo(services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 100 });
    const owner = await services.signalRows.owner(ws.id, lum.id);
    const signal = await services.signals.create(principalOf(owner!, 'session'), {
      name: 'Background',
      watch: { node: 'orders', measure: 'order_count' },
      condition: 'greater_than',
      threshold: 0,
      schedule: { interval_seconds: 60 },
      enabled: true,
    });
    clock.advance(61_000);
    const deadline = performance.now() + 10_000;
    let state = signal.state;
    while (performance.now() < deadline && state !== 'triggered') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await services.signalRows.get(ws.id, signal.id))!.state;
    }
    expect(state).toBe('triggered');
    const events = await services.store.db.selectFrom('events').select('id').where('workspace_id', '=', ws.id).where('type', '=', 'signal.triggered').execute();
    expect(events).toHaveLength(1);
  } finally {
    await runtime.close();
  }
  expect(errors).toEqual([]);
}, 60_000);
