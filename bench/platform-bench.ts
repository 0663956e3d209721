// Platform: throughput and latency of an authenticated, rate-limited no-op route beside an
// unauthenticated bare route, in the same run, for each metadata store (and with Redis counters).
// Target: the authenticated route keeps at least 80% of the bare route's throughput.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { POSTGRES_URL } from './scratch-postgres.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
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

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function benchPlatform(): Promise<string[]> {
const rows: string[] = [];
for (const setup of SETUPS) {
  if (!(await Promise.all(setup.needs.map(reachable))).every(Boolean)) {
    rows.push(`${setup.name.padEnd(34)} skipped: service not reachable`);
    continue;
  }
  const server = await startServer(setup.env);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    await load(`${base}/bench/bare`); // warm-up: JIT, pools, caches
    await load(`${base}/api/v1/bench/authed`, { authorization: `Bearer ${server.key}` });
    const bare = await load(`${base}/bench/bare`);
    const authed = await load(`${base}/api/v1/bench/authed`, { authorization: `Bearer ${server.key}` });
    const ratio = authed.rps / bare.rps;
    for (const [route, r] of [['bare (public no-op)', bare], ['authenticated + rate-limited', authed]] as const) {
      rows.push(`${setup.name.padEnd(34)} ${route.padEnd(30)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
    }
    rows.push(`${''.padEnd(34)} ${'authenticated / bare'.padEnd(30)} ${(ratio * 100).toFixed(1).padStart(7)} %    target ≥ 80 % ${ratio >= 0.8 ? 'met' : 'NOT MET'}`);
  } finally {
    server.child.kill('SIGTERM');
  }
}

return [`Platform: ${CONNECTIONS} connections, ${DURATION} s per route, plain HTTP on loopback`, ...rows];
}
