// `npm run bench rollups`: a dashboard's grouped queries through C's POST /v1/query (loopback HTTP,
// keep-alive, past the result cache) answered from rollups, beside the same queries answered from the
// source by a second instance of the app with SVC_ROLLUPS=off (same metadata store, same data
// directory, same workspace and key), and, on PostgreSQL, beside Cube 0.35's pre-aggregations of the same
// table (kept in that database): a Cube this benchmark starts when BENCH_CUBE_DIR holds one
// (cube-rollups.ts), or one at CUBE_URL; interleaved rounds, medians of per-round medians. Requests per
// second at BENCH_CONNECTIONS connections too, ours and Cube's in interleaved rounds of BENCH_RPS_SECONDS.
// On a generated fact table of BENCH_ROWS rows
// (default 30,000,000) in DuckDB and in a scratch PostgreSQL database, each queried through its own
// workspace. Before the queries, the cold build of every rollup through the build service's own path
// (claim a due build, run it), timed one build at a time with the process's RSS sampled meanwhile.
// Targets: a rollup answer's p50 ≤ 10 ms where the source's is ≥ 1 s, with the same rows; a build's RSS
// growth ≤ 256 MB; requests per second on rollup hits ≥ 5× Cube's on its pre-aggregation hits, same
// queries, same rows. Writes bench/results/rollups.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceDirectory } from '../src/connections/workspace-files.js';
import { benchWorkspace, startBenchApp, type BenchApp } from './bench-app.js';
import { interleavedLoad, type LoadTarget } from './autocannon-load.js';
import { cubeFromEnv, type CubeLoad } from './cube-load.js';
import { installedCube } from './cube-peer.js';
import { CUBE_CACHE_NOTE, sameRows, startRollupsCube, tableScans, uncached, warmCube, type CubeRun, type TableScans } from './cube-rollups.js';
import { keepAlivePost, pastTimeLimit, TIMED_OUT } from './http-post.js';
import { interleaved } from './interleave.js';
import { DASHBOARD, loadDuckDbOrders, loadPostgresOrders, ordersModel, type DashboardQuery } from './rollup-facts.js';
import { peakGrowth } from './rss.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';

const FULL_ROWS = 30_000_000;
const ROWS = Number(process.env.BENCH_ROWS ?? FULL_ROWS);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 3);
const TARGET_ROLLUP_P50_MS = 10;
const SOURCE_FLOOR_MS = 1000;
const TARGET_RSS_MB = 256;
const TARGET_VS_CUBE = 5;
/** A query timed after a source scan that kept every core busy waits this long first (bench/interleave.ts). */
const SETTLE = { afterMs: 100, pauseMs: 250 };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RPS_SECONDS = Number(process.env.BENCH_RPS_SECONDS ?? 3);
const CUBE_PORT = Number(process.env.BENCH_CUBE_PORT ?? 4011);
// An idle backend sends its statistics at least every 10 s (PostgreSQL 15 and later).
const STATS_FLUSH_MS = 11_000;
const MiB = 1024 * 1024;
const MB = 1_000_000;
const RESULTS = fileURLToPath(new URL('./results/rollups.json', import.meta.url));
const FULL_COMMAND = 'BENCH_ROWS=30000000 npm run bench rollups';

type Engine = 'duckdb' | 'postgres';

interface QueryFigures {
  name: string;
  /** The rollup that answered (metadata.rollup.name), null when the source did. */
  rollup: string | null;
  source_p50_ms: number;
  rollup_p50_ms: number;
  cube_p50_ms: number | null;
  /** Cube's p50 for the same question new to it each time (cube-rollups.ts `uncached`): read from the pre-aggregation table, past its result cache. */
  cube_uncached_p50_ms: number | null;
  /** Requests per second at CONNECTIONS connections: ours from the rollup, Cube's from its pre-aggregation (through its result cache). */
  rollup_rps: number;
  /** The same with the result cache on: a rollup answer is kept until the next build (the like of Cube's side, served by its result cache). */
  rollup_cached_rps: number;
  cube_rps: number | null;
  /** rollup_cached_rps / cube_rps: both sides answered from their result cache in front of the rollup. */
  vs_cube: number | null;
  /** rollup_rps / cube_rps: ours read from the rollup's table on every request, Cube's from its result cache. */
  vs_cube_past_our_cache: number | null;
  /** Latency p50 under that load, ms. */
  rollup_loaded_p50_ms: number;
  cube_loaded_p50_ms: number | null;
  /** The pre-aggregation Cube's /v1/sql plans for the query, when its table is built; null otherwise. */
  cube_pre_aggregation: string | null;
  /** Cube's rows are ours (numbers and times normalised), and not empty. */
  cube_identical: boolean | null;
  cube_target: 'met' | 'not met' | null;
  /** The same query as a result-cache hit of the SVC_ROLLUPS=off instance: what /v1/query costs on this machine before any answer is read. */
  cache_hit_p50_ms: number;
  source_p99_ms: number;
  rollup_p99_ms: number;
  /** The rollup's rows are the source's; null when the source was stopped at the query time limit. */
  identical: boolean | null;
  /** The source did not answer within the governed query time limit (30 s): source_p50_ms is then that limit, not its time. */
  source_timed_out: boolean;
  target: 'met' | 'not met' | 'source under 1 s';
}

