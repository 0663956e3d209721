// The shared state's window counts and generation reads gathered into one Redis call per batch of
// requests (src/shared-state/redis-window-batch.ts), against a redis-server of the test's own, whose
// command statistics count the script runs: concurrent callers are told exactly what separate calls
// would have told them, in fewer calls.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from '../../src/dependency-unavailable.js';
import { redisSharedState } from '../../src/shared-state/redis.js';
import type { SharedState } from '../../src/shared-state/shared-state.js';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.js';
import { hasService } from '../helpers/services.js';

const WINDOW_MS = 3_600_000;

describe.skipIf(!(await hasService('redis')))('window counts and generations gathered per batch, on Redis', () => {
  let redis: OwnRedis;
  let first: SharedState;
  let second: SharedState;
  let admin: Redis;

  beforeAll(async () => {
    redis = await startOwnRedis();
    first = await redisSharedState(redis.url);
    second = await redisSharedState(redis.url);
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    admin?.disconnect();
    await redis?.close();
  });

  /** Script runs Redis has served so far. */
  async function scriptRuns(): Promise<number> {
    const stats = await admin.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  }

  it('hands concurrent hits of one window distinct, gapless counts in one script run', async () => {
    const before = await scriptRuns();
    const counts = await Promise.all(Array.from({ length: 40 }, () => first.hit('batch:one', WINDOW_MS)));
    expect(await scriptRuns()).toBe(before + 1);
    expect(counts.map((c) => c.count)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(counts.map((c) => c.resetAtMs)).size).toBe(1);
  });

  it('keeps windows, peeks and generation reads of one batch apart', async () => {
    await second.bump('batch-generation');
    const generation = await second.generation('batch-generation');
    const [a1, b1, peek, a2, generations, b2] = await Promise.all([
      first.hit('batch:a', WINDOW_MS, ['batch-generation']),
      first.hit('batch:b', 60_000),
      first.peek('batch:a', WINDOW_MS),
      first.hit('batch:a', WINDOW_MS),
      first.generations(['batch-generation', 'batch-other']),
      first.hit('batch:b', 60_000),
    ]);
    expect([a1.count, a2.count]).toEqual([1, 2]);
    expect([b1.count, b2.count]).toEqual([1, 2]);
    // A peek in the same batch sees the window with the batch's hits.
    expect(peek.count).toBe(2);
    expect(a1.generations).toEqual([generation]);
    expect(generations[0]).toBe(generation);
    expect(generations[1]).toEqual(expect.any(Number));
    expect(b1.resetAtMs % 60_000).toBe(0);
    expect(a1.resetAtMs % WINDOW_MS).toBe(0);
  });

  it('counts the same window as one counter with separate calls, across instances', async () => {
    const batched = await Promise.all(Array.from({ length: 10 }, () => first.hit('batch:shared', WINDOW_MS)));
    const alone = await second.hit('batch:shared', WINDOW_MS);
    const again = await Promise.all(Array.from({ length: 5 }, () => first.hit('batch:shared', WINDOW_MS)));
    expect([...batched, alone, ...again].map((c) => c.count)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it('reads a generation bumped by another instance before the read was asked for', async () => {
    for (let i = 0; i < 20; i++) {
      const reads = Promise.all([first.generation('batch-revocation'), first.hit('batch:reads', WINDOW_MS, ['batch-revocation'])]);
      const [seen, hit] = await reads;
      expect(hit.generations[0]).toBe(seen);
      await second.bump('batch-revocation');
      // Asked after the bump was acknowledged: never the value from before it.
      const [after, afterHit] = await Promise.all([first.generation('batch-revocation'), first.hit('batch:reads', WINDOW_MS, ['batch-revocation'])]);
      expect(after).toBeGreaterThan(seen);
      expect(afterHit.generations[0]).toBe(after);
    }
  });

  it('fails every hit of a batch with 503 when Redis does not answer, and hands out unknown generations', async () => {
    redis.pause();
    try {
      const outcomes = await Promise.allSettled([first.hit('batch:down', WINDOW_MS), first.hit('batch:down', WINDOW_MS), first.generations(['batch-generation'])]);
      expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: expect.any(DependencyUnavailableError) });
      expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(DependencyUnavailableError) });
      expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: [expect.any(Number)] });
      expect((outcomes[2] as PromiseFulfilledResult<number[]>).value[0]).toBeLessThan(0);
    } finally {
      redis.resume();
    }
  });
});
