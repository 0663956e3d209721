// Rate limits of spec section 8 against the real guard: in-process counters with a movable clock, and
// two app instances sharing Redis (and PostgreSQL) that together never admit more than the budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';

const HTTPS = { 'x-forwarded-proto': 'https' };

function hitter(t: TestApp, url: string, value: string) {
  return () => t.app.inject({ method: 'GET', url, headers: { ...HTTPS, authorization: `Bearer ${value}` } });
}

describe('in-process counters', () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
  });
  afterAll(() => t.close());

  /** Moves the test clock to the start of the next window, so a test never straddles two. */
  function toWindowStart(windowMs: number) {
    const now = t.clock.now().getTime();
    t.clock.advance(windowMs - (now % windowMs) + 5);
  }

  it('A: 100 per key per clock hour, each key its own budget, then 429 with Retry-After until the next hour', async () => {
    toWindowStart(3_600_000);
    const first = await createKey(t.services, ws, 'viewer', 'question');
    const second = await createKey(t.services, ws, 'viewer', 'question');
    const hit = hitter(t, PROBES.question, first.value);
    for (let i = 0; i < 100; i++) expect((await hit()).statusCode).toBe(200);
    t.clock.advance(30 * 60_000);
    const limited = await hit();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/100 requests per hour for this key/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(29 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);

    expect((await hitter(t, PROBES.question, second.value)()).statusCode).toBe(200);
    t.clock.advance(retryAfter * 1000);
    expect((await hit()).statusCode).toBe(200);
  });

  it("A: a key's own rate_limit replaces the default", async () => {
    toWindowStart(3_600_000);
    const key = await createKey(t.services, ws, 'luminary', 'question', { rateLimit: 3 });
    const hit = hitter(t, PROBES.question, key.value);
    for (let i = 0; i < 3; i++) expect((await hit()).statusCode).toBe(200);
    expect((await hit()).statusCode).toBe(429);
  });

  it('B: 60 per minute per key, X-RateLimit-* on every response including the 429', async () => {
    toWindowStart(60_000);
    const key = await createKey(t.services, ws, 'viewer', 'workspace');
    const hit = hitter(t, PROBES.workspace, key.value);
    const windowEnd = (Math.floor(t.clock.now().getTime() / 60_000) + 1) * 60; // epoch seconds
    for (let i = 1; i <= 60; i++) {
      const response = await hit();
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('60');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(Number(response.headers['x-ratelimit-reset'])).toBe(windowEnd);
    }
    const limited = await hit();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    t.clock.advance(60_000);
    const next = await hit();
    expect(next.statusCode).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('59');
  });

  it("C: a revoked key cannot spend its workspace's budget by hammering", async () => {
    toWindowStart(60_000);
    const own = await seedWorkspace(t.services);
    const gone = await createKey(t.services, own, 'luminary', 'structured');
    const kept = await createKey(t.services, own, 'luminary', 'structured');
    expect((await hitter(t, PROBES.structured, gone.value)()).statusCode).toBe(200); // counted: 1
    await t.services.keys.revoke({ workspace: own, user: { id: own.members.luminary.id }, role: 'luminary' }, gone.id);
    for (let i = 0; i < 20; i++) expect((await hitter(t, PROBES.structured, gone.value)()).statusCode).toBe(401); // the first may count: 2
    const next = await hitter(t, PROBES.structured, kept.value)(); // counted: 3
    expect(next.headers['x-ratelimit-remaining']).toBe('997');
  });

  it('HEAD requests (routed from GET) are guarded and counted exactly once', async () => {
    toWindowStart(60_000);
    const key = await createKey(t.services, ws, 'viewer', 'workspace');
    const headers = { ...HTTPS, authorization: `Bearer ${key.value}` };
    expect((await t.app.inject({ method: 'HEAD', url: PROBES.workspace, headers: HTTPS })).statusCode).toBe(401);
    const head = await t.app.inject({ method: 'HEAD', url: PROBES.workspace, headers });
    const get = await t.app.inject({ method: 'GET', url: PROBES.workspace, headers });
    expect([head.statusCode, head.headers['x-ratelimit-remaining'], get.headers['x-ratelimit-remaining']]).toEqual([200, '59', '58']);
  });

  it('C: 1000 per minute per workspace, shared by all its keys', async () => {
    toWindowStart(60_000);
    const own = await seedWorkspace(t.services);
    const keys = [await createKey(t.services, own, 'viewer', 'structured'), await createKey(t.services, own, 'editor', 'structured')];
    for (let i = 0; i < 1000; i++) {
      expect((await hitter(t, PROBES.structured, keys[i % 2]!.value)()).statusCode).toBe(200);
    }
    const limited = await hitter(t, PROBES.structured, keys[0]!.value)();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/1000 requests per minute for this workspace/);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another workspace is unaffected.
    const elsewhere = await createKey(t.services, ws, 'viewer', 'structured');
    expect((await hitter(t, PROBES.structured, elsewhere.value)()).statusCode).toBe(200);
  });
});

