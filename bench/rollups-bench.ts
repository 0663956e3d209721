// `npm run bench rollups`: a dashboard's grouped queries through C's POST /v1/query (loopback HTTP,
// keep-alive, past the result cache) answered from rollups, beside the same queries answered from the
// source by a second instance of the app with SVC_ROLLUPS=off (same metadata store, same data
// directory, same workspace and key), and beside Cube's pre-aggregations when CUBE_URL names a running
// Cube; interleaved rounds, medians of per-round medians. On a generated fact table of BENCH_ROWS rows
// (default 30,000,000) in DuckDB and in a scratch PostgreSQL database, each queried through its own
// workspace. Before the queries, the cold build of every rollup through the build service's own path
// (claim a due build, run it), timed one build at a time with the process's RSS sampled meanwhile.
// Targets: a rollup answer's p50 ≤ 10 ms where the source's is ≥ 1 s, with the same rows; a build's RSS
// growth ≤ 256 MB. Writes bench/results/rollups.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceDirectory } from '../src/connections/workspace-files.js';
import { benchWorkspace, startBenchApp, type BenchApp } from './bench-app.js';
import { cubeFromEnv, type CubeLoad } from './cube-load.js';
import { keepAlivePost } from './http-post.js';
import { interleaved } from './interleave.js';
import { DASHBOARD, loadDuckDbOrders, loadPostgresOrders, ordersModel } from './rollup-facts.js';
import { peakGrowth } from './rss.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';

const FULL_ROWS = 30_000_000;
const ROWS = Number(process.env.BENCH_ROWS ?? FULL_ROWS);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 3);
const TARGET_ROLLUP_P50_MS = 10;
const SOURCE_FLOOR_MS = 1000;
const TARGET_RSS_MB = 256;
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
  /** The same query as a result-cache hit of the SVC_ROLLUPS=off instance: what /v1/query costs on this machine before any answer is read. */
  cache_hit_p50_ms: number;
  source_p99_ms: number;
  rollup_p99_ms: number;
  identical: boolean;
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

async function engineFigures(engine: Engine, apps: Apps, cube: CubeLoad | undefined, notes: string[]) {
  const { on } = apps;
  const { services } = on;
  const { ws, user, key } = await benchWorkspace(services, `Rollups${engine}`, 'structured');
  let scratch: ScratchPostgres | undefined;
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

    const headers = { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' };
    const onClient = keepAlivePost(apps.onPort);
    const offClient = keepAlivePost(apps.offPort);
    try {
      const ask = (client: typeof onClient, query: object, sent: Record<string, string> = headers) => async () => JSON.parse(await client.post('/v1/query', sent, query)) as QueryBody;
      const checks = new Map<string, { rollup: string | null; identical: boolean }>();
      for (const { name, query } of DASHBOARD) {
        const fromRollup = await ask(onClient, query)();
        const fromSource = await ask(offClient, query)();
        const used = fromRollup.metadata.rollup?.name ?? null;
        if (!used) notes.push(`${engine} ${name}: answered from the source (${JSON.stringify(fromRollup.metadata.rollup?.candidates ?? fromRollup.metadata.rollup)})`);
        if (fromSource.metadata.rollup !== undefined) throw new Error(`${engine} ${name}: the SVC_ROLLUPS=off instance reported a rollup`);
        checks.set(name, { rollup: used, identical: JSON.stringify(fromRollup.data) === JSON.stringify(fromSource.data) && fromRollup.data.length > 0 });
      }
      const variants: Record<string, () => Promise<unknown>> = {};
      for (const { name, query, cube: cubeQuery } of DASHBOARD) {
        variants[`${name}/source`] = ask(offClient, query);
        variants[`${name}/rollup`] = ask(onClient, query);
        // Without no-cache: after the warm-up stored it, every one is a hit.
        variants[`${name}/cache-hit`] = ask(offClient, query, { authorization: headers.authorization });
        if (cube && engine === 'postgres') variants[`${name}/cube`] = () => cube.load(cubeQuery);
      }
      const timed = await interleaved(variants, { rounds: ROUNDS, perRound: PER_ROUND, warmUp: 1 });
      const queries: QueryFigures[] = DASHBOARD.map(({ name }) => {
        const source = timed[`${name}/source`]!;
        const rollup = timed[`${name}/rollup`]!;
        const cubeTimed = timed[`${name}/cube`];
        return {
          name,
          rollup: checks.get(name)!.rollup,
          source_p50_ms: round(source.p50),
          rollup_p50_ms: round(rollup.p50),
          cube_p50_ms: cubeTimed ? round(cubeTimed.p50) : null,
          cache_hit_p50_ms: round(timed[`${name}/cache-hit`]!.p50),
          source_p99_ms: round(source.p99),
          rollup_p99_ms: round(rollup.p99),
          identical: checks.get(name)!.identical,
          target: source.p50 < SOURCE_FLOOR_MS ? 'source under 1 s' : rollup.p50 <= TARGET_ROLLUP_P50_MS ? 'met' : 'not met',
        };
      });
      return { table, load_seconds: round(loadSeconds), queries, builds };
    } finally {
      onClient.close();
      offClient.close();
    }
  } finally {
    await scratch?.drop();
  }
}

