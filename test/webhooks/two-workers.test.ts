// Two delivery workers, each with its own connection pool, on one PostgreSQL store: every delivery is
// made exactly once (row claims with FOR UPDATE SKIP LOCKED and a lease).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/event-record.js';
import { openStore, type Store } from '../../src/store/db.js';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { startReceiver } from './receiver.js';

const withPostgres = await hasService('postgres');
let t: TestApp;
let second: Store;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  if (!withPostgres) return;
  db = await createTestDatabase();
  t = await startTestApp({ databaseUrl: db.url, env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  second = await openStore({ kind: 'postgres', url: db.url });
  receiver = await startReceiver();
  receiver.delay(15);
}, 60_000);
afterAll(async () => {
  if (!withPostgres) return;
  await t.close();
  await second.close();
  await receiver.close();
  await db.drop();
});

describe.skipIf(!withPostgres)('two workers on one PostgreSQL store', () => {
  it('deliver each of 60 deliveries exactly once', async () => {
    const ws = await seedWorkspace(t.services);
    const a = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['model.deployed'] });
    const b = await t.services.webhooks.create(ws.id, { url: `${receiver.url}?b`, events: ['*'] });
    for (let i = 0; i < 30; i++) await recordEvent(t.store.db, { workspaceId: ws.id, type: 'model.deployed', fields: { n: i } });

    const one = t.services.deliveryWorker();
    const two = t.services.deliveryWorker({ store: second });
    await Promise.all([one.runOnce(), two.runOnce(), one.runOnce(), two.runOnce()]);

    const rows = await t.store.db.selectFrom('webhook_deliveries').selectAll().where('workspace_id', '=', ws.id).execute();
    expect(rows).toHaveLength(60);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    expect(receiver.received).toHaveLength(60);
    const keys = receiver.received.map((r) => `${r.url} ${r.headers['webhook-id']}`);
    expect(new Set(keys).size).toBe(60);
    expect(rows.filter((r) => r.endpoint_id === a.endpoint.id)).toHaveLength(30);
    expect(rows.filter((r) => r.endpoint_id === b.endpoint.id)).toHaveLength(30);
  }, 60_000);
});
