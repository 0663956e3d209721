// The metadata store down, hung or cut mid-query, through a real TCP proxy in front of the real
// PostgreSQL (and the embedded PGlite closed under a running app): every surface answers 503 with
// Retry-After within a bounded time, never a 500 or a hang; the process survives; the first request
// after the store is back succeeds.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CACHE_MAX_AGE_MS } from '../src/identity/session-service.js';
import { STORE_LIMITS } from '../src/store/db.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { behindProxy, countBy, mixWithinBudget, expectUnavailable, ownClientAddress, sleep, startLoad, timed } from './helpers/outage.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';
import type { TcpProxy } from './helpers/tcp-proxy.js';

const HTTPS = { 'x-forwarded-proto': 'https' };
const remoteAddress = ownClientAddress();
// Generous for a loaded two-core machine, and still far below a hang (and below pg's own defaults:
// no connect or query time limit at all).
const FAST_MS = 1_500;
const CONNECT_BOUND_MS = STORE_LIMITS.connectMs + 1_500;
const STATEMENT_BOUND_MS = STORE_LIMITS.queryMs + 1_500;

const available = (await hasService('postgres')) && (await hasService('redis'));

/**
 * A console request whose session must be read from the store: sessions are cached as keys are, for
 * SESSION_CACHE_MAX_AGE_MS at most, so the clock is moved past that first (as for a session this
 * instance has not seen lately).
 */
function sessionRequest(t: TestApp, cookie: string, url = '/api/auth/me') {
  t.clock.advance(SESSION_CACHE_MAX_AGE_MS);
  return t.app.inject({ url, headers: { cookie } });
}

