// Raw SQL through surfaces B (/api/v1/query) and D (/api/studio/query), in process, beside the same SQL
// run directly through the same pooled driver. Target: the service costs at most 1.2× the direct p50.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startBenchApp } from './bench-app.js';
import { latency } from './timing.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';
import { loadDuckDb, loadPostgres } from '../src/core/demo/index.js';
import { hashPassword } from '../src/identity/passwords.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const QUERIES = {
  '1 row': 'SELECT COUNT(*) AS n FROM shop.orders',
  '1,000 rows': 'SELECT id, status, channel, amount, created_at FROM shop.orders ORDER BY id LIMIT 1000',
};

export async function benchRawQueries(): Promise<string[]> {
  const { app, services, close } = await startBenchApp({ env: { TRUST_PROXY: 'true' } });
  const lines = [`Raw SQL: ${RUNS} runs each, in process (app.inject), p50 / p99 in ms; target service p50 ≤ 1.2 × direct`];
  let scratch: ScratchPostgres | undefined;
  try {
    const workspace = await services.members.createWorkspace({ name: 'Bench', plan: 'team' });
    const user = await services.members.createUser({ email: 'bench@example.com', name: 'Bench', passwordHash: await hashPassword('bench password') });
    await services.members.addMembership({ workspaceId: workspace.id, userId: user.id, role: 'luminary' });
    const actor = { workspace: { id: workspace.id, plan: 'team' }, user: { id: user.id }, role: 'luminary' as const };
    const key = (await services.keys.create(actor, { name: 'bench', surface: 'workspace', rateLimit: 2_000_000_000 })).value;
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bench@example.com', password: 'bench password' } });
    const cookie = `svc_session=${login.cookies.find((c) => c.name === 'svc_session')!.value}`;

    const demo = { orders: 20_000, now: new Date() };
    mkdirSync(services.connections.directoryOf(workspace.id), { recursive: true });
    await loadDuckDb(path.join(services.connections.directoryOf(workspace.id), 'bench.duckdb'), demo);
    const connections = [await services.connections.create(workspace.id, { name: 'duck', engine: 'duckdb', settings: { path: 'bench.duckdb' } })];
    try {
      scratch = await createScratchPostgres();
      await loadPostgres(scratch.url, demo);
      connections.push(await services.connections.create(workspace.id, { name: 'pg', engine: 'postgres', settings: scratch.settings }));
    } catch {
      lines.push('  PostgreSQL: skipped (not reachable)');
    }

    for (const connection of connections) {
      const { warehouse } = await services.connections.warehouse(workspace.id, connection.name);
      for (const [label, sql] of Object.entries(QUERIES)) {
        const direct = await latency(() => warehouse.run(sql, [], { maxRows: 1000, timeoutMs: 30_000 }), RUNS);
        const viaB = await latency(async () => {
          const r = await app.inject({ method: 'POST', url: '/api/v1/query', headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' }, payload: { connection_id: connection.id, sql } });
          if (r.statusCode !== 200) throw new Error(r.body);
        }, RUNS);
        const viaD = await latency(async () => {
          const r = await app.inject({ method: 'POST', url: '/api/studio/query', headers: { cookie, 'content-type': 'application/json' }, payload: { connection: connection.name, sql, limit: 1000 } });
          if (r.statusCode !== 200) throw new Error(r.body);
        }, RUNS);
        const fmt = (r: { p50: number; p99: number }) => `${r.p50.toFixed(2).padStart(6)} / ${r.p99.toFixed(2).padStart(6)}`;
        const ratio = (r: { p50: number }) => `${(r.p50 / direct.p50).toFixed(2)}×${r.p50 / direct.p50 <= 1.2 ? '' : ' (over 1.2×)'}`;
        lines.push(
          `  ${connection.engine.padEnd(8)} ${label.padEnd(10)} direct ${fmt(direct)}   B ${fmt(viaB)} ${ratio(viaB).padEnd(16)}   D ${fmt(viaD)} ${ratio(viaD)}`,
        );
      }
    }
  } finally {
    await close();
    await scratch?.drop();
  }
  return lines;
}
