// Peers: the structured API's cache hit (POST /v1/query, a listening server in a child process) against
// Cube Core's cache hit (/cubejs-api/v1/load) on the same PostgreSQL table, at 10 and 32 connections,
// in interleaved rounds (ours, Cube, ours, Cube…), medians reported. Target: ours ≥ 40× Cube's requests
// per second, and ≤ 150 µs of server CPU per hit (the child's process.cpuUsage() delta / requests).
// Figures also go to bench/results/peers.json.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadRound, medianRound, type LoadRound as Round, type LoadTarget as Target } from './autocannon-load.js';
import { firstJsonLine } from './child-ready.js';
import { installedCube, procCpuMicros, startCube, type CubePeer } from './cube-peer.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';
import { loadPostgres } from '../src/core/demo/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_PEER_ORDERS ?? 5000);
const CUBE_PORT = Number(process.env.BENCH_CUBE_PORT ?? 4011);
const CONNECTIONS = [10, 32];
const TARGET_RATIO = 40;
const TARGET_CPU_US = 150;
// An idle backend sends its statistics at least every 10 s (PostgreSQL 15 and later).
const STATS_FLUSH_MS = 11_000;
const OURS = { node: 'orders', dimensions: ['status', 'channel'], measures: ['order_count', 'gross_revenue'] };
const CUBES = { query: { dimensions: ['orders.status', 'orders.channel'], measures: ['orders.order_count', 'orders.gross_revenue'] } };

async function post(target: Target): Promise<Response> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  if (response.status !== 200) throw new Error(`${target.url}: ${response.status} ${await response.text()}`);
  return response;
}

const load = (target: Target, connections: number, seconds = SECONDS) => loadRound(target, connections, seconds);

function startOurs(warehouseUrl: string): Promise<{ child: ChildProcess; port: number; key: string }> {
  const child = fork(path.join(ROOT, 'bench/peer-server.ts'), {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, BENCH_WAREHOUSE_URL: warehouseUrl },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return firstJsonLine<{ port: number; key: string }>(child).then((ready) => ({ child, ...ready }));
}

/** Committed transactions of a database so far, as PostgreSQL's statistics have them. */
async function warehouseTransactions(admin: pg.Client, database: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>('select xact_commit::text as n from pg_stat_database where datname = $1', [database]);
  return Number(rows[0]!.n);
}

function childCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage) => resolve((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system));
    child.send('cpu');
  });
}

