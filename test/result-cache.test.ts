// The result cache's own bounds: bytes rather than entries, no oversized entries, expired entries
// dropped without being read, and memory that stays flat however many distinct answers pass through.
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryResultCache, redisResultCache, type ResultCache } from '../src/querying/result-cache.js';
import { TestClock } from './helpers/clock.js';
import { hasService, REDIS_URL } from './helpers/services.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
const clock = new TestClock();
let cache: ResultCache | undefined;
afterEach(async () => {
  await cache?.close();
  cache = undefined;
});

/** A distinct answer of about `bytes` bytes in memory (two a character). */
const answer = (bytes: number) => JSON.stringify({ data: randomBytes(bytes / 4).toString('hex').slice(0, bytes / 2 - 20) });

describe('the in-process result cache', () => {
  it('stays within its byte bound, and the heap stays flat, past many times that many large answers', async () => {
    const maxBytes = 16 * MB;
    cache = memoryResultCache({ ttlMs: 600_000, maxBytes, maxEntryBytes: 2 * MB }, () => clock.now().getTime());
    const fill = async (answers: number) => {
      for (let i = 0; i < answers; i++) {
        await cache!.set(`k${randomBytes(8).toString('hex')}`, answer(512 * 1024));
        expect(cache!.stats().bytes).toBeLessThanOrEqual(maxBytes);
      }
    };
    await fill(64); // full: 32 MB offered to a 16 MB cache
    gc();
    const full = process.memoryUsage().heapUsed;
    await fill(800); // 400 MB more, every answer distinct
    gc();
    const after = process.memoryUsage().heapUsed;
    const { bytes, entries } = cache.stats();
    expect(bytes).toBeGreaterThan(maxBytes - MB); // it is used, up to its bound
    expect(entries).toBeLessThanOrEqual(32);
    // An unbounded cache would hold 400 MB more; the margin allows for the allocator, not for entries.
    expect(after - full).toBeLessThan(maxBytes / 2);
  }, 60_000);

  it('does not store an answer above the entry limit, nor anything when turned off', async () => {
    cache = memoryResultCache({ ttlMs: 60_000, maxBytes: 8 * MB, maxEntryBytes: 64 * 1024 }, () => clock.now().getTime());
    await cache.set('small', answer(32 * 1024));
    await cache.set('large', answer(128 * 1024));
    expect([await cache.get('small'), await cache.get('large')]).toEqual([expect.any(String), undefined]);
    expect(cache.stats().entries).toBe(1);
    const off = memoryResultCache({ ttlMs: 0, maxBytes: 8 * MB, maxEntryBytes: 64 * 1024 }, () => clock.now().getTime());
    await off.set('small', answer(1024));
    expect(await off.get('small')).toBeUndefined();
  });

  it('drops expired entries without their being read', async () => {
    let now = 1_000_000;
    cache = memoryResultCache({ ttlMs: 50, maxBytes: 8 * MB, maxEntryBytes: MB }, () => now);
    for (let i = 0; i < 20; i++) await cache.set(`k${i}`, answer(4096));
    expect(cache.stats().entries).toBe(20);
    now += 51;
    await new Promise((resolve) => setTimeout(resolve, 200)); // a purge or more, with nothing read
    expect(cache.stats()).toEqual({ bytes: 0, entries: 0 });
  });
});

describe.skipIf(!(await hasService('redis')))('the Redis result cache', () => {
  it('keeps what the in-process one keeps, and skips what it skips', async () => {
    cache = await redisResultCache(REDIS_URL, { ttlMs: 10_000, maxBytes: 8 * MB, maxEntryBytes: 64 * 1024 });
    const tag = randomBytes(6).toString('hex');
    const small = answer(32 * 1024);
    await cache.set(`${tag}:small`, small);
    await cache.set(`${tag}:large`, answer(128 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 50)); // stores are not awaited
    expect(await cache.get(`${tag}:small`)).toBe(small);
    expect(await cache.get(`${tag}:large`)).toBeUndefined();
  });
});