function describe(engine: string, figures: Awaited<ReturnType<typeof engineFigures>>): string[] {
  const lines = [`  ${engine}: ${figures.table} loaded in ${figures.load_seconds} s`];
  for (const b of figures.builds) {
    const rss = b.rss_growth_mb <= TARGET_RSS_MB ? 'ok' : 'OVER TARGET';
    lines.push(`    build ${b.rollup.padEnd(26)} ${b.partitions} part., ${b.stored_rows} groups, ${b.seconds} s, ${b.rows_per_second.toLocaleString('en-US')} rows/s, RSS +${b.rss_growth_mb} MB ${rss}`);
  }
  for (const q of figures.queries) {
    const cube = q.cube_p50_ms === null ? '' : `, Cube ${q.cube_p50_ms} ms`;
    lines.push(`    ${q.name.padEnd(22)} source ${q.source_p50_ms} ms, rollup ${q.rollup_p50_ms} ms (${q.rollup ?? 'NO ROLLUP'})${cube}, cache hit ${q.cache_hit_p50_ms} ms; identical: ${q.identical}; target: ${q.target}`);
  }
  return lines;
}

export async function benchRollups(): Promise<string[]> {
  const scaled = ROWS < FULL_ROWS;
  const lines = [`Rollups: ${ROWS.toLocaleString('en-US')} orders${scaled ? ` (SCALED DOWN from ${FULL_ROWS.toLocaleString('en-US')}: ${FULL_COMMAND})` : ''}; p50 of ${ROUNDS} rounds × ${PER_ROUND}, interleaved`];
  const notes = [
    `rows: ${ROWS}${scaled ? `, scaled down from ${FULL_ROWS}; the targets are about the full table: ${FULL_COMMAND}` : ''}`,
    'queries: POST /v1/query over loopback HTTP with cache-control: no-cache; rollup_p50_ms from the app with SVC_ROLLUPS on, source_p50_ms from a second instance with SVC_ROLLUPS=off on the same store, workspace and key; identical compares the two answers\' rows (and fails when they are empty); cache_hit_p50_ms is the same query answered from the result cache (no cache-control), the floor of /v1/query on this machine',
    `target: rollup p50 ≤ ${TARGET_ROLLUP_P50_MS} ms where the source p50 ≥ ${SOURCE_FLOOR_MS} ms ("source under 1 s" otherwise); build RSS growth ≤ ${TARGET_RSS_MB} MB`,
    'builds: cold (no rollup built yet), one claimed build at a time through RollupBuildService.runClaimed, after one count(*) of the table through the workspace\'s warehouse has paid the engine\'s one-time costs (on PostgreSQL the SQL parser\'s WebAssembly: without it the first build showed a passing RSS spike of about 280 MB that is not the build\'s) and the RSS has settled; rows is the source rows the rollup\'s builds read, stored_rows the groups stored; rss_growth_mb is the process RSS peak (sampled every 20 ms) over its value when the build began, the largest of the rollup\'s builds',
    'postgres: UNLOGGED table loaded by one INSERT … SELECT from generate_series, VACUUM ANALYZE, no index (every query reads all rows or a year of them, where a sequential scan is the plan anyway); duckdb: one INSERT … SELECT from range()',
  ];
  const cube = cubeFromEnv();
  notes.push(
    cube
      ? `cube: ${cube.url}, the same queries on /cubejs-api/v1/load (PostgreSQL only; its cube orders must read the bench's table, BENCH_PG_DATABASE names the database)`
      : 'cube: cube_p50_ms is null: CUBE_URL is unset (Cube 0.35 is not installed on this machine); set CUBE_URL (and CUBE_TOKEN or CUBE_API_SECRET) to a running Cube whose cube orders, with its pre-aggregations, reads the PostgreSQL table, and BENCH_PG_DATABASE to the database name it reads',
  );
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