describe.skipIf(!available)('the metadata PostgreSQL store, through a proxy', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let t: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const store = await behindProxy(db.url, 5432);
    proxy = store.proxy;
    t = await startTestApp({ databaseUrl: store.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
    cookie = await signIn(t.app, ws.members.luminary.email);
  });
  afterEach(() => proxy.setMode('forward'));
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await db?.drop();
  });

  /**
   * Keys this instance has never looked up: admitting them needs the store. Their own budgets are
   * raised so that load never meets them (C's is its workspace's, 1000 a minute, which the load keeps within).
   */
  async function freshKeys() {
    const budget = { rateLimit: 1_000_000 };
    return {
      question: (await createKey(t.services, ws, 'luminary', 'question', budget)).value,
      workspace: (await createKey(t.services, ws, 'luminary', 'workspace', budget)).value,
      structured: (await createKey(t.services, ws, 'luminary', 'structured')).value,
    };
  }

  function surfaces(keys: Awaited<ReturnType<typeof freshKeys>>) {
    const withKey = (url: string, key: string) => () => t.app.inject({ url, remoteAddress, headers: { ...HTTPS, authorization: `Bearer ${key}` } });
    return {
      'session (console)': () => sessionRequest(t, cookie),
      'session (editor)': () => sessionRequest(t, cookie, PROBES.studio),
      'key A': withKey(PROBES.question, keys.question),
      'key B': withKey(PROBES.workspace, keys.workspace),
      'key C': withKey(PROBES.structured, keys.structured),
    };
  }

  async function expectEverySurfaceUnavailable(keys: Awaited<ReturnType<typeof freshKeys>>, withinMs: number) {
    for (const [what, send] of Object.entries(surfaces(keys))) expectUnavailable(await timed(send), withinMs, what);
    const ready = await timed(() => t.app.inject('/readyz'));
    expectUnavailable(ready, withinMs, '/readyz');
    expect(ready.result.json()).toMatchObject({ error: 'Not ready: the metadata store does not answer', dependencies: { store: 'down', redis: 'up' } });
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  }

  async function expectEverySurfaceServing(keys: Awaited<ReturnType<typeof freshKeys>>) {
    for (const [what, send] of Object.entries(surfaces(keys))) expect((await send()).statusCode, what).toBe(200);
    expect((await t.app.inject('/readyz')).json()).toEqual({
      status: 'ready',
      store: 'postgres',
      dependencies: { store: 'up', redis: 'up' },
      instance: t.services.config.instanceName,
      duckdb_files: { checked: 0, missing: 0 },
    });
  }

  it('down (connections refused): 503 with Retry-After on every surface, fast; /readyz names the store', async () => {
    const keys = await freshKeys();
    proxy.cutAll();
    proxy.setMode('refuse');
    await expectEverySurfaceUnavailable(keys, FAST_MS);
    proxy.setMode('forward');
    // Back: the very first requests succeed, nothing to wait for.
    await expectEverySurfaceServing(keys);
  });

  it('hung (new connections never answered): 503 within the connect time limit, not a hang', async () => {
    const keys = await freshKeys();
    proxy.cutAll();
    proxy.setMode('blackhole');
    await expectEverySurfaceUnavailable(keys, CONNECT_BOUND_MS);
    proxy.setMode('forward');
    await expectEverySurfaceServing(keys);
  });

  it('hung under open connections: 503 within the query time limit, and the hung connection is never reused', async () => {
    expect((await sessionRequest(t, cookie)).statusCode).toBe(200);
    proxy.hangAll(); // the pooled connections stay open and never answer again
    proxy.setMode('blackhole'); // nor do new ones
    const hung = await timed(() => sessionRequest(t, cookie));
    expectUnavailable(hung, STATEMENT_BOUND_MS, 'hung query');
    expect(hung.ms).toBeGreaterThanOrEqual(STORE_LIMITS.connectMs - 100);
    proxy.setMode('forward');
    // Were the hung connection handed out again, this would wait out the query limit once more.
    const next = await timed(() => sessionRequest(t, cookie));
    expect([next.result.statusCode, next.ms < FAST_MS]).toEqual([200, true]);
  });

  it('a query cut mid-flight answers 503, and the process keeps serving', async () => {
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    try {
      // Holds the session lookup inside the server, so that the cut lands while it is running.
      await blocker.query('begin; lock table sessions in access exclusive mode');
      const pending = timed(() => sessionRequest(t, cookie));
      await sleep(300);
      proxy.cutAll();
      expectUnavailable(await pending, FAST_MS + 300, 'cut mid-query');
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await sessionRequest(t, cookie)).statusCode).toBe(200);
  });

  it('a statement stuck behind a lock answers 503 once the statement time limit passes', async () => {
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    try {
      await blocker.query('begin; lock table sessions in access exclusive mode');
      const stuck = await timed(() => sessionRequest(t, cookie));
      expectUnavailable(stuck, STATEMENT_BOUND_MS, 'stuck statement');
      expect(stuck.ms).toBeGreaterThanOrEqual(STORE_LIMITS.statementMs - 100);
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await sessionRequest(t, cookie)).statusCode).toBe(200);
  });

  it('keys and sessions seen lately keep working while the store is down: admitting them needs only Redis', async () => {
    const keys = await freshKeys();
    await expectEverySurfaceServing(keys);
    proxy.cutAll();
    proxy.setMode('refuse');
    const { 'key A': a, 'key B': b, 'key C': c } = surfaces(keys);
    for (const send of [a, b, c]) expect((await send()).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
  });

  it('survives twelve quick restarts under concurrent load: no 500, and serving at once afterwards', async () => {
    const keys = await freshKeys();
    const { 'key C': structured, ...others } = surfaces(keys);
    const send = mixWithinBudget(Object.values(others), [structured], 500);
    const load = startLoad(12, async (i) => (await send(i)).statusCode);
    for (let restart = 0; restart < 12; restart++) {
      await sleep(250);
      proxy.cutAll(); // the server dies with queries in flight…
      proxy.setMode('refuse'); // …stays down a moment…
      await sleep(150);
      proxy.setMode('forward'); // …and is back.
    }
    await sleep(250);
    const statuses = await load.stop();
    const counts = countBy(statuses);
    expect(Object.keys(counts).map(Number).sort(), JSON.stringify(counts)).toEqual([200, 503]);
    await expectEverySurfaceServing(keys);
  });
});

describe('the embedded PGlite store closed under a running app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('answers 503 (not 500) on every route that needs it, and /readyz says so', async () => {
    const ws = await seedWorkspace(t.services);
    const cookie = await signIn(t.app, ws.members.luminary.email);
    const key = await createKey(t.services, ws, 'luminary', 'question');
    await t.store.close();
    expectUnavailable(await timed(() => sessionRequest(t, cookie)), FAST_MS, 'session');
    expectUnavailable(await timed(() => t.app.inject({ url: PROBES.question, headers: { authorization: `Bearer ${key.value}` } })), FAST_MS, 'key A');
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().dependencies).toEqual({ store: 'down' });
  });
});
