// The request id: the client's X-Request-Id when usable, else a W3C traceparent's trace id, else a
// fresh one; echoed in X-Request-Id and carried by every log line of the request, which, once the
// request is authenticated, also name its workspace and key (never the key's value).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { captureLogs } from './helpers/log-capture.js';

const { logger, lines } = captureLogs('info');
let t: TestApp;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp({ logger });
  ws = await seedWorkspace(t.services);
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

const health = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/healthz', headers });
const logged = (id: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === id);

describe('the request id', () => {
  it("is the client's X-Request-Id when it is short printable text, echoed and logged", async () => {
    const id = 'client-id_42:retry.1';
    const response = await health({ 'x-request-id': id });
    expect(response.headers['x-request-id']).toBe(id);
    expect(logged(id).map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });

  it('is replaced when the given one is too long, empty or not printable', async () => {
    for (const bad of ['x'.repeat(129), 'with space', 'tab\there', 'é-accented', '']) {
      const response = await health({ 'x-request-id': bad });
      expect(response.headers['x-request-id']).toMatch(UUID);
    }
  });

  it("is a W3C traceparent's trace id when no X-Request-Id is given", async () => {
    const response = await health({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` });
    expect(response.headers['x-request-id']).toBe(TRACE_ID);
    expect(logged(TRACE_ID).length).toBeGreaterThan(0);
    // X-Request-Id wins over traceparent.
    expect((await health({ 'x-request-id': 'mine', traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` })).headers['x-request-id']).toBe('mine');
  });

  it('is fresh for an invalid traceparent (malformed, zero ids, version ff)', async () => {
    for (const bad of ['garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `00-${TRACE_ID}-${'0'.repeat(16)}-01`, `ff-${TRACE_ID}-00f067aa0ba902b7-01`]) {
      expect((await health({ traceparent: bad })).headers['x-request-id']).toMatch(UUID);
    }
  });

  it('is generated when nothing is given, and differs per request', async () => {
    const [a, b] = [await health({}), await health({})];
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is echoed on errors too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { 'x-request-id': 'err-1' } });
    expect([response.statusCode, response.headers['x-request-id']]).toEqual([401, 'err-1']);
  });
});

describe('log lines of an authenticated request', () => {
  it('name the workspace and the key id, never the key value', async () => {
    const key = await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['models:read'] });
    const response = await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { authorization: `Bearer ${key.value}`, 'x-request-id': 'keyed-1' } });
    expect(response.statusCode).toBe(200);
    const completed = logged('keyed-1').find((line) => line.msg === 'request completed');
    expect(completed).toMatchObject({ workspaceId: ws.id, keyId: key.id });
    expect(lines.join('\n')).not.toContain(key.value);
  });

  it('name the workspace and the user for a console session', async () => {
    const cookie = await signIn(t.app, ws.members.editor.email);
    await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie, 'x-request-id': 'session-1' } });
    const completed = logged('session-1').find((line) => line.msg === 'request completed');
    expect(completed).toMatchObject({ workspaceId: ws.id, userId: ws.members.editor.id });
  });
});
