// The console's webhook routes over the real app and store: a luminary creates an endpoint (the secret
// is shown once, sealed at rest), bad URLs and events are 400s, SSRF targets are refused at creation,
// another workspace's endpoint is a 404, a test event is delivered and logged, and redelivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { isForbiddenAddress, WebhookAddressError } from '../../src/events/webhook-address.js';
import { WebhookService } from '../../src/events/webhook-service.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { startReceiver, verifyAt } from './receiver.js';

let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let cookie: string;
let otherCookie: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  cookie = await signIn(t.app, ws.members.luminary.email);
  otherCookie = await signIn(t.app, other.members.luminary.email);
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await t.close();
  await receiver.close();
});

function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, as = cookie) {
  const headers = method === 'GET' ? { cookie: as } : { cookie: as, 'content-type': 'application/json' };
  return t.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });
}

describe('webhook endpoints', () => {
  let id = '';
  let secret = '';

  it('a luminary creates one; the whsec_ secret is in that answer only and sealed at rest', async () => {
    const created = await send('POST', '/webhooks', { url: receiver.url, events: ['model.deployed'], description: 'CI' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(body.webhook).toMatchObject({ url: receiver.url, events: ['model.deployed'], enabled: true, description: 'CI', disabled_reason: null });
    id = body.webhook.id;
    secret = body.secret;
    const listed = await send('GET', '/webhooks');
    expect(listed.json().webhooks).toHaveLength(1);
    expect(listed.body).not.toContain(secret.slice(6));
    const row = await t.store.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret.slice(6));
  });

  it('400 for an invalid URL or events; 403 for a non-luminary; 404 for another workspace', async () => {
    expect((await send('POST', '/webhooks', { url: 'not a url', events: ['*'] })).json().code).toBe('invalid_webhook_url');
    expect((await send('POST', '/webhooks', { url: 'http://hooks.example.com/x', events: ['*'] })).statusCode).toBe(400);
    const events = await send('POST', '/webhooks', { url: receiver.url, events: ['model.exploded'] });
    expect(events.statusCode).toBe(400);
    expect(events.json().code).toBe('invalid_webhook_events');
    const editor = await signIn(t.app, ws.members.editor.email);
    expect((await send('GET', '/webhooks', undefined, editor)).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['POST', `/webhooks/${id}/test`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const) {
      const response = await send(method, url, method === 'PATCH' ? { enabled: false } : undefined, otherCookie);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await send('GET', `/webhooks/${id}`)).json().webhook.enabled).toBe(true);
  });

  it('refuses loopback, private, link-local, unspecified, IPv4-mapped and other special-purpose targets', async () => {
    for (const url of [
      'https://localhost/x',
      'https://127.5.5.5/x', // 127.0.0.1 itself is in this test's allow list
      'https://10.1.2.3/x',
      'https://172.20.0.1/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[::]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:a9fe:a9fe]/x',
      'https://198.18.0.1/x',
      'https://192.0.0.170/x',
      'https://[2002:a00:1::1]/x',
      'https://[64:ff9b:1::a00:1]/x',
      'https://[fec0::1]/x',
    ]) {
      const response = await send('POST', '/webhooks', { url, events: ['*'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code, url).toBe('invalid_webhook_url');
    }
    expect(isForbiddenAddress('93.184.216.34')).toBe(false);
    expect(isForbiddenAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(false);
    expect(isForbiddenAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isForbiddenAddress('172.15.255.255')).toBe(false);
    expect(isForbiddenAddress('172.31.255.255')).toBe(true);
  });

  it('a host whose lookup hangs is refused within the delivery limit, not waited on', async () => {
    const hanging = new WebhookService(t.store, new SecretBox(randomBytes(32)), t.clock, [], () => new Promise(() => undefined), 200);
    const started = performance.now();
    const attempt = hanging.create(ws.id, { url: 'https://hooks.example.com/x', events: ['*'] });
    await expect(attempt).rejects.toThrow(/did not resolve within 200 ms/);
    await expect(attempt).rejects.toBeInstanceOf(WebhookAddressError);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a test event is delivered, signed, and logged; it can be redelivered', async () => {
    const sent = await send('POST', `/webhooks/${id}/test`);
    expect(sent.statusCode).toBe(202);
    expect(sent.json().delivery).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    await t.services.deliveryWorker().runOnce();
    expect(receiver.received).toHaveLength(1);
    const { headers } = receiver.received[0]!;
    expect(verifyAt(t.clock, secret, receiver.received[0]!)).toMatchObject({ event: 'webhook.test', workspace_id: ws.id, endpoint_id: id });
    expect(headers['webhook-id']).toBe(sent.json().delivery.event_id);

    const log = await send('GET', `/webhooks/${id}/deliveries`);
    expect(log.json().deliveries).toEqual([
      expect.objectContaining({ id: sent.json().delivery.id, status: 'delivered', attempts: 1, last_status_code: 200, last_response: 'answer 200', last_error: null }),
    ]);

    const again = await send('POST', `/webhooks/${id}/deliveries/${sent.json().delivery.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    expect(again.json().delivery).toMatchObject({ status: 'pending', attempts: 0 });
    await t.services.deliveryWorker().runOnce();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(headers['webhook-id']);
    expect((await send('POST', `/webhooks/${id}/deliveries/${crypto.randomUUID()}/redeliver`)).statusCode).toBe(404);
  });

  it('pages the delivery log newest first', async () => {
    for (let i = 0; i < 3; i++) await send('POST', `/webhooks/${id}/test`);
    const first = await send('GET', `/webhooks/${id}/deliveries?limit=2`);
    expect(first.json().deliveries).toHaveLength(2);
    const second = await send('GET', `/webhooks/${id}/deliveries?limit=2&cursor=${first.json().next_cursor}`);
    expect(second.json().deliveries).toHaveLength(2);
    expect(second.json().next_cursor).toBeNull();
    const all = [...first.json().deliveries, ...second.json().deliveries];
    expect(new Set(all.map((d: { id: string }) => d.id)).size).toBe(4);
    const garbage = await send('GET', `/webhooks/${id}/deliveries?cursor=not-a-cursor`);
    expect([garbage.statusCode, garbage.json().code]).toEqual([400, 'invalid_cursor']);
    const times = all.map((d: { created_at: string }) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('rotation: a new secret once; deliveries carry both signatures', async () => {
    const rotated = await send('POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).not.toBe(secret);
    expect(rotated.json().webhook.previous_secret_expires_at).not.toBeNull();
    await send('POST', `/webhooks/${id}/test`);
    const before = receiver.received.length;
    await t.services.deliveryWorker().runOnce();
    const last = receiver.received[receiver.received.length - 1]!;
    expect(receiver.received.length).toBeGreaterThan(before);
    expect(last.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => verifyAt(t.clock, fresh, last)).not.toThrow();
    expect(() => verifyAt(t.clock, secret, last)).not.toThrow();
  });

  it('DELETE removes it', async () => {
    expect((await send('DELETE', `/webhooks/${id}`)).statusCode).toBe(204);
    expect((await send('GET', `/webhooks/${id}`)).statusCode).toBe(404);
  });
});
