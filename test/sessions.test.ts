// Console sign-in, sessions and their expiry, throttling and CSRF, through the real routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/identity/tokens.js';
import { createKey, PASSWORD, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

let t: TestApp;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_SESSION_IDLE_MINUTES: '30', SVC_SESSION_MAX_HOURS: '2' } });
  ws = await seedWorkspace(t.services);
});
afterAll(() => t.close());

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers });

describe('sign-in', () => {
  it('returns user, workspace and role, and sets an HttpOnly SameSite=Lax session cookie', async () => {
    const response = await login(ws.members.editor.email.toUpperCase(), PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { id: ws.members.editor.id, email: ws.members.editor.email },
      workspace: { id: ws.id, plan: 'team' },
      role: 'editor',
    });
    const cookie = response.cookies.find((c) => c.name === 'svc_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy(); // plain HTTP in this test; see https.test.ts for Secure
    // Only a hash of the token is stored.
    const rows = await t.store.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(cookie.value));
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
  });

  it("gives the cookie a lifetime relative to its arrival, so a browser whose clock differs from the service's keeps it", async () => {
    // The service's clock sits months away from any browser's (tests inject a fixed instant; a server's
    // clock can drift). An absolute Expires judged by the browser's clock would be in its past, and the
    // browser would drop the cookie at once: signed in, then signed out on the next page.
    const response = await login(ws.members.viewer.email, PASSWORD);
    expect(response.statusCode).toBe(200);
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/;\s*Max-Age=7200(;|$)/i);
    expect(header).not.toMatch(/;\s*Expires=/i);
  });

  it('401 for a wrong password and for an unknown e-mail, with the same message', async () => {
    const wrong = await login(ws.members.viewer.email, 'not the password');
    const unknown = await login('nobody@example.com', PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    }
  });

  it('400 for a body without the fields', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/body\.password/);
  });

  it('throttles repeated failures for an account: 429 with Retry-After, even with the right password', async () => {
    const target = await seedWorkspace(t.services);
    const email = target.members.viewer.email;
    for (let i = 0; i < 5; i++) expect((await login(email, `guess ${i}`)).statusCode).toBe(401);
    const blocked = await login(email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json().code).toBe('rate_limited');
    // Other accounts are not locked by it, and the window passes.
    expect((await login(target.members.editor.email, PASSWORD)).statusCode).toBe(200);
    t.clock.advance(15 * 60_000);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('session lifecycle', () => {
  it('GET /api/auth/me answers the signed-in user; logout ends the session at once', async () => {
    const cookie = await signIn(t.app, ws.members.tracer.email);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'tracer', workspace: { id: ws.id } });

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, 'content-type': 'application/json' } });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('session_expired');
  });

  it('401 without a cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('session_required');
  });

  it('expires after the idle timeout, and activity keeps it alive', async () => {
    const cookie = await signIn(t.app, ws.members.viewer.email);
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    t.clock.advance(25 * 60_000);
    expect((await me()).statusCode).toBe(200); // activity at 25 min moves the idle deadline
    t.clock.advance(25 * 60_000);
    expect((await me()).statusCode).toBe(200);
    t.clock.advance(31 * 60_000);
    expect((await me()).statusCode).toBe(401);
  });

  it('expires at the absolute limit however active it is', async () => {
    const cookie = await signIn(t.app, ws.members.viewer.email);
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    for (let i = 0; i < 4; i++) {
      t.clock.advance(29 * 60_000);
      expect((await me()).statusCode).toBe(200);
    }
    t.clock.advance(5 * 60_000); // 2 h 1 min after sign-in
    const expired = await me();
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['set-cookie']).toMatch(/svc_session=;/);
  });

  it('console routes refuse API keys (401), even valid ones', async () => {
    const key = await createKey(t.services, ws, 'luminary', 'question');
    const response = await t.app.inject({ method: 'GET', url: '/api/keys', headers: { authorization: `Bearer ${key.value}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatch(/signed-in session, not an API key/);
  });
});

describe('CSRF defence on cookie-authenticated writes', () => {
  it('refuses a write that is not JSON (415)', async () => {
    const cookie = await signIn(t.app, ws.members.luminary.email);
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        headers: { cookie, 'content-type': type },
        payload: 'name=x&surface=question',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().code).toBe('unsupported_media_type');
    }
  });

  it('refuses a write from another origin (403) and accepts one from this host', async () => {
    const cookie = await signIn(t.app, ws.members.luminary.email);
    const post = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/keys',
        headers: { cookie, origin, host: 'console.example.com' },
        payload: { name: 'from a page', surface: 'question' },
      });
    const evil = await post('https://evil.example.net');
    expect(evil.statusCode).toBe(403);
    expect(evil.json().code).toBe('cross_site_refused');
    expect((await post('null')).statusCode).toBe(403);
    expect((await post('https://console.example.com')).statusCode).toBe(201);
  });

  it('refuses a cross-site sign-in (login CSRF)', async () => {
    const response = await login(ws.members.viewer.email, PASSWORD, { origin: 'https://evil.example.net' });
    expect(response.statusCode).toBe(403);
  });
});
