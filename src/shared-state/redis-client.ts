// How this service talks to Redis (shared state and result cache alike): a Redis that is down, hung or
// restarting costs a request at most one command time-out, never a wait for it to come back, and the
// client reconnects by itself within a fraction of a second once it is back.
import { Redis, ReplyError, type RedisOptions } from 'ioredis';
import { isProgrammingError, unavailable } from '../dependency-unavailable.js';

export const REDIS_LIMITS = {
  /** Opening a connection: under a millisecond on a LAN; a second means the server is down or hung. */
  connectMs: 1_000,
  /**
   * One command: every command we send is O(1) (a counter script, a GET, a SET), answered in well
   * under a millisecond even by a busy server. A second is the most a request ever waits for Redis.
   */
  commandMs: 1_000,
  /** Reconnection attempts back off up to this: a Redis that is back is used again within it. */
  reconnectMaxDelayMs: 200,
} as const;

export function redisOptions(): RedisOptions {
  return {
    lazyConnect: true,
    enableAutoPipelining: true,
    // The admission script is already one call per batch of requests (redis-window-batch.ts), gathered
    // over a loop turn; pipelining it again would wait a second turn before it leaves.
    autoPipeliningIgnoredCommands: ['svcWindows'],
    connectTimeout: REDIS_LIMITS.connectMs,
    commandTimeout: REDIS_LIMITS.commandMs,
    // While disconnected, commands fail at once (503) rather than queue until Redis returns (which is
    // how requests used to hang for seconds). Commands in flight when the connection drops fail too,
    // and are not replayed later: a counter must not count a request that was already answered 503.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt: number) => Math.min(attempt * 20, REDIS_LIMITS.reconnectMaxDelayMs),
  };
}

/** A connected client; a Redis that does not answer at start fails the start. */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, redisOptions());
  // Reported by the command that fails; the client reconnects by itself.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/**
 * Redis error replies that mean "not now" rather than "wrong command": loading its data after a
 * restart, a script running too long, a replica during failover, a failed snapshot refusing writes.
 */
const UNAVAILABLE_REPLIES = new Set(['LOADING', 'BUSY', 'MASTERDOWN', 'READONLY', 'TRYAGAIN', 'CLUSTERDOWN', 'MISCONF', 'NOREPLICAS']);

/**
 * True when `error`, thrown by a command, means Redis could not be reached or could not answer: an
 * error reply that says "not now", or any failure of the client itself (closed, not writable, timed
 * out, aborted), but not a programming error in what we asked.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (error instanceof ReplyError) return UNAVAILABLE_REPLIES.has(String((error as Error).message).split(' ')[0]!);
  return !isProgrammingError(error);
}

/**
 * Runs one command, turning an outage into a DependencyUnavailableError (503). A command that timed out
 * on a connection still marked ready means a hung server: the connection is dropped, so that the next
 * commands fail at once while the client reconnects instead of each waiting out its own time-out.
 */
export async function command<T>(redis: Redis, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isRedisUnavailable(error)) throw error;
    if (redis.status === 'ready' && !(error instanceof ReplyError)) redis.disconnect(true);
    throw unavailable('redis', error);
  }
}

export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