describe('requests answered without an accepted key: the budget of their address', () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  const remoteAddress = '192.0.2.7';
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
  });
  afterAll(() => t.close());

  function toWindowStart() {
    const now = t.clock.now().getTime();
    t.clock.advance(60_000 - (now % 60_000) + 5);
  }
  const windowEnd = () => String((Math.floor(t.clock.now().getTime() / 60_000) + 1) * 60);
  const send = (url: string, headers: Record<string, string> = HTTPS, address = remoteAddress) => t.app.inject({ method: 'GET', url, remoteAddress: address, headers });

  /** Every shared-state call is one round trip to Redis when it is configured: count them. */
  function countRoundTrips() {
    const calls: string[] = [];
    const { shared } = t.services;
    for (const name of ['hit', 'peek', 'generation', 'bump'] as const) {
      const real = shared[name].bind(shared) as (...args: unknown[]) => Promise<unknown>;
      (shared as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => (calls.push(name), real(...args));
    }
    return calls;
  }

  it('B: 401, 403 https_required, 400 key_in_url and unknown routes carry X-RateLimit-* and spend it', async () => {
    toWindowStart();
    const own = await createKey(t.services, ws, 'viewer', 'workspace');
    const other = await createKey(t.services, ws, 'viewer', 'question');
    const revoked = await createKey(t.services, ws, 'viewer', 'workspace');
    await t.services.keys.revoke({ workspace: ws, user: { id: ws.members.viewer.id }, role: 'viewer' }, revoked.id);
    const refusals: Array<[string, () => ReturnType<typeof send>, number, string]> = [
      ['no key', () => send(PROBES.workspace), 401, 'missing_key'],
      ['a malformed key', () => send(PROBES.workspace, { ...HTTPS, authorization: 'Bearer svc_nope' }), 401, 'malformed_key'],
      ['an unknown key', () => send(PROBES.workspace, { ...HTTPS, authorization: `Bearer svc_${'0'.repeat(64)}` }), 401, 'invalid_key'],
      ['a revoked key', () => send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${revoked.value}` }), 401, 'key_revoked'],
      // Another surface's key is not looked at, so it has no budget to show: the address's it is.
      ["another surface's key", () => send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${other.value}` }), 401, 'wrong_key_type'],
      ['plain HTTP', () => send(PROBES.workspace, { authorization: `Bearer ${own.value}` }), 403, 'https_required'],
      ['a key in the URL', () => send(`${PROBES.workspace}?api_key=${own.value}`, { ...HTTPS, authorization: `Bearer ${own.value}` }), 400, 'key_in_url'],
      // /api/v1 is shared by A and B: an unknown route there looks at no key either.
      ['an unknown route of A or B', () => send('/api/v1/projectz', { ...HTTPS, authorization: `Bearer ${own.value}` }), 404, 'route_not_found'],
      ['an unknown route of C', () => send('/v1/nodez'), 404, 'route_not_found'],
    ];
    let spent = 0;
    for (const [what, request, status, code] of refusals) {
      const response = await request();
      spent++;
      expect([what, response.statusCode, response.json().code]).toEqual([what, status, code]);
      expect(response.headers, what).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(60 - spent), 'x-ratelimit-reset': windowEnd() });
    }
    // A and C refusals spend the same budget; an accepted key shows its own; other routes show none.
    expect((await send(PROBES.question)).headers['x-ratelimit-remaining']).toBe(String(60 - ++spent));
    expect((await send(PROBES.structured)).headers['x-ratelimit-remaining']).toBe(String(60 - ++spent));
    expect((await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${own.value}` })).headers['x-ratelimit-remaining']).toBe('59');
    const elsewhere = await send('/nothing-here');
    expect([elsewhere.statusCode, elsewhere.headers['x-ratelimit-limit']]).toEqual([404, undefined]);
  });

  it('spent: 429 with Retry-After for bad keys; a valid key not seen here is still looked up and admitted', async () => {
    toWindowStart();
    const seen = await createKey(t.services, ws, 'viewer', 'workspace');
    const unseen = await createKey(t.services, ws, 'viewer', 'workspace');
    expect((await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${seen.value}` })).statusCode).toBe(200);
    for (let i = 1; i <= 60; i++) expect((await send(PROBES.workspace)).statusCode).toBe(401);
    t.clock.advance(20_000);

    const limited = await send(PROBES.workspace);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/without a valid API key from this address/) });
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': windowEnd() });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(35);
    expect(retryAfter).toBeLessThanOrEqual(40);

    const lookups: string[] = [];
    const resolve = t.services.keyResolver.resolve.bind(t.services.keyResolver);
    t.services.keyResolver.resolve = (hash, generation) => (lookups.push(hash), resolve(hash, generation));
    // A well-formed key is judged by the key: an unknown one is looked up and refused on the spent budget,
    // a valid one this instance has not seen is admitted on its own.
    const guessed = await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer svc_${'1'.repeat(64)}` });
    expect([guessed.statusCode, lookups.length]).toEqual([429, 1]);
    const admitted = await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${unseen.value}` });
    expect([admitted.statusCode, admitted.headers['x-ratelimit-remaining'], lookups.length]).toEqual([200, '59', 2]);
    // A key this instance has admitted before is not held up by its neighbours' failures.
    expect((await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${seen.value}` })).statusCode).toBe(200);
    // Another address is not affected, and the next window starts afresh.
    expect((await send(PROBES.workspace, HTTPS, '192.0.2.8')).statusCode).toBe(401);
    t.clock.advance(retryAfter * 1000);
    expect((await send(PROBES.workspace)).statusCode).toBe(401);
  });

  it('adds no round trip to an accepted request: one for a key seen before, two for one not seen yet', async () => {
    toWindowStart();
    const key = await createKey(t.services, ws, 'viewer', 'workspace');
    const calls = countRoundTrips();
    expect((await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${key.value}` })).statusCode).toBe(200);
    expect(calls.splice(0)).toEqual(['generation', 'hit']); // the generation for the lookup, then the count
    expect((await send(PROBES.workspace, { ...HTTPS, authorization: `Bearer ${key.value}` })).statusCode).toBe(200);
    expect(calls.splice(0)).toEqual(['hit']); // the count with the generation
  });
});

