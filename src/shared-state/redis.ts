import type { Redis } from 'ioredis';
import { DependencyUnavailableError } from '../dependency-unavailable.js';
import { closeRedis, command, connectRedis } from './redis-client.js';
import type { SharedState } from './shared-state.js';
import { WindowBatcher } from './redis-window-batch.js';

// A generation is read as `name + epoch`, two counters that only ever grow, so the sum changes whenever
// either does and never comes back to a value it had. A counter that does not exist yet (first use, or
// a Redis that restarted without its data) starts at Redis's clock in milliseconds rather than at 0:
// larger than any value handed out before, so a cache entry from before the loss never looks current.
const GENERATION_LUA = `
local function current(key)
  local value = redis.call('GET', key)
  if value then return tonumber(value) end
  local t = redis.call('TIME')
  local start = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('SET', key, start)
  return start
end
`;

// Windows are computed from Redis's own clock, so instances whose clocks drift still share one window,
// and INCRBY inside the script makes the counts atomic: concurrent instances can never over-admit.
// One call serves a batch of requests (redis-window-batch.ts). ARGV: the number of counters, then each
// counter's window and increment (0: read only). KEYS: the counters, then (when generations are read)
// the epoch and the generations. Answers each counter's count and window end, then each generation.
const WINDOWS_SCRIPT = `${GENERATION_LUA}
local counters = tonumber(ARGV[1])
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local answer = {}
for i = 1, counters do
  local window_ms = tonumber(ARGV[i * 2])
  local increment = tonumber(ARGV[i * 2 + 1])
  local index = math.floor(now_ms / window_ms)
  local key = KEYS[i] .. ':' .. index
  local count
  if increment > 0 then
    count = redis.call('INCRBY', key, increment)
    if count == increment then redis.call('PEXPIRE', key, window_ms + 1000) end
  else
    count = tonumber(redis.call('GET', key) or '0')
  end
  answer[#answer + 1] = count
  answer[#answer + 1] = (index + 1) * window_ms
end
if #KEYS > counters then
  local epoch = current(KEYS[counters + 1])
  for i = counters + 2, #KEYS do answer[#answer + 1] = current(KEYS[i]) + epoch end
end
return answer
`;

const BUMP_SCRIPT = `${GENERATION_LUA}
current(KEYS[1])
return redis.call('INCR', KEYS[1])
`;

const PREFIX = 'svc:';
/**
 * Bumped by an instance that lost its Redis connection, when it has it back: whatever changed while it
 * could not announce it (a revocation saved in the store whose bump failed), and whatever caches were
 * filled before, every instance reloads once. Folded into every generation.
 */
const EPOCH = `${PREFIX}epoch`;

export async function redisSharedState(url: string): Promise<SharedState> {
  const redis = await connectRedis(url);
  // Without numberOfKeys, the first argument of each call says how many keys follow.
  redis.defineCommand('svcWindows', { lua: WINDOWS_SCRIPT });
  redis.defineCommand('svcBump', { numberOfKeys: 1, lua: BUMP_SCRIPT });
  const commands = redis as unknown as SharedStateCommands;
  const generationKey = (name: string) => `${PREFIX}gen:${name}`;

  let epochOwed = false;
  redis.on('close', () => (epochOwed = true));
  // On reconnection the epoch is the first command sent: no generation is read on the new connection
  // before it. (Should it fail, the next generation read pays it first.)
  redis.on('ready', () => void settleEpoch().catch(() => {}));
  async function settleEpoch(): Promise<void> {
    if (!epochOwed) return;
    epochOwed = false;
    try {
      await commands.svcBump(EPOCH);
    } catch (error) {
      epochOwed = true;
      throw error;
    }
  }

  /** A command whose failure (503) also owes an epoch: it may have changed something, or not. */
  const guarded = <T>(run: () => Promise<T>): Promise<T> =>
    command(redis, run).catch((error: unknown) => {
      if (error instanceof DependencyUnavailableError) epochOwed = true;
      throw error;
    });

  const batcher = new WindowBatcher((counters, generationKeys) =>
    guarded(async () => {
      if (generationKeys.length > 0) await settleEpoch();
      const keys = [...counters.map((c) => c.key), ...(generationKeys.length > 0 ? [EPOCH, ...generationKeys] : [])];
      const args = counters.flatMap((c) => [c.windowMs, c.increment]);
      return commands.svcWindows(keys.length, ...keys, counters.length, ...args);
    }),
  );

  const windowCount = (bucket: string, windowMs: number, add: boolean, generationNames: readonly string[] = []) =>
    batcher.ask({ counter: `${PREFIX}rl:${bucket}:${windowMs}`, windowMs, add, generationKeys: generationNames.map(generationKey) });

  // Handed out while Redis cannot be read: negative, so never a value Redis gives, and never the same
  // twice, so no cache entry matches it and every cache reads through to the store.
  let unknownGeneration = 0;

  async function readGenerations(names: readonly string[]): Promise<number[]> {
    try {
      return (await batcher.ask({ generationKeys: names.map(generationKey) })).generations;
    } catch (error) {
      if (error instanceof DependencyUnavailableError) return names.map(() => --unknownGeneration);
      throw error;
    }
  }

  return {
    kind: 'redis',
    hit: (bucket, windowMs, generationNames) => windowCount(bucket, windowMs, true, generationNames),
    peek: (bucket, windowMs, generationNames) => windowCount(bucket, windowMs, false, generationNames),
    generation: async (name) => (await readGenerations([name]))[0]!,
    generations: readGenerations,
    async bump(name) {
      await guarded(() => commands.svcBump(generationKey(name)));
    },
    async ping() {
      try {
        await command(redis, () => redis.ping());
        return true;
      } catch {
        return false;
      }
    },
    close: () => closeRedis(redis),
  };
}

interface SharedStateCommands extends Redis {
  svcWindows(keyCount: number, ...keysThenCounts: Array<string | number>): Promise<number[]>;
  svcBump(generation: string): Promise<number>;
}
