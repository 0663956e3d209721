// API key management through the console routes: formats, shown-once values, scopes, visibility,
// revocation, workspace isolation, and keys never reaching the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { captureLogs } from './helpers/log-capture.js';
import { PROBES } from './helpers/probe-routes.js';

const { logger, lines: logLines } = captureLogs('trace');

let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let lumCookie: string;

beforeAll(async () => {
  t = await startTestApp({ logger, env: { TRUST_PROXY: 'true' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  lumCookie = await signIn(t.app, ws.members.luminary.email);
});
afterAll(() => t.close());

function post(url: string, cookie: string, payload?: object) {
  return t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, ...(payload ? { payload } : {}) });
}
const list = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/keys', headers: { cookie } });

describe('creating keys', () => {
  it.each([
    ['question', /^svc_sk_[0-9a-f]{64}$/, /^svc_sk_[0-9a-f]{8}$/],
    ['workspace', /^svc_[0-9a-f]{64}$/, /^svc_[0-9a-f]{8}$/],
    ['structured', /^svc_api_[0-9a-f]{64}$/, /^svc_api_[0-9a-f]{8}$/],
  ])('%s keys have their format, and the value is shown only at creation', async (surface, valueFormat, prefixFormat) => {
    const created = await post('/api/keys', lumCookie, { name: `My ${surface} key`, surface });
    expect(created.statusCode).toBe(201);
    const { key, value } = created.json();
    expect(value).toMatch(valueFormat);
    expect(key).toMatchObject({ name: `My ${surface} key`, surface, status: 'active', last_used_at: null, expires_at: null });
    expect(key.prefix).toMatch(prefixFormat);
    expect(value.startsWith(key.prefix)).toBe(true);

    const listing = await list(lumCookie);
    expect(listing.body).not.toContain(value);
    expect(listing.json().keys.find((k: { id: string }) => k.id === key.id)).toEqual(key);
    // Not in the store either: only a hash of it.
    const row = await t.store.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(value.slice(key.prefix.length));
  });

  it('gives structured keys read scopes by default and refuses unknown scopes or scopes beyond the role', async () => {
    const created = await post('/api/keys', lumCookie, { name: 'c', surface: 'structured' });
    expect(created.json().key.scopes).toEqual(['query', 'models:read', 'content:read']);

    const unknown = await post('/api/keys', lumCookie, { name: 'c', surface: 'structured', scopes: ['query', 'drop:tables'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/Unknown scope "drop:tables"/);

    const viewer = await signIn(t.app, ws.members.viewer.email);
    const beyond = await post('/api/keys', viewer, { name: 'c', surface: 'structured', scopes: ['users:write'] });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().error).toBe('The scope users:write needs the luminary role; yours is viewer');

    const misplaced = await post('/api/keys', lumCookie, { name: 'q', surface: 'question', scopes: ['query'] });
    expect(misplaced.statusCode).toBe(400);
  });

  it('validates name, surface, expiry and rate limit', async () => {
    const cases: Array<[object, number, RegExp]> = [
      [{ surface: 'question' }, 400, /body\.name/],
      [{ name: '   ', surface: 'question' }, 400, /name/],
      [{ name: 'x', surface: 'admin' }, 400, /body\.surface/],
      [{ name: 'x', surface: 'question', expires_at: 'tomorrow' }, 400, /expires_at/],
      [{ name: 'x', surface: 'question', expires_at: '2001-01-01T00:00:00Z' }, 400, /expires_at must be in the future/],
      [{ name: 'x', surface: 'structured', rate_limit: 5000 }, 400, /rate_limit applies to question and workspace keys/],
    ];
    for (const [payload, status, message] of cases) {
      const response = await post('/api/keys', lumCookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error).toMatch(message);
    }
    const editor = await signIn(t.app, ws.members.editor.email);
    const raised = await post('/api/keys', editor, { name: 'x', surface: 'question', rate_limit: 5000 });
    expect(raised.statusCode).toBe(403);
    const byLuminary = await post('/api/keys', lumCookie, { name: 'x', surface: 'question', rate_limit: 5000 });
    expect(byLuminary.json().key.rate_limit).toBe(5000);
  });

  it('refuses workspace keys on a plan without API access', async () => {
    const free = await seedWorkspace(t.services, 'free');
    const cookie = await signIn(t.app, free.members.luminary.email);
    const response = await post('/api/keys', cookie, { name: 'b', surface: 'workspace' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('API access requires the Team plan');
  });
});

describe('listing and revoking', () => {
  it('a member sees their own keys; a luminary sees all of the workspace, none of another', async () => {
    const viewer = await signIn(t.app, ws.members.viewer.email);
    const own = (await post('/api/keys', viewer, { name: 'mine', surface: 'question' })).json().key;
    await post('/api/keys', lumCookie, { name: 'theirs', surface: 'question' });
    const otherLum = await signIn(t.app, other.members.luminary.email);
    const foreign = (await post('/api/keys', otherLum, { name: 'foreign', surface: 'question' })).json().key;

    const viewerKeys = (await list(viewer)).json().keys;
    expect(viewerKeys.map((k: { id: string }) => k.id)).toEqual([own.id]);
    const lumKeys = (await list(lumCookie)).json().keys.map((k: { id: string }) => k.id);
    expect(lumKeys).toContain(own.id);
    expect(lumKeys).not.toContain(foreign.id);
  });

  it('revocation takes effect on the next request; revoking twice is harmless', async () => {
    const { key, value } = (await post('/api/keys', lumCookie, { name: 'soon gone', surface: 'question' })).json();
    const use = () => t.app.inject({ method: 'GET', url: PROBES.question, headers: { authorization: `Bearer ${value}` } });
    expect((await use()).statusCode).toBe(200);
    const revoked = await post(`/api/keys/${key.id}/revoke`, lumCookie);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().key).toMatchObject({ id: key.id, status: 'revoked' });
    expect((await use()).statusCode).toBe(401);
    expect((await post(`/api/keys/${key.id}/revoke`, lumCookie)).json().key.status).toBe('revoked');
  });

  it("404 for another workspace's key, for someone else's key (non-luminary) and for nonsense ids", async () => {
    const otherLum = await signIn(t.app, other.members.luminary.email);
    const foreign = (await post('/api/keys', otherLum, { name: 'foreign', surface: 'question' })).json();
    const attempt = await post(`/api/keys/${foreign.key.id}/revoke`, lumCookie);
    expect(attempt.statusCode).toBe(404);
    const stillWorks = await t.app.inject({ method: 'GET', url: PROBES.question, headers: { authorization: `Bearer ${foreign.value}` } });
    expect(stillWorks.statusCode).toBe(200);

    const lumKey = (await post('/api/keys', lumCookie, { name: 'lum', surface: 'question' })).json().key;
    const viewer = await signIn(t.app, ws.members.viewer.email);
    expect((await post(`/api/keys/${lumKey.id}/revoke`, viewer)).statusCode).toBe(404);
    expect((await post('/api/keys/not-a-uuid/revoke', lumCookie)).statusCode).toBe(404);
  });

  it('shows expired keys as expired', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 1000).toISOString();
    const { key } = (await post('/api/keys', lumCookie, { name: 'brief', surface: 'question', expires_at: expiresAt })).json();
    t.clock.advance(2000);
    const listed = (await list(lumCookie)).json().keys.find((k: { id: string }) => k.id === key.id);
    expect(listed.status).toBe('expired');
  });
});

describe('logs', () => {
  it('never contain a key value, a session token, a password or a cookie', async () => {
    const cookie = await signIn(t.app, ws.members.luminary.email);
    const { value } = (await post('/api/keys', cookie, { name: 'logged?', surface: 'workspace' })).json();
    await t.app.inject({ method: 'GET', url: PROBES.workspace, headers: { authorization: `Bearer ${value}`, 'x-forwarded-proto': 'https' } });
    await t.app.inject({ method: 'GET', url: PROBES.workspace, headers: { authorization: `Bearer ${value}x` } });
    // Should someone later log request headers or a credential-bearing object, redaction still holds.
    t.app.log.info({ req: { headers: { authorization: `Bearer ${value}`, cookie } } }, 'diagnostic with headers');
    t.app.log.info({ body: { password: 'correct horse battery staple', value } }, 'diagnostic with a body');
    const all = logLines.join('');
    expect(logLines.length).toBeGreaterThan(10); // the log is really being written
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(value);
    expect(all).not.toContain(value.slice(4)); // not even the secret part
    expect(all).not.toContain(cookie.split('=')[1]!);
    expect(all).not.toContain('correct horse battery staple');
  });
});
