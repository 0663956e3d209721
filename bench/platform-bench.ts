// Platform: throughput and latency of an authenticated, rate-limited no-op route beside an
// unauthenticated bare route, in the same run, for each metadata store (and with Redis counters).
// Target: the authenticated route keeps at least 80% of the bare route's throughput.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { procCpuMicros } from './cube-peer.js';
import { POSTGRES_URL } from './scratch-postgres.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Setup {
  name: string;
  env: Record<string, string>;
  needs: Array<{ host: string; port: number }>;
}

export const hostPort = (url: string, port: number) => ({ host: new URL(url).hostname, port: Number(new URL(url).port || port) });
const SETUPS: Setup[] = [
  { name: 'PGlite, in-process counters', env: {}, needs: [] },
  { name: 'PostgreSQL, in-process counters', env: { BENCH_DATABASE_URL: POSTGRES_URL }, needs: [hostPort(POSTGRES_URL, 5432)] },
  {
    name: 'PostgreSQL, Redis counters',
    env: { BENCH_DATABASE_URL: POSTGRES_URL, BENCH_REDIS_URL: REDIS_URL },
    needs: [hostPort(POSTGRES_URL, 5432), hostPort(REDIS_URL, 6379)],
  },
];

export function reachable({ host, port }: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; key: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], { cwd: ROOT, env: { ...process.env, ...env } });
  child.stderr!.pipe(process.stderr);
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, ...JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** CPU the server process spent per request, and Redis's (when the setup has Redis), in µs. */
  serverCpuUs: number;
  redisCpuUs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianLoad = (loads: Load[]): Load => {
  const of = (field: keyof Load) => median(loads.map((l) => l[field]));
  return { rps: of('rps'), p50: of('p50'), p99: of('p99'), serverCpuUs: of('serverCpuUs'), redisCpuUs: of('redisCpuUs') };
};

/** Redis's own CPU so far (user + system), in µs, from INFO. */
async function redisCpuMicros(redis: Redis | undefined): Promise<number> {
  if (!redis) return 0;
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

async function load(url: string, headers: Record<string, string> = {}, pid?: number, redis?: Redis): Promise<Load> {
  const [serverBefore, redisBefore] = [pid ? procCpuMicros(pid) : undefined, await redisCpuMicros(redis)];
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const serverAfter = pid ? procCpuMicros(pid) : undefined;
  const redisAfter = await redisCpuMicros(redis);
  const requests = result.requests.total || 1;
  const serverCpuUs = serverBefore !== undefined && serverAfter !== undefined ? (serverAfter - serverBefore) / requests : Number.NaN;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, serverCpuUs, redisCpuUs: (redisAfter - redisBefore) / requests };
}

export async function benchPlatform(): Promise<string[]> {
const rows: string[] = [];
// BENCH_SETUPS: only the setups whose name contains it (`Redis`, `PGlite`…).
for (const setup of SETUPS.filter((s) => !process.env.BENCH_SETUPS || s.name.includes(process.env.BENCH_SETUPS))) {
  if (!(await Promise.all(setup.needs.map(reachable))).every(Boolean)) {
    rows.push(`${setup.name.padEnd(34)} skipped: service not reachable`);
    continue;
  }
  const server = await startServer(setup.env);
  const redis = setup.env.BENCH_REDIS_URL ? new Redis(setup.env.BENCH_REDIS_URL) : undefined;
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const loadBare = () => load(`${base}/bench/bare`, {}, server.child.pid, redis);
    const loadAuthed = () => load(`${base}/api/v1/bench/authed`, { authorization: `Bearer ${server.key}` }, server.child.pid, redis);
    await loadBare(); // warm-up: JIT, pools, caches
    await loadAuthed();
    // Interleaved rounds (bare, authenticated, bare…), so that what else the machine does weighs on both.
    const rounds: Array<{ bare: Load; authed: Load }> = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push({ bare: await loadBare(), authed: await loadAuthed() });
    const bare = medianLoad(rounds.map((r) => r.bare));
    const authed = medianLoad(rounds.map((r) => r.authed));
    const ratio = median(rounds.map((r) => r.authed.rps / r.bare.rps));
    for (const [route, r] of [['bare (public no-op)', bare], ['authenticated + rate-limited', authed]] as const) {
      const cpu = `CPU/request: server ${r.serverCpuUs.toFixed(0)} µs${redis ? `, Redis ${r.redisCpuUs.toFixed(0)} µs` : ''}`;
      rows.push(`${setup.name.padEnd(34)} ${route.padEnd(30)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   ${cpu}`);
    }
    const ratios = rounds.map((r) => `${((r.authed.rps / r.bare.rps) * 100).toFixed(0)}`).join(', ');
    rows.push(`${''.padEnd(34)} ${'authenticated / bare'.padEnd(30)} ${(ratio * 100).toFixed(1).padStart(7)} %    target ≥ 80 % ${ratio >= 0.8 ? 'met' : 'NOT MET'}  (rounds: ${ratios} %)`);
  } finally {
    redis?.disconnect();
    server.child.kill('SIGTERM');
  }
}

return [`Platform: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s per route (medians), plain HTTP on loopback`, ...rows];
}
