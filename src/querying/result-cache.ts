// Results of governed queries, kept for a short while (SVC_RESULT_CACHE_SECONDS) as serialized text:
// a hit hands on the rows' text as stored, with no object to rebuild or encode again. Keys are the JSON
// of everything that decides the rows (result-key.ts), made by governed-query-service.ts;
// Redis keys by their SHA-256. In process by
// default, bounded in bytes; Redis when configured, shared by every instance.
import { sha256 } from '../crypto/digest.js';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import { DependencyUnavailableError } from '../dependency-unavailable.js';
import { closeRedis, command, connectRedis } from '../shared-state/redis-client.js';

export interface ResultCacheLimits {
  /** How long an entry is served; 0 turns the cache off. */
  readonly ttlMs: number;
  /** The most the in-process cache holds, in bytes of stored text: least recently used entries go first. */
  readonly maxBytes: number;
  /** An answer larger than this is not stored at all (a few huge answers must not evict every small one). */
  readonly maxEntryBytes: number;
}

export function resultCacheLimits(config: Config): ResultCacheLimits {
  return { ttlMs: config.resultCache.seconds * 1000, maxBytes: config.resultCache.maxBytes, maxEntryBytes: config.resultCache.maxEntryBytes };
}

export interface ResultCacheStats {
  /** Bytes of text held in process; undefined when entries live in Redis. */
  readonly bytes: number | undefined;
  readonly entries: number | undefined;
}

export interface ResultCache {
  get(key: string): Promise<string | undefined>;
  /** Stores `text` unless it is larger than the entry limit (or the cache is off). */
  set(key: string, text: string): Promise<void>;
  stats(): ResultCacheStats;
  close(): Promise<void>;
}

/**
 * A cache key: the parts, in order, as JSON. The in-process cache keys by this text itself (a lookup
 * costs no hash); Redis keys by its SHA-256 (see redisKey), which bounds every key's length.
 */
export function cacheKeyOf(parts: readonly unknown[]): string {
  return JSON.stringify(parts);
}

const redisKey = (key: string) => `svc:rc:${sha256(key, 'base64url')}`;

/** Stored text is JavaScript strings: two bytes a code unit is what it may occupy in memory. */
const sizeOf = (text: string) => Math.max(1, text.length * 2);

/** How often expired entries are dropped, unread ones included: memory is given back within this. */
const PURGE_EVERY_MS = 5_000;

export function memoryResultCache(limits: ResultCacheLimits, now: () => number): ResultCache {
  if (limits.ttlMs <= 0) return disabledCache();
  const entries = new LRUCache<string, string>({
    maxSize: limits.maxBytes,
    // (An entry limit above the whole bound could never be met anyway.)
    maxEntrySize: Math.min(limits.maxEntryBytes, limits.maxBytes),
    // The key is text of its own (a query's JSON), held as long as the entry.
    sizeCalculation: (text, key) => sizeOf(text) + sizeOf(key),
    ttl: limits.ttlMs,
    // Read the clock on every check: the service's clock (a test's) decides what has expired.
    ttlResolution: 0,
    perf: { now },
  });
  const purge = setInterval(() => entries.purgeStale(), Math.min(PURGE_EVERY_MS, limits.ttlMs));
  purge.unref();
  return {
    async get(key) {
      return entries.get(key);
    },
    async set(key, text) {
      entries.set(key, text);
    },
    stats: () => ({ bytes: entries.calculatedSize, entries: entries.size }),
    async close() {
      clearInterval(purge);
      entries.clear();
    },
  };
}

function disabledCache(): ResultCache {
  return {
    get: async () => undefined,
    set: async () => {},
    stats: () => ({ bytes: 0, entries: 0 }),
    close: async () => {},
  };
}

/**
 * A cache is an optimisation: while Redis cannot be reached, a lookup is a miss (the query runs on the
 * warehouse) and a store is skipped. No stale entry can be served after an outage: entries are keyed by
 * the model's generation, which moves on after one (see shared-state.ts). Redis expires entries itself
 * and bounds its own memory (maxmemory); the entry limit applies here too.
 */
export async function redisResultCache(url: string, limits: ResultCacheLimits): Promise<ResultCache> {
  const redis = await connectRedis(url);
  return {
    async get(key) {
      try {
        const text = await command(redis, () => redis.get(redisKey(key)));
        return text ?? undefined;
      } catch (error) {
        if (error instanceof DependencyUnavailableError) return undefined;
        throw error;
      }
    },
    async set(key, text) {
      if (limits.ttlMs <= 0 || sizeOf(text) > limits.maxEntryBytes) return;
      // Not awaited: the answer is ready, and a hung Redis must not hold it back for a cache write
      // (whose failure, an outage, is only a miss later).
      command(redis, () => redis.set(redisKey(key), text, 'PX', limits.ttlMs)).catch(() => {});
    },
    stats: () => ({ bytes: undefined, entries: undefined }),
    close: () => closeRedis(redis),
  };
}
