// Results of structured queries, kept for a short while (SVC_RESULT_CACHE_SECONDS). The key covers
// everything that decides the rows: the compiled SQL, its bound parameters (data-key values
// included, so users who see different rows never share an entry), the connection and the model
// version (so a deploy invalidates). In process by default; Redis when configured, shared by every
// instance.
import { createHash } from 'node:crypto';
import { DependencyUnavailableError } from '../dependency-unavailable.js';
import { closeRedis, command, connectRedis } from '../shared-state/redis-client.js';

export interface ResultCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  close(): Promise<void>;
}

export function resultCacheKey(parts: { workspaceId: string; connectionId: string; modelVersion: number; sql: string; params: readonly unknown[] }): string {
  return createHash('sha256').update(JSON.stringify([parts.workspaceId, parts.connectionId, parts.modelVersion, parts.sql, parts.params])).digest('hex');
}

const MAX_MEMORY_ENTRIES = 1000;

export function memoryResultCache(ttlMs: number, now: () => number): ResultCache {
  const entries = new Map<string, { expiresAt: number; value: unknown }>();
  return {
    async get<T>(key: string) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    async set(key, value) {
      if (ttlMs <= 0) return;
      if (entries.size >= MAX_MEMORY_ENTRIES) entries.delete(entries.keys().next().value!); // oldest first
      entries.set(key, { expiresAt: now() + ttlMs, value });
    },
    async close() {
      entries.clear();
    },
  };
}

/**
 * A cache is an optimisation: while Redis cannot be reached, a lookup is a miss (the query runs on the
 * warehouse) and a store is skipped. No stale entry can be served after an outage: entries are keyed by
 * the model's generation, which moves on after one (see shared-state.ts).
 */
export async function redisResultCache(url: string, ttlMs: number): Promise<ResultCache> {
  const redis = await connectRedis(url);
  return {
    async get<T>(key: string) {
      try {
        const text = await command(redis, () => redis.get(`svc:rc:${key}`));
        return text === null ? undefined : (JSON.parse(text) as T);
      } catch (error) {
        if (error instanceof DependencyUnavailableError) return undefined;
        throw error;
      }
    },
    async set(key, value) {
      if (ttlMs <= 0) return;
      const text = JSON.stringify(value);
      // Not awaited: the answer is ready, and a hung Redis must not hold it back for a cache write
      // (whose failure, an outage, is only a miss later).
      command(redis, () => redis.set(`svc:rc:${key}`, text, 'PX', ttlMs)).catch(() => {});
    },
    close: () => closeRedis(redis),
  };
}
