// POST /v1/query in process (app.inject): uncached p50/p99 beside the same compiled SQL run directly
// through the same driver (target ≤ 1.15× at p50), cached p50 (target under 2 ms), and requests per
// second with 32 requests in flight. On the demo warehouse (DuckDB) and a PostgreSQL copy.
import { benchWorkspace, startBenchApp } from './bench-app.js';
import { latency } from './timing.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';
import { loadPostgres } from '../src/core/demo/index.js';
import { compileQuery } from '../src/core/semantic/compile.js';
import { semanticQuerySchema } from '../src/core/semantic/query.js';
import { DIALECTS } from '../src/core/sql/dialects.js';
import { setUpDemo } from '../src/demo-setup.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const QUERY = { node: 'orders', dimensions: ['status', 'channel'], measures: ['order_count', 'gross_revenue'] };
async function throughput(run: () => Promise<unknown>, inFlight = 32, seconds = 3): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await run();
        done++;
      }
    }),
  );
  return done / seconds;
}

export async function benchStructured(): Promise<string[]> {
  const { app, services, close } = await startBenchApp({ budgetWindowEvery: { readings: 500, windowMs: 60_000 } });
  let scratch: ScratchPostgres | undefined;
  const lines = [`Structured queries: ${RUNS} runs, in process (app.inject); ms p50 / p99; ${JSON.stringify(QUERY)}`];
  try {
    const workspace = (name: string) => benchWorkspace(services, name, 'structured');
    const duck = await workspace('Duck');
    await setUpDemo(services, { workspaceId: duck.ws.id, userId: duck.user.id, email: duck.user.email });
    const targets = [{ label: 'DuckDB demo (100k orders)', ...duck }];
    try {
      scratch = await createScratchPostgres();
      await loadPostgres(scratch.url, { orders: 100_000, now: new Date() });
      const pgSpace = await workspace('Pg');
      await services.connections.create(pgSpace.ws.id, { name: 'warehouse', engine: 'postgres', settings: scratch.settings });
      await setUpDemo(services, { workspaceId: pgSpace.ws.id, userId: pgSpace.user.id, email: pgSpace.user.email });
      targets.push({ label: 'PostgreSQL copy (100k orders)', ...pgSpace });
    } catch {
      lines.push('  PostgreSQL: skipped (not reachable)');
    }

    for (const target of targets) {
      const live = await services.models.live(target.ws.id);
      const { connection, warehouse } = await services.connections.warehouse(target.ws.id, 'warehouse');
      const compiled = compileQuery(live.model, semanticQuerySchema.parse(QUERY), { dialect: DIALECTS[connection.engine], attributes: { region: '*' }, now: new Date() });
      const inject = (cache: boolean) => async () => {
        const r = await app.inject({
          method: 'POST',
          url: '/v1/query',
          headers: { authorization: `Bearer ${target.key}`, ...(cache ? {} : { 'cache-control': 'no-cache' }) },
          payload: QUERY,
        });
        if (r.statusCode !== 200) throw new Error(r.body);
      };
      const direct = await latency(() => warehouse.run(compiled.sql, compiled.params, { maxRows: 5000, timeoutMs: 30_000 }), RUNS);
      const uncached = await latency(inject(false), RUNS);
      const cached = await latency(inject(true), RUNS);
      const ratio = uncached.p50 / direct.p50;
      const fmt = (r: { p50: number; p99: number }) => `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)}`;
      lines.push(`  ${target.label}`);
      lines.push(`    direct driver ${fmt(direct)}   uncached ${fmt(uncached)} (${ratio.toFixed(2)}× direct; target ≤ 1.15× ${ratio <= 1.15 ? 'met' : 'NOT MET'})`);
      lines.push(`    cached ${fmt(cached)} (target p50 < 2 ms ${cached.p50 < 2 ? 'met' : 'NOT MET'})`);
      lines.push(`    32 in flight: cached ${(await throughput(inject(true))).toFixed(0)} req/s, uncached ${(await throughput(inject(false))).toFixed(0)} req/s`);
    }
  } finally {
    await close();
    await scratch?.drop();
  }
  return lines;
}
