// Redis down, hung, cut or restarted empty, between the app and a real Redis (a TCP proxy in front of
// the shared server, or a throwaway server of our own that we can hang and restart). What must hold:
// key routes answer 503 with Retry-After at once (budgets are never guessed), routes that need no
// count keep working from the store, a change that cannot be announced answers 503 and is announced
// once Redis is back, a revoked key never becomes valid again, and Redis is used again within a
// fraction of a second of its return.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey, PASSWORD, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { behindProxy, countBy, eventually, mixWithinBudget, expectUnavailable, ownClientAddress, sleep, startLoad, timed } from './helpers/outage.js';
import { startOwnRedis, type OwnRedis } from './helpers/own-redis.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';
import type { TcpProxy } from './helpers/tcp-proxy.js';

const HTTPS = { 'x-forwarded-proto': 'https' };
const remoteAddress = ownClientAddress();
// Fail-fast answers on a loaded two-core machine; the old behaviour was a wait of seconds.
const FAST_MS = 1_000;

const available = (await hasService('postgres')) && (await hasService('redis'));

const proxiedRedis = () => behindProxy(REDIS_URL, 6379);

function withKey(t: TestApp, url: string, key: string) {
  return () => t.app.inject({ url, remoteAddress, headers: { ...HTTPS, authorization: `Bearer ${key}` } });
}

const actorOf = (ws: SeededWorkspace) => ({ workspace: ws, user: { id: ws.members.luminary.id }, role: 'luminary' as const });

describe.skipIf(!available)('Redis through a proxy', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let t: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const redis = await proxiedRedis();
    proxy = redis.proxy;
    t = await startTestApp({ databaseUrl: db.url, redisUrl: redis.url, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
    cookie = await signIn(t.app, ws.members.luminary.email);
  });
  afterEach(async () => {
    proxy.setMode('forward');
    await eventually(async () => (await t.app.inject('/readyz')).statusCode === 200, 5_000);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await db?.drop();
  });

  async function keyRoutes() {
    const budget = { rateLimit: 1_000_000 };
    const seen = {
      'A (seen)': withKey(t, PROBES.question, (await createKey(t.services, ws, 'luminary', 'question', budget)).value),
      'B (seen)': withKey(t, PROBES.workspace, (await createKey(t.services, ws, 'luminary', 'workspace', budget)).value),
      'C (seen)': withKey(t, PROBES.structured, (await createKey(t.services, ws, 'luminary', 'structured')).value),
    };
    for (const send of Object.values(seen)) expect((await send()).statusCode).toBe(200);
    return {
      ...seen,
      'A (new)': withKey(t, PROBES.question, (await createKey(t.services, ws, 'luminary', 'question', budget)).value),
      'C (new)': withKey(t, PROBES.structured, (await createKey(t.services, ws, 'luminary', 'structured')).value),
      'unknown route': () => t.app.inject({ url: '/api/v1/no-such-route', remoteAddress }),
    };
  }

  async function expectKeyRoutesUnavailable(routes: Awaited<ReturnType<typeof keyRoutes>>) {
    for (const [what, send] of Object.entries(routes)) expectUnavailable(await timed(send), FAST_MS, what);
    const ready = await timed(() => t.app.inject('/readyz'));
    expectUnavailable(ready, FAST_MS, '/readyz');
    expect(ready.result.json()).toMatchObject({ error: 'Not ready: Redis does not answer', dependencies: { store: 'up', redis: 'down' } });
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  }

  /** Routes that count nothing read through to the store, which answers. */
  async function expectSessionRoutesServing() {
    expect((await t.app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: PROBES.studio, headers: { cookie } })).statusCode).toBe(200);
    // The connection list is cached by a generation in Redis: unreadable, so read from the store.
    expect((await t.app.inject({ url: '/api/studio/connections', headers: { cookie } })).statusCode).toBe(200);
  }

  it('down (refused): key routes 503 at once, sessions keep working, /readyz names Redis; back within a fraction of a second', async () => {
    const routes = await keyRoutes();
    proxy.cutAll();
    proxy.setMode('refuse');
    await expectKeyRoutesUnavailable(routes);
    await expectSessionRoutesServing();
    // Sign-in throttling counts in Redis: no count, no sign-in (existing sessions go on).
    const login = await timed(() => t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: ws.members.viewer.email, password: PASSWORD } }));
    expectUnavailable(login, FAST_MS, 'sign-in');

    proxy.setMode('forward');
    const recoveredMs = await eventually(async () => (await routes['A (seen)']()).statusCode === 200, 1_000, 10);
    expect(recoveredMs).toBeLessThan(1_000);
    for (const [what, send] of Object.entries(routes)) expect((await send()).statusCode, what).toBe(what === 'unknown route' ? 404 : 200);
  });

  it('hung (new connections never answered): still 503 at once, not after a connect time-out', async () => {
    const routes = await keyRoutes();
    proxy.cutAll();
    proxy.setMode('blackhole');
    await expectKeyRoutesUnavailable(routes);
    await expectSessionRoutesServing();
  });

  it('a revocation that cannot be announced answers 503, and takes effect once Redis is back', async () => {
    const key = await createKey(t.services, ws, 'luminary', 'structured');
    const send = withKey(t, PROBES.structured, key.value);
    expect((await send()).statusCode).toBe(200); // cached as active, under the current generation
    proxy.cutAll();
    proxy.setMode('refuse');
    const revoke = await timed(() => t.app.inject({ method: 'POST', url: `/api/keys/${key.id}/revoke`, headers: { cookie, 'content-type': 'application/json' } }));
    expectUnavailable(revoke, FAST_MS, 'revoke');
    // Saved in the store all the same: the console shows it revoked.
    const listed = (await t.app.inject({ url: '/api/keys', headers: { cookie } })).json().keys.find((k: { id: string }) => k.id === key.id);
    expect(listed.status).toBe('revoked');

    proxy.setMode('forward');
    await eventually(async () => (await t.app.inject('/readyz')).statusCode === 200, 2_000);
    // The generation it could not bump has moved on anyway: the cached copy is not trusted again.
    const after = await send();
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('key_revoked');
    // Retrying the revocation announces it and succeeds.
    expect((await t.app.inject({ method: 'POST', url: `/api/keys/${key.id}/revoke`, headers: { cookie, 'content-type': 'application/json' } })).statusCode).toBe(200);
  });

  it('survives twelve quick cuts under concurrent load: no 500, and serving again at once', async () => {
    // Unknown routes stay out of it: they spend the address's budget of refusals, and would meet it.
    const { 'unknown route': _unknown, ...routes } = await keyRoutes();
    const { 'C (seen)': seenC, 'C (new)': newC, ...others } = routes;
    const send = mixWithinBudget([...Object.values(others), () => t.app.inject({ url: '/api/auth/me', headers: { cookie } })], [seenC, newC], 500);
    const load = startLoad(12, async (i) => (await send(i)).statusCode);
    for (let cut = 0; cut < 12; cut++) {
      await sleep(250);
      proxy.cutAll();
      proxy.setMode('refuse');
      await sleep(150);
      proxy.setMode('forward');
    }
    await sleep(500);
    const statuses = await load.stop();
    const counts = countBy(statuses);
    expect(Object.keys(counts).map(Number).sort(), JSON.stringify(counts)).toEqual([200, 503]);
    for (const [what, send] of Object.entries(routes)) expect((await send()).statusCode, what).toBe(200);
  });
});