const fmtRound = (r: Round) =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  CPU ${r.cpuUsPerHit === undefined ? '?' : r.cpuUsPerHit.toFixed(0)} µs/hit`;

export async function benchPeers(): Promise<string[]> {
  let scratch: ScratchPostgres | undefined;
  const lines = [
    `Peers: cache hit of ${JSON.stringify(OURS)} on PostgreSQL (${ORDERS} orders), ${ROUNDS} interleaved rounds of ${SECONDS} s, medians; server CPU: ours process.cpuUsage() in its child process, Cube /proc/<pid>/stat`,
  ];
  let ours: Awaited<ReturnType<typeof startOurs>> | undefined;
  let cube: CubePeer | undefined;
  try {
    scratch = await createScratchPostgres('svc_peers');
    const { admin, name: dbName } = scratch;
    await loadPostgres(scratch.url, { orders: ORDERS, now: new Date() });

    ours = await startOurs(scratch.url);
    const oursChild = ours.child;
    const oursTarget: Target = {
      url: `http://127.0.0.1:${ours.port}/v1/query`,
      headers: { authorization: `Bearer ${ours.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(OURS),
      cpu: () => childCpu(oursChild),
    };
    await post(oursTarget);
    const cacheHeader = (await post(oursTarget)).headers.get('x-cache');
    if (cacheHeader !== 'hit') throw new Error(`the second POST /v1/query was not a cache hit (X-Cache: ${cacheHeader})`);

    const cubeDir = process.env.BENCH_CUBE_DIR;
    const cubeVersion = installedCube(cubeDir);
    let cubeTarget: Target | undefined;
    if (cubeDir && cubeVersion) {
      cube = await startCube(cubeDir, new URL(scratch.url), CUBE_PORT);
      const cubePid = cube.child.pid!;
      cubeTarget = {
        url: `${cube.url}/cubejs-api/v1/load`,
        headers: { authorization: cube.token, 'content-type': 'application/json' },
        body: JSON.stringify(CUBES),
        cpu: async () => procCpuMicros(cubePid),
      };
      // The first load runs the query (Cube may answer "Continue wait" meanwhile); the rest are hits.
      for (let i = 0; i < 20; i++) {
        const answer = (await (await post(cubeTarget)).json()) as { data?: unknown[]; error?: string };
        if (answer.data) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    // Warm-up of both servers (JIT, pools) before the measured rounds.
    for (const target of [oursTarget, cubeTarget]) if (target) await load(target, 32, 2);
    const results: Record<string, unknown> = {};
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS)); // the warm-up's misses counted before
    const transactionsBefore = await warehouseTransactions(admin, dbName);
    let requests = 0;
    for (const connections of CONNECTIONS) {
      const rounds: { ours: Round[]; cube: Round[] } = { ours: [], cube: [] };
      for (let round = 0; round < ROUNDS; round++) {
        rounds.ours.push(await load(oursTarget, connections));
        if (cubeTarget) rounds.cube.push(await load(cubeTarget, connections));
      }
      requests += [...rounds.ours, ...rounds.cube].reduce((sum, r) => sum + r.requests, 0);
      const summary = (list: Round[]): Round | undefined => (list.length ? medianRound(list) : undefined);
      const mine = summary(rounds.ours)!;
      const theirs = summary(rounds.cube);
      const ratio = theirs ? mine.rps / theirs.rps : undefined;
      lines.push(`  ${connections} connections`);
      lines.push(`    ours  POST /v1/query       ${fmtRound(mine)} (target ≤ ${TARGET_CPU_US} µs ${mine.cpuUsPerHit! <= TARGET_CPU_US ? 'met' : 'NOT MET'})`);
      lines.push(
        theirs
          ? `    Cube ${cubeVersion} /v1/load  ${fmtRound(theirs)}`
          : '    Cube Core                  skipped: Cube Core not installed (see docs/operations.md)',
      );
      // CPU per hit is the figure least moved by other work on the machine: the ratio of requests per
      // second also depends on how much CPU each server got.
      const cpuRatio = theirs?.cpuUsPerHit !== undefined && mine.cpuUsPerHit ? theirs.cpuUsPerHit / mine.cpuUsPerHit : undefined;
      if (ratio !== undefined) {
        const cpu = cpuRatio === undefined ? '' : `; Cube's CPU per hit / ours ${cpuRatio.toFixed(1)}×`;
        lines.push(`    ours / Cube ${ratio.toFixed(1)}× req/s (target ≥ ${TARGET_RATIO}× ${ratio >= TARGET_RATIO ? 'met' : 'NOT MET'})${cpu}`);
      }
      results[`c${connections}`] = { ours: mine, cube: theirs ?? null, ratio: ratio ?? null, cpuRatio: cpuRatio ?? null, rounds };
    }
    // A hit never reaches the warehouse: the scratch database's transactions over all measured rounds,
    // both servers together, stay a handful (pools' checks, Cube's refresh key) beside the requests.
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    const warehouseTx = (await warehouseTransactions(admin, dbName)) - transactionsBefore;
    lines.push(`  warehouse transactions during the measured rounds: ${warehouseTx} for ${requests} requests`);
    mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    const report = {
      measuredAt: new Date().toISOString(),
      seconds: SECONDS,
      rounds: ROUNDS,
      orders: ORDERS,
      cubeVersion: cubeVersion ?? null,
      node: process.version,
      warehouseTransactions: warehouseTx,
      requests,
      results,
    };
    writeFileSync(path.join(ROOT, 'bench/results/peers.json'), `${JSON.stringify(report, null, 2)}\n`);
    lines.push('  (figures in bench/results/peers.json)');
  } finally {
    cube?.close();
    ours?.child.kill('SIGTERM');
    await scratch?.drop();
  }
  return lines;
}
