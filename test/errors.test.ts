// Every failure answers JSON {"error": ...} with the right status, Fastify's own included, and a 5xx
// never carries internals (which go to the log, with the request id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.js';
import { seedWorkspace, signIn, startTestApp, type TestApp } from './helpers/app.js';
import { captureLogs } from './helpers/log-capture.js';
import { request } from './helpers/http-client.js';

const { logger, lines: logLines } = captureLogs('info');
let t: TestApp;
let base: string;
let cookie: string;

beforeAll(async () => {
  t = await startTestApp({ env: { TLS: 'off' }, logger });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const ws = await seedWorkspace(t.services);
  cookie = await signIn(t.app, ws.members.luminary.email);
});
afterAll(() => t.close());

function expectJsonError(response: { status: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(response.body);
  expect(typeof body.error).toBe('string');
  expect(body.code).toBe(code);
  return body;
}

describe('over a real socket', () => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    request(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('malformed JSON → 400', async () => {
    const body = expectJsonError(await post('/api/auth/login', '{"email": "a@b.c", '), 400, 'malformed_json');
    expect(body.error).toBe('Malformed JSON in request body');
    expectJsonError(await post('/api/keys', '{nope', { cookie }), 400, 'malformed_json');
  });

  it('prototype-poisoning JSON → 400', async () => {
    expectJsonError(await post('/probe/echo', '{"__proto__": {"admin": true}}'), 400, 'malformed_json');
  });

  it('a content type other than JSON → 415', async () => {
    const response = await post('/api/auth/login', 'email=a&password=b', { 'content-type': 'application/x-www-form-urlencoded' });
    expectJsonError(response, 415, 'unsupported_media_type');
    expectJsonError(await post('/probe/echo', 'hello', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  it('a body over the limit → 413', async () => {
    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(BODY_LIMIT_BYTES) });
    const body = expectJsonError(await post('/api/auth/login', big), 413, 'body_too_large');
    expect(body.error).toMatch(/1048576 bytes/);
  });

  it('an unknown route → 404 naming it', async () => {
    const response = await request(`${base}/api/v1/nothing-here?x=1`);
    const body = expectJsonError(response, 404, 'route_not_found');
    expect(body.error).toBe('No route for GET /api/v1/nothing-here');
  });

  it('a body that fails validation → 400 naming the field', async () => {
    const body = expectJsonError(await post('/api/keys', JSON.stringify({ name: 5, surface: 'question' }), { cookie }), 400, 'invalid_request');
    expect(body.error).toMatch(/body\.name/);
  });

  it('an unexpected failure → 500 with a request id, no stack or SQL; the log has both', async () => {
    const response = await request(`${base}/probe/boom`);
    const body = expectJsonError(response, 500, 'internal');
    expect(body).toEqual({ error: 'Internal server error', code: 'internal', request_id: response.headers['x-request-id'] });
    expect(response.body).not.toMatch(/select|api_keys|at .*\.ts/);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === body.request_id && l.level === 50);
    expect(logged.err.message).toMatch(/secret internal detail/);
    expect(logged.err.stack).toMatch(/probe-routes/);
  });

  it('an empty JSON body is accepted as no body', async () => {
    const response = await post('/probe/echo', '');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ body: null });
  });
});