const shared = (await hasService('redis')) && (await hasService('postgres'));

describe.skipIf(!shared)('two instances sharing Redis and PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;

  beforeAll(async () => {
    db = await createTestDatabase();
    one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    // A second instance: its own pool, caches and Redis connection, over the same database.
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(one.services);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('never admit more than the budget together, under concurrency', async () => {
    const key = await createKey(one.services, ws, 'viewer', 'question', {});
    const statuses = await Promise.all(
      Array.from({ length: 260 }, (_, i) => hitter(i % 2 ? one : two, PROBES.question, key.value)().then((r) => r.statusCode)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(160);
  });

  it('share the B budget and report the same remaining count', async () => {
    const key = await createKey(one.services, ws, 'viewer', 'workspace');
    const a = await hitter(one, PROBES.workspace, key.value)();
    const b = await hitter(two, PROBES.workspace, key.value)();
    expect([a.headers['x-ratelimit-remaining'], b.headers['x-ratelimit-remaining']]).toEqual(['59', '58']);
    expect(a.headers['x-ratelimit-reset']).toBe(b.headers['x-ratelimit-reset']);
  });

  it('see a revocation made on the other instance on the very next request', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'structured');
    expect((await hitter(two, PROBES.structured, key.value)()).statusCode).toBe(200); // cached on two
    await one.services.keys.revoke({ workspace: ws, user: { id: ws.members.luminary.id }, role: 'luminary' }, key.id);
    const after = await hitter(two, PROBES.structured, key.value)();
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('key_revoked');
  });
});
