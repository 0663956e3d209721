// Results of structured queries, kept for a short while (SVC_RESULT_CACHE_SECONDS). The key covers
// everything that decides the rows: the compiled SQL, its bound parameters (data-key values
// included, so users who see different rows never share an entry), the connection and the model
// version (so a deploy invalidates). In process by default; Redis when configured, shared by every
// instance.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

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

export async function redisResultCache(url: string, ttlMs: number): Promise<ResultCache> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  redis.on('error', () => {});
  await redis.connect();
  return {
    async get<T>(key: string) {
      const text = await redis.get(`svc:rc:${key}`);
      return text === null ? undefined : (JSON.parse(text) as T);
    },
    async set(key, value) {
      if (ttlMs > 0) await redis.set(`svc:rc:${key}`, JSON.stringify(value), 'PX', ttlMs);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