interface BuildFigures {
  rollup: string;
  partitions: number;
  /** Source rows the rollup's builds read (together, every row of the table). */
  rows: number;
  /** Groups stored. */
  stored_rows: number;
  seconds: number;
  rows_per_second: number;
  /** Peak RSS over the RSS at the start of each build, the largest of its builds. */
  rss_growth_mb: number;
}

interface QueryBody {
  data: unknown[];
  metadata: { rollup?: { name?: string; used?: null; candidates?: Array<{ name: string; reason: string }> } };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

interface Apps {
  on: BenchApp;
  off: BenchApp;
  onPort: number;
  offPort: number;
}

/** Waits (up to 20 s) until the process's RSS has not fallen for 2 s: a passing spike is over. */
async function settledRss(): Promise<void> {
  let low = process.memoryUsage.rss();
  let since = performance.now();
  const began = since;
  while (performance.now() - since < 2000 && performance.now() - began < 20_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rss = process.memoryUsage.rss();
    if (rss < low * 0.98) {
      low = rss;
      since = performance.now();
    }
  }
}

/** Every due rollup build, one at a time through the build service, each timed with RSS sampled. */
async function coldBuilds(app: BenchApp, workspaceId: string): Promise<BuildFigures[]> {
  const { rollupBuildRows, rollupBuilds, config } = app.services;
  const byRollup = new Map<string, { seconds: number; growth: number }>();
  for (;;) {
    const [row] = await rollupBuildRows.claimDue(new Date(), config.rollupBuildTimeoutMs, 1);
    if (!row) break;
    const run = await peakGrowth(() => rollupBuilds.runClaimed(row));
    const seen = byRollup.get(row.rollup) ?? { seconds: 0, growth: 0 };
    byRollup.set(row.rollup, { seconds: seen.seconds + run.ms / 1000, growth: Math.max(seen.growth, run.growthMiB) });
  }
  const statuses = await rollupBuilds.list(workspaceId);
  return statuses.map((status) => {
    if (status.state !== 'ready') throw new Error(`rollup ${status.rollup}: ${status.state} ${status.lastError ?? ''}`);
    const { seconds, growth } = byRollup.get(status.rollup) ?? { seconds: 0, growth: 0 };
    return {
      rollup: status.rollup,
      partitions: status.partitions,
      rows: ROWS,
      stored_rows: status.rows,
      seconds: round(seconds),
      rows_per_second: Math.round(ROWS / seconds),
      rss_growth_mb: round((growth * MiB) / MB),
    };
  });
}

/** Where Cube comes from: CUBE_URL (started by hand), else BENCH_CUBE_DIR (started here, per run). */
interface CubeSource {
  readonly fromEnv: CubeLoad | undefined;
  readonly dir: string | undefined;
  readonly version: string | undefined;
}

function loadTarget(url: string, headers: Record<string, string>, body: object): LoadTarget {
  return { url, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), cpu: async () => undefined };
}

