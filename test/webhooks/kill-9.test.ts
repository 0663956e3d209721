// `kill -9` of a real `svc serve` mid-delivery loses nothing: the delivery row outlives the process,
// and the next server delivers it (same webhook-id) once the dead process's lease on it has ended, not
// before. The lease (delivery time limit + 30 s, on the store's clock) is ended by moving its end into the
// store's past rather than by waiting for it: the test proves what the next server does on each side of it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { recordEvent } from '../../src/events/event-record.js';
import { WebhookService } from '../../src/events/webhook-service.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { membersRepo } from '../../src/store/members-repo.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { spawnServer, until } from '../helpers/spawned-server.js';
import { startReceiver, verifyAt } from './receiver.js';

const withPostgres = await hasService('postgres');
const key = randomBytes(32);
// The spawned servers' clocks start at this fixed clock's instant and run on from there (spawnServer).
const clock = new TestClock();
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  if (!withPostgres) return;
  db = await createTestDatabase();
  store = await openStore({ kind: 'postgres', url: db.url });
  await migrate(store);
  receiver = await startReceiver(['hang', 200]);
}, 60_000);
afterAll(async () => {
  if (!withPostgres) return;
  await store.close();
  await receiver.close();
  await db.drop();
});

function serve() {
  return spawnServer({
    DATABASE_URL: db.url,
    SVC_DATA_DIR: path.join('/tmp', `svc-kill9-${process.pid}`),
    SVC_SECRET_KEY: key.toString('hex'),
    SVC_EVENTS_POLL_MS: '50',
    SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  }, clock.now());
}

describe.skipIf(!withPostgres)('kill -9 mid-delivery', () => {
  it('the next server delivers the event, once the lease ends', async () => {
    const workspace = await membersRepo(store.db).createWorkspace({ name: 'Kill', plan: 'team' });
    const { endpoint, secret } = await new WebhookService(store, new SecretBox(key), clock, ['127.0.0.1']).create(workspace.id, { url: receiver.url, events: ['*'] });
    const event = await recordEvent(store.db, { workspaceId: workspace.id, type: 'model.deployed', fields: { pr_url: null } });

    const first = serve();
    await receiver.waitFor(1, 60_000); // the receiver holds the request without answering
    first.child.kill('SIGKILL');
    await first.exited;
    const row = () => store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1 });

    const second = serve();
    try {
      await until(() => /listening on http/.test(second.output()), 60_000, () => `the second server to listen (${second.output()})`);
      // While the dead process's lease runs, the next server leaves the row alone (some 20 polls).
      await new Promise((r) => setTimeout(r, 1000));
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1 });
      expect(receiver.received).toHaveLength(1);
      await sql`update webhook_deliveries set claimed_until = now() - interval '1 second' where endpoint_id = ${endpoint.id}`.execute(store.db);
      await until(async () => (await row()).status === 'delivered', 30_000, () => `the delivery (${second.output()})`);
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited).toBe(0);
    expect(await row()).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    expect(receiver.received).toHaveLength(2);
    const last = receiver.received[1]!;
    expect(last.headers['webhook-id']).toBe(event.id);
    expect(verifyAt(clock, secret, last)).toEqual(event.payload);
  }, 180_000);
});
