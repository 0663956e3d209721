// A request with a well-formed key is judged by its key, never by its address's budget: after a restart
// (a new app instance on the same store, its key cache empty), a neighbour behind the same address who
// floods the key routes with bad keys spends that address's budget, and a working client's valid key is
// still admitted, on its own budget. Malformed, unknown, revoked and other surfaces' keys keep spending
// the address's budget and are refused with 429 once it is spent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../src/identity/key-formats.js';
import { KeyResolver } from '../src/identity/key-resolver.js';
import { hashToken, randomHex } from '../src/identity/tokens.js';
import { memorySharedState } from '../src/shared-state/memory.js';
import { apiKeysRepo } from '../src/store/api-keys.js';
import { openStore, type Store } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { createKey, openMigratedPglite, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { TestClock } from './helpers/clock.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';

const HTTPS = { 'x-forwarded-proto': 'https' };
const SURFACES = [
  ['question', PROBES.question, '100'],
  ['workspace', PROBES.workspace, '60'],
  ['structured', PROBES.structured, '1000'],
] as const;

/** A documentation address of its own per run: Redis may be shared with other runs. */
const freshAddress = () => `2001:db8::${randomHex(2)}:${randomHex(2)}`;

function send(t: TestApp, url: string, address: string, key?: string) {
  return t.app.inject({ method: 'GET', url, remoteAddress: address, headers: { ...HTTPS, ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}) } });
}

/** What a misbehaving neighbour sends: random well-formed keys of every kind, and malformed ones. */
async function flood(t: TestApp, address: string, requests: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < requests; i++) {
    const [surface, url] = SURFACES[i % SURFACES.length]!;
    const key = i % 4 === 3 ? 'svc_not_a_key' : issueKey(surface).value;
    statuses.push((await send(t, url, address, key)).statusCode);
  }
  return statuses;
}

interface Deployment {
  /** Starts an instance on the deployment's store (and Redis, when it has one). */
  start(): Promise<TestApp>;
  close(): Promise<void>;
}

function restartSuite(name: string, open: () => Promise<Deployment>) {
  describe(`admission after a restart (${name})`, () => {
    let deployment: Deployment;
    let before: TestApp;
    let ws: SeededWorkspace;
    let keys: Record<(typeof SURFACES)[number][0], string>;
    let revoked: string;

    beforeAll(async () => {
      deployment = await open();
      before = await deployment.start();
      ws = await seedWorkspace(before.services);
      keys = {
        question: (await createKey(before.services, ws, 'viewer', 'question')).value,
        workspace: (await createKey(before.services, ws, 'viewer', 'workspace')).value,
        structured: (await createKey(before.services, ws, 'viewer', 'structured')).value,
      };
      const gone = await createKey(before.services, ws, 'viewer', 'question');
      await before.services.keys.revoke({ workspace: ws, user: { id: ws.members.viewer.id }, role: 'viewer' }, gone.id);
      revoked = gone.value;
    }, 60_000);
    afterAll(async () => {
      await before?.close();
      await deployment?.close();
    });

    it('a valid key the new instance has not admitted yet is admitted on its own budget, whatever its address spent', async () => {
      const address = freshAddress();
      // Before the restart the client works from this address.
      for (const [surface, url] of SURFACES) expect((await send(before, url, address, keys[surface])).statusCode).toBe(200);
      // The neighbour starts before the restart and goes on after it (with Redis, the count survives).
      const early = await flood(before, address, 30);
      await before.close();
      const after = await deployment.start();
      before = after;
      const late = await flood(after, address, 70);
      // 60 refusals a minute from the address (with Redis, counted across the restart), then 429 for
      // every bad key: the address's budget is spent when the client comes back.
      expect(early.every((s) => s === 401)).toBe(true);
      const firstLimited = late.indexOf(429);
      expect(firstLimited).toBeGreaterThanOrEqual(0);
      expect([...new Set(late.slice(0, firstLimited))], 'before the budget is spent').toEqual([401]);
      expect([...new Set(late.slice(firstLimited))], 'once it is spent').toEqual([429]);

      for (const [surface, url, limit] of SURFACES) {
        const admitted = await send(after, url, address, keys[surface]);
        expect([surface, admitted.statusCode, admitted.headers['x-ratelimit-limit']], admitted.body).toEqual([surface, 200, limit]);
      }
      // Bad keys from the address are still refused on its spent budget: malformed, unknown, revoked.
      for (const bad of ['svc_sk_nope', issueKey('question').value, revoked]) {
        const refused = await send(after, PROBES.question, address, bad);
        expect([refused.statusCode, refused.json().code, refused.headers['x-ratelimit-limit']]).toEqual([429, 'rate_limited', '60']);
      }
      expect((await send(after, PROBES.question, address)).statusCode).toBe(429);
      // Another address is not held up.
      expect((await send(after, PROBES.question, freshAddress(), issueKey('question').value)).json().code).toBe('invalid_key');
    }, 60_000);
  });
}