async function engineFigures(engine: Engine, apps: Apps, cubeSource: CubeSource, notes: string[]) {
  const { on } = apps;
  const { services } = on;
  const { ws, user, key } = await benchWorkspace(services, `Rollups${engine}`, 'structured');
  let scratch: ScratchPostgres | undefined;
  let cubeRun: CubeRun | undefined;
  try {
    const loadStarted = performance.now();
    let table: string;
    if (engine === 'duckdb') {
      const dir = workspaceDirectory(services.config.dataDir, ws.id);
      mkdirSync(dir, { recursive: true });
      await loadDuckDbOrders(path.join(dir, 'orders.duckdb'), ROWS);
      await services.connections.create(ws.id, { name: 'warehouse', engine: 'duckdb', settings: { path: 'orders.duckdb' } });
      table = 'main.orders';
    } else {
      scratch = await createScratchPostgres('svc_rollup_bench', process.env.BENCH_PG_DATABASE);
      await loadPostgresOrders(scratch.url, ROWS);
      await services.connections.create(ws.id, { name: 'warehouse', engine: 'postgres', settings: scratch.settings });
      table = 'public.orders';
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    // The engine's one-time costs come before the builds are measured: its driver, pool and, on
    // PostgreSQL, the SQL parser's WebAssembly (loaded on first use, a passing RSS spike of hundreds of MB).
    // One count of the table through the workspace's warehouse does all of that, and reads the table once.
    const { warehouse } = await services.connections.warehouse(ws.id, 'warehouse');
    await warehouse.run(`SELECT count(*) AS n FROM ${table}`, [], { maxRows: 1, timeoutMs: services.config.rollupBuildTimeoutMs });
    await settledRss();
    await services.models.deploy({ workspaceId: ws.id, userId: user.id, email: user.email }, 'rollups', [{ path: 'orders.cml', content: ordersModel(table) }], { message: 'rollups bench', projectName: 'Rollups bench' });
    const builds = await coldBuilds(on, ws.id);

    if (scratch && (cubeSource.fromEnv || cubeSource.dir)) {
      const started = cubeSource.fromEnv ? undefined : await startRollupsCube(cubeSource.dir!, scratch.url, table, CUBE_PORT);
      try {
        cubeRun = await warmCube(cubeSource.fromEnv ?? started!.client, started, scratch.url, DASHBOARD, notes);
      } catch (error) {
        started?.close();
        throw error;
      }
    }
    const cube = cubeRun?.client;

    const headers = { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' };
    const onClient = keepAlivePost(apps.onPort);
    const offClient = keepAlivePost(apps.offPort);
    try {
      const ask = (client: typeof onClient, query: object, sent: Record<string, string> = headers) => async () => JSON.parse(await client.post('/v1/query', sent, query)) as QueryBody;
      const checks = new Map<string, { rollup: string | null; identical: boolean | null; cubeIdentical: boolean | null }>();
      const sourceTimedOut = new Set<string>();
      for (const { name, query } of DASHBOARD) {
        const fromRollup = await ask(onClient, query)();
        const fromSource = await pastTimeLimit(ask(offClient, query));
        if (fromSource === TIMED_OUT) {
          notes.push(`${engine} ${name}: the source did not answer within the governed query time limit (504), so its rows could not be compared`);
          sourceTimedOut.add(name);
        }
        const used = fromRollup.metadata.rollup?.name ?? null;
        if (!used) notes.push(`${engine} ${name}: answered from the source (${JSON.stringify(fromRollup.metadata.rollup?.candidates ?? fromRollup.metadata.rollup)})`);
        if (fromSource !== TIMED_OUT && fromSource.metadata.rollup !== undefined) throw new Error(`${engine} ${name}: the SVC_ROLLUPS=off instance reported a rollup`);
        const cubeData = cubeRun?.answers.get(name)?.data;
        const query_ = DASHBOARD.find((q) => q.name === name)!;
        checks.set(name, {
          rollup: used,
          identical: fromSource === TIMED_OUT ? null : JSON.stringify(fromRollup.data) === JSON.stringify(fromSource.data) && fromRollup.data.length > 0,
          cubeIdentical: cubeData ? sameRows(fromRollup.data as Array<Record<string, unknown>>, cubeData, query_) : null,
        });
      }
      const variants: Record<string, () => Promise<unknown>> = {};
      for (const { name, query, cube: cubeQuery } of DASHBOARD) {
        // A source past the time limit counts as the time it took to be stopped (figures then say so).
        variants[`${name}/source`] = () => pastTimeLimit(ask(offClient, query));
        variants[`${name}/rollup`] = ask(onClient, query);
        // Without no-cache: after the warm-up stored it, every one is a hit.
        variants[`${name}/cache-hit`] = ask(offClient, query, { authorization: headers.authorization });
        if (cube) variants[`${name}/cube`] = () => cube.load(cubeQuery);
        let asked = 0;
        if (cube && cubeRun?.answers.get(name)?.uncachedSame) variants[`${name}/cube-uncached`] = () => cube.load(uncached(cubeQuery, ++asked));
      }
      const timed = await interleaved(variants, { rounds: ROUNDS, perRound: PER_ROUND, warmUp: 1, settle: SETTLE });
      const loaded = await requestsPerSecond(apps.onPort, headers, cube, scratch?.url, table);
      const queries: QueryFigures[] = DASHBOARD.map(({ name }) => {
        const source = timed[`${name}/source`]!;
        const rollup = timed[`${name}/rollup`]!;
        const cubeTimed = timed[`${name}/cube`];
        const { ours, oursCached, cube: theirs } = loaded.byQuery.get(name)!;
        const vsCube = theirs ? oursCached.rps / theirs.rps : null;
        return {
          name,
          rollup: checks.get(name)!.rollup,
          source_p50_ms: round(source.p50),
          rollup_p50_ms: round(rollup.p50),
          cube_p50_ms: cubeTimed ? round(cubeTimed.p50) : null,
          cube_uncached_p50_ms: timed[`${name}/cube-uncached`] ? round(timed[`${name}/cube-uncached`]!.p50) : null,
          rollup_rps: Math.round(ours.rps),
          rollup_cached_rps: Math.round(oursCached.rps),
          cube_rps: theirs ? Math.round(theirs.rps) : null,
          vs_cube: vsCube === null ? null : round(vsCube),
          vs_cube_past_our_cache: theirs ? round(ours.rps / theirs.rps) : null,
          rollup_loaded_p50_ms: ours.p50,
          cube_loaded_p50_ms: theirs ? theirs.p50 : null,
          cube_pre_aggregation: cubeRun?.answers.get(name)?.preAggregation ?? null,
          cube_identical: checks.get(name)!.cubeIdentical,
          cube_target: vsCube === null ? null : vsCube >= TARGET_VS_CUBE ? 'met' : 'not met',
          cache_hit_p50_ms: round(timed[`${name}/cache-hit`]!.p50),
          source_p99_ms: round(source.p99),
          rollup_p99_ms: round(rollup.p99),
          identical: checks.get(name)!.identical,
          source_timed_out: sourceTimedOut.has(name),
          target: source.p50 < SOURCE_FLOOR_MS ? 'source under 1 s' : rollup.p50 <= TARGET_ROLLUP_P50_MS ? 'met' : 'not met',
        };
      });
      const cubeFigures = cubeRun
        ? {
            url: cubeRun.client.url,
            version: cubeRun.started?.version ?? cubeSource.version ?? null,
            started_by_bench: cubeRun.started !== undefined,
            pre_aggregation_tables: cubeRun.tables,
            build_seconds: round(cubeRun.buildSeconds),
            cube_cache: CUBE_CACHE_NOTE,
            scans_while_loaded: loaded.scans,
          }
        : null;
      return { table, load_seconds: round(loadSeconds), queries, builds, cube: cubeFigures };
    } finally {
      onClient.close();
      offClient.close();
    }
  } finally {
    cubeRun?.started?.close();
    await scratch?.drop();
  }
}

/**
 * Requests per second of each query at CONNECTIONS connections: ours from the rollup (no-cache: read
 * from its table each time) and through the result cache (kept until the next build), Cube's from its
 * pre-aggregation through its result cache, in interleaved rounds. With Cube, the scans PostgreSQL
 * counted meanwhile (source table; pre-aggregation tables): read after its statistics have been sent,
 * before and after.
 */
async function requestsPerSecond(port: number, headers: Record<string, string>, cube: CubeLoad | undefined, databaseUrl: string | undefined, table: string) {
  const scansAt = async () => {
    await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
    return tableScans(databaseUrl!, table);
  };
  const before = cube && databaseUrl ? await scansAt() : undefined;
  const byQuery = new Map<string, Awaited<ReturnType<typeof loadQuery>>>();
  const loadQuery = async ({ query, cube: cubeQuery }: DashboardQuery) => {
    const ours = loadTarget(`http://127.0.0.1:${port}/v1/query`, headers, query);
    const oursCached = loadTarget(`http://127.0.0.1:${port}/v1/query`, { authorization: headers.authorization! }, query);
    const targets: Record<string, LoadTarget> = { ours, oursCached };
    if (cube) targets.cube = loadTarget(`${cube.url}/cubejs-api/v1/load`, { authorization: cube.token }, { query: cubeQuery });
    // autocannon in a thread of its own: this process's event loop serves our side only.
    const measured = await interleavedLoad(targets, { rounds: ROUNDS, seconds: RPS_SECONDS, connections: CONNECTIONS, workers: 1 });
    return { ours: measured.ours!, oursCached: measured.oursCached!, cube: measured.cube };
  };
  for (const q of DASHBOARD) byQuery.set(q.name, await loadQuery(q));
  let scans: TableScans | null = null;
  if (before) {
    const after = await scansAt();
    scans = { source: after.source - before.source, preAggregations: after.preAggregations - before.preAggregations };
  }
  return { byQuery, scans };
}

function describe(engine: string, figures: Awaited<ReturnType<typeof engineFigures>>): string[] {
  const lines = [`  ${engine}: ${figures.table} loaded in ${figures.load_seconds} s`];
  for (const b of figures.builds) {
    const rss = b.rss_growth_mb <= TARGET_RSS_MB ? 'ok' : 'OVER TARGET';
    lines.push(`    build ${b.rollup.padEnd(26)} ${b.partitions} part., ${b.stored_rows} groups, ${b.seconds} s, ${b.rows_per_second.toLocaleString('en-US')} rows/s, RSS +${b.rss_growth_mb} MB ${rss}`);
  }
  for (const q of figures.queries) {
    const cube = q.cube_p50_ms === null ? '' : `, Cube ${q.cube_p50_ms} ms (past its result cache ${q.cube_uncached_p50_ms ?? '?'} ms)`;
    lines.push(`    ${q.name.padEnd(22)} source ${q.source_p50_ms} ms, rollup ${q.rollup_p50_ms} ms (${q.rollup ?? 'NO ROLLUP'})${cube}, cache hit ${q.cache_hit_p50_ms} ms; identical: ${q.identical}; target: ${q.target}`);
    const vsCube =
      q.cube_rps === null
        ? ''
        : ` vs Cube ${q.cube_rps.toLocaleString('en-US')} req/s (p50 ${q.cube_loaded_p50_ms} ms, ${q.cube_pre_aggregation ?? 'NO PRE-AGGREGATION'}): ${q.vs_cube}× (target ≥ ${TARGET_VS_CUBE}×: ${q.cube_target}); same rows as Cube: ${q.cube_identical}`;
    const pastCache = q.vs_cube_past_our_cache === null ? '' : `; past our result cache ${q.vs_cube_past_our_cache}×`;
    lines.push(`    ${''.padEnd(22)} ${CONNECTIONS} connections: rollup ${q.rollup_rps.toLocaleString('en-US')} req/s past the result cache (p50 ${q.rollup_loaded_p50_ms} ms), ${q.rollup_cached_rps.toLocaleString('en-US')} req/s through it${vsCube}${pastCache}`);
  }
  if (figures.cube) {
    const scans = figures.cube.scans_while_loaded;
    lines.push(`    Cube ${figures.cube.version ?? '?'}: pre-aggregations built in ${figures.cube.build_seconds} s (${figures.cube.pre_aggregation_tables.length} tables); scans while loaded: source ${scans?.source ?? '?'}, pre-aggregation tables ${scans?.preAggregations ?? '?'}`);
  }
  return lines;
}

export async function benchRollups(): Promise<string[]> {
  const scaled = ROWS < FULL_ROWS;
  const lines = [`Rollups: ${ROWS.toLocaleString('en-US')} orders${scaled ? ` (SCALED DOWN from ${FULL_ROWS.toLocaleString('en-US')}: ${FULL_COMMAND})` : ''}; p50 of ${ROUNDS} rounds × ${PER_ROUND}, interleaved`];
  const notes = [
    `rows: ${ROWS}${scaled ? `, scaled down from ${FULL_ROWS}; the targets are about the full table: ${FULL_COMMAND}` : ''}`,
    `queries: POST /v1/query over loopback HTTP with cache-control: no-cache; rollup_p50_ms from the app with SVC_ROLLUPS on, source_p50_ms from a second instance with SVC_ROLLUPS=off on the same store, workspace and key; identical compares the two answers' rows (and fails when they are empty); cache_hit_p50_ms is the same query answered from the result cache (no cache-control), the floor of /v1/query on this machine; a sample that follows one longer than ${SETTLE.afterMs} ms starts ${SETTLE.pauseMs} ms after it, not in the wake of a scan that kept every core busy`,
    `target: rollup p50 ≤ ${TARGET_ROLLUP_P50_MS} ms where the source p50 ≥ ${SOURCE_FLOOR_MS} ms ("source under 1 s" otherwise); build RSS growth ≤ ${TARGET_RSS_MB} MB`,
    'builds: cold (no rollup built yet), one claimed build at a time through RollupBuildService.runClaimed, after one count(*) of the table through the workspace\'s warehouse has paid the engine\'s one-time costs (on PostgreSQL the SQL parser\'s WebAssembly: without it the first build showed a passing RSS spike of about 280 MB that is not the build\'s) and the RSS has settled; rows is the source rows the rollup\'s builds read, stored_rows the groups stored; rss_growth_mb is the process RSS peak (sampled every 20 ms) over its value when the build began, the largest of the rollup\'s builds',
    'postgres: UNLOGGED table loaded by one INSERT … SELECT from generate_series, VACUUM ANALYZE, no index (every query reads all rows or a year of them, where a sequential scan is the plan anyway); duckdb: one INSERT … SELECT from range()',
  ];
  const cubeDir = process.env.BENCH_CUBE_DIR;
  const cube: CubeSource = { fromEnv: cubeFromEnv(), dir: installedCube(cubeDir) ? cubeDir : undefined, version: installedCube(cubeDir) };
  notes.push(
    `requests per second: autocannon (in a worker thread) at ${CONNECTIONS} connections for ${RPS_SECONDS} s a round, ${ROUNDS} rounds per query alternating ours and Cube's, medians; rollup_rps from the app with SVC_ROLLUPS on (cache-control: no-cache: read from the rollup each time), rollup_cached_rps through the result cache (a rollup answer is kept until the next build), on both engines; cube_rps, vs_cube (rollup_cached_rps / cube_rps, both through their result cache, target ≥ ${TARGET_VS_CUBE}×), vs_cube_past_our_cache (rollup_rps / cube_rps) and cube_loaded_p50_ms on PostgreSQL when Cube runs`,
    cube.fromEnv
      ? `cube: ${cube.fromEnv.url} (CUBE_URL), the same queries on /cubejs-api/v1/load (PostgreSQL only; its cube orders must read the bench's table, BENCH_PG_DATABASE names the database)`
      : cube.dir
        ? `cube: Cube ${cube.version} from ${cube.dir}, started for the PostgreSQL table (cube orders with a pre-aggregation per rollup, external: false, built on demand by the loads before measuring); cube_pre_aggregation is the one /cubejs-api/v1/sql plans for the query, when its table is built; cube_identical compares Cube's rows with ours (numbers and times normalised)`
        : 'cube: cube_* are null: neither BENCH_CUBE_DIR (an installed Cube 0.35, see docs/operations.md) nor CUBE_URL (a running Cube whose cube orders, with its pre-aggregations, reads the PostgreSQL table; with CUBE_TOKEN or CUBE_API_SECRET, and BENCH_PG_DATABASE the database it reads) is set',
  );
  if (cube.fromEnv || cube.dir) notes.push(`cube cache: ${CUBE_CACHE_NOTE}`);
  const store = await createScratchPostgres('svc_rollup_store');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-rollup-bench-'));
  const started: BenchApp[] = [];
  const engines: Record<string, unknown> = {};
  try {
    const budget = { readings: 500, windowMs: 60_000 };
    const start = async (env: Record<string, string>) => {
      const app = await startBenchApp({ databaseUrl: store.url, budgetWindowEvery: budget, env: { SVC_DATA_DIR: dataDir, ...env } });
      started.push(app);
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      return { app, port: (app.app.server.address() as { port: number }).port };
    };
    const on = await start({});
    const off = await start({ SVC_ROLLUPS: 'off' });
    const apps = { on: on.app, off: off.app, onPort: on.port, offPort: off.port };
    for (const engine of ['duckdb', 'postgres'] as const) {
      const figures = await engineFigures(engine, apps, cube, notes);
      engines[engine] = figures;
      lines.push(...describe(engine, figures));
    }
  } finally {
    for (const app of started.reverse()) await app.close();
    await store.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify({ generated_at: new Date().toISOString(), rows: ROWS, scaled_down: scaled, rounds: ROUNDS, per_round: PER_ROUND, engines, notes }, null, 2)}\n`);
  lines.push(...notes.map((note) => `  note: ${note}`), `  written to ${path.relative(process.cwd(), RESULTS)}`);
  return lines;
}