describe.skipIf(!available)('two instances, one of which loses Redis', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;

  beforeAll(async () => {
    db = await createTestDatabase();
    const redis = await proxiedRedis();
    proxy = redis.proxy;
    one = await startTestApp({ databaseUrl: db.url, redisUrl: redis.url, env: { TRUST_PROXY: 'true' } });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(one.services);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('a revocation made while cut off is refused by the other instance once announced', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'question');
    const onTwo = withKey(two, PROBES.question, key.value);
    expect((await onTwo()).statusCode).toBe(200);
    proxy.cutAll();
    proxy.setMode('refuse');
    await expect(one.services.keys.revoke(actorOf(ws), key.id)).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    proxy.setMode('forward');
    await eventually(async () => (await one.app.inject('/readyz')).statusCode === 200, 2_000);
    expect((await onTwo()).statusCode).toBe(401);
  });
});

describe.skipIf(!(await hasService('postgres')))('a Redis of our own, hung and restarted empty', () => {
  let redis: OwnRedis;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;

  beforeAll(async () => {
    redis = await startOwnRedis();
    db = await createTestDatabase();
    one = await startTestApp({ databaseUrl: db.url, redisUrl: redis.url, env: { TRUST_PROXY: 'true' } });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: redis.url, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(one.services);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.close();
    await db?.drop();
  });

  it('hung with its connections open: the first request waits one command time-out, the next fail at once', async () => {
    const send = withKey(one, PROBES.question, (await createKey(one.services, ws, 'luminary', 'question')).value);
    expect((await send()).statusCode).toBe(200);
    redis.pause();
    try {
      expectUnavailable(await timed(send), 2_500, 'first, hung');
      // The hung connection was dropped: nothing waits on it any more.
      for (let i = 0; i < 3; i++) expectUnavailable(await timed(send), FAST_MS, 'next, hung');
    } finally {
      redis.resume();
    }
    const recoveredMs = await eventually(async () => (await send()).statusCode === 200, 3_000);
    expect(recoveredMs).toBeLessThan(3_000);
  });

  it('restarted without its data: a key revoked before never becomes valid again', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'question');
    const onTwo = withKey(two, PROBES.question, key.value);
    expect((await onTwo()).statusCode).toBe(200); // cached on two
    await one.services.keys.revoke(actorOf(ws), key.id);
    await redis.restartEmpty(); // the generation the revocation bumped is gone
    for (const instance of [one, two]) await eventually(async () => (await instance.app.inject('/readyz')).statusCode === 200, 3_000);
    const after = await onTwo();
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('key_revoked');
  });
});
