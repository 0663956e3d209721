// The documented Python verification recipe (docs/examples/verify_webhook.py, standard library only)
// accepts real deliveries of the service, including during a secret rotation, and rejects a tampered
// body, a foreign secret and a replayed (old) timestamp.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/event-record.js';
import { newWebhookSecret, webhookHeaders } from '../../src/events/webhook-signing.js';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';
import { hasTool } from '../helpers/services.js';
import { startReceiver, type Received } from './receiver.js';

const RECIPE = path.resolve(import.meta.dirname, '../../docs/examples/verify_webhook.py');
const python = hasTool('python3', ['--version'], 'to test the Python verification recipe');

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  if (!python) return;
  t = await startTestApp({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  if (!python) return;
  await t.close();
  await receiver.close();
});

/**
 * Runs the recipe as a script (`__main__`) with Python's clock at the test clock's instant: it checks a
 * signature's age against time.time(), and the service signs on the test clock.
 */
const AT_INSTANT = 'import runpy, sys, time; now = float(sys.argv.pop(1)); time.time = lambda: now; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name="__main__")';

function recipe(secret: string, request: Pick<Received, 'headers' | 'body'>) {
  const { headers, body } = request;
  const now = String(t.clock.now().getTime() / 1000);
  const args = [RECIPE, secret, headers['webhook-id']!, headers['webhook-timestamp']!, headers['webhook-signature']!];
  const run = spawnSync('python3', ['-c', AT_INSTANT, now, ...args], { input: body, encoding: 'utf8' });
  return { status: run.status, event: run.status === 0 ? (JSON.parse(run.stdout) as unknown) : undefined, stderr: run.stderr };
}

async function deliverOne(workspaceId: string) {
  const event = await recordEvent(t.store.db, {
    workspaceId,
    type: 'model.deployed',
    fields: { deployed_at: t.clock.now().toISOString(), deployed_by: 'ops@example.com', changed_nodes: ['orders', 'ünïcode'], pr_url: null },
  });
  const before = receiver.received.length;
  await t.services.deliveryWorker().runOnce();
  await receiver.waitFor(before + 1, 10_000);
  return { event, request: receiver.received[before]! };
}

describe.skipIf(!python)('the Python verification recipe', () => {
  it('accepts a real delivery and rejects a tampered body, a wrong secret and an old timestamp', async () => {
    const ws = await seedWorkspace(t.services);
    const { secret } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['*'] });
    const { event, request } = await deliverOne(ws.id);

    expect(recipe(secret, request)).toMatchObject({ status: 0, event: event.payload });
    expect(recipe(secret, { ...request, body: request.body.replace('ops@', 'evil@') }).status).toBe(1);
    expect(recipe(newWebhookSecret(), request).status).toBe(1);
    // A capture replayed ten minutes later, re-signed with the right secret, is refused on its timestamp.
    const old = webhookHeaders([secret], request.headers['webhook-id']!, new Date(t.clock.now().getTime() - 10 * 60_000), request.body);
    expect(recipe(secret, { headers: old, body: request.body })).toMatchObject({ status: 1, stderr: expect.stringContaining('timestamp') });
  });

  it('accepts a delivery signed during a rotation with either secret', async () => {
    const ws = await seedWorkspace(t.services);
    const { endpoint, secret: previous } = await t.services.webhooks.create(ws.id, { url: receiver.url, events: ['*'] });
    const { secret: current } = await t.services.webhooks.rotate(ws.id, endpoint.id);
    const { request } = await deliverOne(ws.id);
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(recipe(previous, request).status).toBe(0);
    expect(recipe(current, request).status).toBe(0);
  });
});
