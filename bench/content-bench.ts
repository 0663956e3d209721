// Scene and mosaic runs in process (app.inject) on the DuckDB demo, beside the same queries through
// POST /v1/query with Cache-Control: no-cache (scene runs bypass the cache too). Targets: a scene run
// within 1.05× of its query at p50; a 12-tile mosaic run within 1.5× of its slowest tile's query.
import os from 'node:os';
import { setUpDemo } from '../src/demo-setup.js';
import { startBenchApp } from './bench-app.js';
import { latency, percentile } from './timing.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const SCENE = { node: 'orders', dimensions: ['status', 'channel'], measures: ['order_count', 'gross_revenue'] };
/** Twelve different queries, as a dashboard holds them. */
const TILES = [
  { node: 'orders', dimensions: ['status'], measures: ['order_count'] },
  { node: 'orders', dimensions: ['channel'], measures: ['gross_revenue'] },
  { node: 'orders', dimensions: ['ship_region'], measures: ['order_count', 'buyers'] },
  { node: 'orders', dimensions: ['created_at.month'], measures: ['gross_revenue'] },
  { node: 'orders', dimensions: ['created_at.week'], measures: ['order_count'] },
  { node: 'orders', dimensions: [], measures: ['average_order_value'] },
  { node: 'orders', dimensions: ['status', 'channel'], measures: ['discount_total'] },
  { node: 'customers', dimensions: ['segment'], measures: ['customer_count'] },
  { node: 'customers', dimensions: ['country'], measures: ['customer_count'] },
  { node: 'customers', dimensions: ['signup_at.month'], measures: ['business_customers'] },
  { node: 'orders', dimensions: ['customers.segment'], measures: ['gross_revenue'] },
  { node: 'orders', dimensions: ['created_at.day'], measures: ['completed_orders'] },
];

/** p50 and p99 of two calls sampled alternately (after warm-up), so both see the same conditions. */
async function paired(a: () => Promise<unknown>, b: () => Promise<unknown>, runs: number) {
  for (let i = 0; i < 30; i++) await Promise.all([a(), b()]);
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, call] of (i % 2 ? [[1, b], [0, a]] : [[0, a], [1, b]]) as Array<[0 | 1, () => Promise<unknown>]>) {
      const start = performance.now();
      await call();
      samples[index].push(performance.now() - start);
    }
  }
  return samples.map((list) => {
    list.sort((x, y) => x - y);
    return { p50: percentile(list, 0.5), p99: percentile(list, 0.99) };
  }) as [{ p50: number; p99: number }, { p50: number; p99: number }];
}

export async function benchContent(): Promise<string[]> {
  const { app, services, close } = await startBenchApp({ budgetWindowEvery: { readings: 500, windowMs: 60_000 } });
  const lines = [`Scenes and mosaics: ${RUNS} runs, in process (app.inject), DuckDB demo (100k orders); ms p50 / p99`];
  try {
    const ws = await services.members.createWorkspace({ name: 'Content', plan: 'team' });
    const user = await services.members.createUser({ email: 'content@example.com', name: 'Content', passwordHash: null });
    await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
    await setUpDemo(services, { workspaceId: ws.id, userId: user.id, email: user.email });
    const actor = { workspace: { id: ws.id, plan: 'team' as const }, user: { id: user.id }, role: 'luminary' as const };
    const key = (await services.keys.create(actor, { name: 'bench', surface: 'structured', scopes: ['query', 'content:read', 'content:write'] })).value;
    const headers = { authorization: `Bearer ${key}` };
    async function send(url: string, payload: object, extra: Record<string, string> = {}) {
      const response = await app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response;
    }
    const fresh = { 'cache-control': 'no-cache' };

    const scene = (await send('/v1/scenes', { name: 'Bench scene', ...SCENE })).json().scene;
    // Interleaved, so that load from elsewhere on the machine falls on both alike.
    const [query, run] = await paired(() => send('/v1/query', SCENE, fresh), () => send(`/v1/scenes/${scene.id}/run`, {}), RUNS);
    const ratio = run.p50 / query.p50;
    lines.push(
      `  POST /v1/query (no-cache) ${query.p50.toFixed(2)} / ${query.p99.toFixed(2)}   scene run ${run.p50.toFixed(2)} / ${run.p99.toFixed(2)}   ` +
        `ratio ${ratio.toFixed(3)}× (target ≤ 1.05× ${ratio <= 1.05 ? 'met' : 'NOT MET'})`,
    );

    const tiles = [];
    for (const [i, body] of TILES.entries()) {
      const saved = (await send('/v1/scenes', { name: `Tile ${i}`, ...body })).json().scene;
      tiles.push({ id: `t${i}`, kind: 'scene', scene_id: saved.id, layout: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 } });
    }
    const mosaic = (await send('/v1/mosaics', { name: 'Bench mosaic', tiles })).json().mosaic;
    const perTile = [];
    for (const body of TILES) perTile.push((await latency(() => send('/v1/query', body, fresh), Math.max(20, Math.floor(RUNS / 4)))).p50);
    const slowest = Math.max(...perTile);
    const sum = perTile.reduce((a, b) => a + b, 0);
    const whole = await latency(async () => {
      const response = await send(`/v1/mosaics/${mosaic.id}/run`, {});
      if (response.json().tiles.some((t: { error?: unknown }) => t.error)) throw new Error(response.body);
    }, Math.max(20, Math.floor(RUNS / 2)));
    const mosaicRatio = whole.p50 / slowest;
    lines.push(
      `  12 tiles through POST /v1/query: slowest ${slowest.toFixed(2)}, sum ${sum.toFixed(2)}   mosaic run ${whole.p50.toFixed(2)} / ${whole.p99.toFixed(2)}   ` +
        `ratio to slowest ${mosaicRatio.toFixed(2)}× (target ≤ 1.5× ${mosaicRatio <= 1.5 ? 'met' : 'NOT MET'}), to the sum ${(whole.p50 / sum).toFixed(2)}×`,
    );
    // The tiles' queries are CPU-bound in DuckDB: with fewer cores than tiles, the floor is about the
    // sum divided by the cores, whatever the mosaic's concurrency.
    lines.push(`  (${os.availableParallelism()} cores: floor ≈ ${(sum / os.availableParallelism()).toFixed(2)} ms = ${(sum / os.availableParallelism() / slowest).toFixed(2)}× the slowest tile)`);
  } finally {
    await close();
  }
  return lines;
}
