// Console sessions are kept in memory as API keys are: a request of a known session does not read
// the store, yet sign-out, a role change and a member's removal take effect on the very next request,
// on this instance and on every other one sharing the store and Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CACHE_MAX_AGE_MS } from '../src/identity/session-service.js';
import { hashToken } from '../src/identity/tokens.js';
import { consoleCall, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';


const tokenOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1]!.split(';')[0]!);

describe('one instance', () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  beforeAll(async () => {
    t = await startTestApp();
    ws = await seedWorkspace(t.services);
  });
  afterAll(() => t.close());

  it('answers a known session from memory, and reads the store again within the bound', async () => {
    const cookie = await signIn(t.app, ws.members.viewer.email);
    expect((await consoleCall(t, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    // Removed behind the service's back (by hand, in the store): only the bound ends it.
    await t.store.db.deleteFrom('sessions').where('token_hash', '=', hashToken(tokenOf(cookie))).execute();
    expect((await consoleCall(t, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    t.clock.advance(SESSION_CACHE_MAX_AGE_MS);
    expect((await consoleCall(t, cookie, 'GET', '/api/auth/me')).json().code).toBe('session_expired');
  });

  it('sign-out ends the session at once', async () => {
    const cookie = await signIn(t.app, ws.members.editor.email);
    expect((await consoleCall(t, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    expect((await consoleCall(t, cookie, 'POST', '/api/auth/logout', {})).statusCode).toBeLessThan(300);
    expect((await consoleCall(t, cookie, 'GET', '/api/auth/me')).json().code).toBe('session_expired');
  });
});

const shared = (await hasService('redis')) && (await hasService('postgres'));

describe.skipIf(!shared)('two instances over one PostgreSQL store and Redis', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;
  let luminary: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL });
    ws = await seedWorkspace(one.services);
    luminary = await signIn(one.app, ws.members.luminary.email);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('sign-out on one instance ends the session on the other at once', async () => {
    const cookie = await signIn(two.app, ws.members.tracer.email);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    expect((await consoleCall(one, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    expect((await consoleCall(one, cookie, 'POST', '/api/auth/logout', {})).statusCode).toBeLessThan(300);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).json().code).toBe('session_expired');
  });

  it('a role change on one instance applies to a session cached on the other at once', async () => {
    const editor = ws.members.editor;
    const cookie = await signIn(two.app, editor.email);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).json().role).toBe('editor');
    expect((await consoleCall(one, luminary, 'PATCH', `/api/members/${editor.id}`, { role: 'viewer' })).statusCode).toBe(200);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).json().role).toBe('viewer');
  });

  it("a member's removal on one instance ends their session on the other at once", async () => {
    const viewer = ws.members.viewer;
    const cookie = await signIn(two.app, viewer.email);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    expect((await consoleCall(one, luminary, 'DELETE', `/api/members/${viewer.id}`)).statusCode).toBeLessThan(300);
    expect((await consoleCall(two, cookie, 'GET', '/api/auth/me')).statusCode).toBe(401);
  });
});
