import type { Redis } from 'ioredis';
import { DependencyUnavailableError } from '../dependency-unavailable.js';
import { closeRedis, command, connectRedis } from './redis-client.js';
import type { SharedState } from './shared-state.js';

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
// and INCR inside the script makes the count atomic: concurrent instances can never over-admit.
// Keys: the counter, then (optionally) the epoch and the generations to read back in the same trip.
const WINDOW_SCRIPT = `${GENERATION_LUA}
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window_ms = tonumber(ARGV[1])
local index = math.floor(now_ms / window_ms)
local key = KEYS[1] .. ':' .. index
local count
if ARGV[2] == '1' then
  count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, window_ms + 1000) end
else
  count = tonumber(redis.call('GET', key) or '0')
end
local answer = {count, (index + 1) * window_ms}
if #KEYS > 1 then
  local epoch = current(KEYS[2])
  for i = 3, #KEYS do answer[#answer + 1] = current(KEYS[i]) + epoch end
end
return answer
`;

// Keys: the epoch, then each generation to read.
const GENERATIONS_SCRIPT = `${GENERATION_LUA}
local epoch = current(KEYS[1])
local answer = {}
for i = 2, #KEYS do answer[#answer + 1] = current(KEYS[i]) + epoch end
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
  redis.defineCommand('svcWindow', { lua: WINDOW_SCRIPT });
  redis.defineCommand('svcGenerations', { lua: GENERATIONS_SCRIPT });
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

  const windowCount = (bucket: string, windowMs: number, add: boolean, generationNames: readonly string[] = []) =>
    guarded(async () => {
      const counter = `${PREFIX}rl:${bucket}:${windowMs}`;
      const flag = add ? '1' : '0';
      if (generationNames.length === 0) {
        const [count, resetAtMs] = await commands.svcWindow(1, counter, windowMs, flag);
        return { count, resetAtMs, generations: [] };
      }
      await settleEpoch();
      const keys = [counter, EPOCH, ...generationNames.map(generationKey)];
      const [count, resetAtMs, ...generations] = await commands.svcWindow(keys.length, ...keys, windowMs, flag);
      return { count, resetAtMs, generations };
    });

  // Handed out while Redis cannot be read: negative, so never a value Redis gives, and never the same
  // twice, so no cache entry matches it and every cache reads through to the store.
  let unknownGeneration = 0;

  async function readGenerations(names: readonly string[]): Promise<number[]> {
    try {
      return await guarded(async () => {
        await settleEpoch();
        return commands.svcGenerations(names.length + 1, EPOCH, ...names.map(generationKey));
      });
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
  svcWindow(keyCount: number, ...keysThenWindowAndFlag: Array<string | number>): Promise<[number, number, ...number[]]>;
  svcGenerations(keyCount: number, epoch: string, ...generations: string[]): Promise<number[]>;
  svcBump(generation: string): Promise<number>;
}
