import { Redis } from 'ioredis';
import type { SharedState, WindowCount } from './shared-state.js';

// Windows are computed from Redis's own clock, so instances whose clocks drift still share one window,
// and INCR inside the script makes the count atomic: concurrent instances can never over-admit.
const HIT_SCRIPT = `
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
local generation = 0
if KEYS[2] then generation = tonumber(redis.call('GET', KEYS[2]) or '0') end
return {count, (index + 1) * window_ms, generation}
`;

const PREFIX = 'svc:';

export async function redisSharedState(url: string): Promise<SharedState> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  redis.on('error', () => {}); // reported by the command that fails; the client reconnects by itself
  await redis.connect();
  // Called with one key (the counter) or two (the counter and a generation to read back).
  redis.defineCommand('svcWindow1', { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.defineCommand('svcWindow2', { numberOfKeys: 2, lua: HIT_SCRIPT });
  const commands = redis as unknown as WindowCommands;
  const run = (bucket: string, windowMs: number, add: boolean, generationName?: string) => {
    const counter = `${PREFIX}rl:${bucket}:${windowMs}`;
    const flag = add ? '1' : '0';
    return generationName
      ? commands.svcWindow2(counter, `${PREFIX}gen:${generationName}`, windowMs, flag)
      : commands.svcWindow1(counter, windowMs, flag);
  };

  return {
    kind: 'redis',
    async hit(bucket, windowMs, generationName) {
      const [count, resetAtMs, generation] = await run(bucket, windowMs, true, generationName);
      return { count, resetAtMs, generation };
    },
    async peek(bucket, windowMs): Promise<WindowCount> {
      const [count, resetAtMs] = await run(bucket, windowMs, false);
      return { count, resetAtMs };
    },
    async generation(name) {
      return Number((await redis.get(`${PREFIX}gen:${name}`)) ?? 0);
    },
    async bump(name) {
      await redis.incr(`${PREFIX}gen:${name}`);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

interface WindowCommands {
  svcWindow1(counter: string, windowMs: number, add: '0' | '1'): Promise<[number, number, number]>;
  svcWindow2(counter: string, generation: string, windowMs: number, add: '0' | '1'): Promise<[number, number, number]>;
}