restartSuite('PGlite, in-process counters', async () => {
  const store: Store = await openMigratedPglite();
  const clock = new TestClock();
  // Start at a window's beginning, so the flood and the checks fall in one minute.
  clock.advance(60_000 - (clock.now().getTime() % 60_000) + 5);
  return { start: () => startTestApp({ store, clock, env: { TRUST_PROXY: 'true' } }), close: () => store.close() };
});

if ((await hasService('postgres')) && (await hasService('redis'))) {
  restartSuite('PostgreSQL and Redis', async () => {
    const db = await createTestDatabase();
    const store = await openStore({ kind: 'postgres', url: db.url });
    await migrate(store);
    const clock = new TestClock();
    clock.advance(60_000 - (clock.now().getTime() % 60_000) + 5);
    return {
      start: () => startTestApp({ store, clock, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } }),
      async close() {
        await store.close();
        await db.drop();
      },
    };
  });
}

describe('what a flood of random well-formed keys costs', () => {
  let store: Store;
  let ws: SeededWorkspace;
  let t: TestApp;
  beforeAll(async () => {
    store = await openMigratedPglite();
    t = await startTestApp({ store });
    ws = await seedWorkspace(t.services);
  });
  afterAll(async () => {
    await t.close();
    await store.close();
  });

  // The bound of each set, small here so the flood is quick; the service's is 10,000 of each.
  const BOUND = 50;

  /** A resolver over the real store that counts its store reads. */
  function countingResolver() {
    const repo = apiKeysRepo(store.db);
    const reads: string[] = [];
    const counted = { ...repo, findByHash: (hash: string) => (reads.push(hash), repo.findByHash(hash)) };
    return { resolver: new KeyResolver(counted, memorySharedState(t.clock), t.clock, { maxEntries: BOUND }), reads };
  }

  it('an unknown key costs one indexed read, once; a flood of them never evicts an admitted key', async () => {
    const { resolver, reads } = countingResolver();
    const valid = await createKey(t.services, ws, 'viewer', 'question');
    expect((await resolver.resolve(hashToken(valid.value))).status).toBe('active');
    const unknown = hashToken(issueKey('question').value);
    expect((await resolver.resolve(unknown)).status).toBe('unknown');
    expect((await resolver.resolve(unknown)).status).toBe('unknown');
    // One read each; the unknown key asked again costs none.
    expect(reads).toEqual([hashToken(valid.value), unknown]);

    reads.length = 0;
    for (let i = 0; i <= BOUND * 2; i++) await resolver.resolve(hashToken(issueKey('question').value));
    expect(reads).toHaveLength(BOUND * 2 + 1);
    expect(resolver.peekActive(hashToken(valid.value)), 'the admitted key is still cached').toBeDefined();
    reads.length = 0;
    expect((await resolver.resolve(hashToken(valid.value))).status).toBe('active');
    expect(reads).toEqual([]);
  }, 60_000);

  it('a burst of requests with a key not cached yet reads the store once', async () => {
    const { resolver, reads } = countingResolver();
    const valid = await createKey(t.services, ws, 'viewer', 'question');
    const unknown = hashToken(issueKey('question').value);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => resolver.resolve(i % 2 ? hashToken(valid.value) : unknown)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? 'active' : 'unknown')));
    expect(reads.sort()).toEqual([hashToken(valid.value), unknown].sort());
  });
});
