// POST /api/v1/ask on the offline planner, in process: planning time (period + plan, no I/O) and the
// whole request (planning + queries + prose) on the demo warehouse. Target: planning p50 under 10 ms.
// Then the language-model path's prompt sizes (ask-tokens-bench.ts).
import { buildCatalogIndex, planOffline } from '../src/core/answer/offline-planner.js';
import { findPeriod } from '../src/core/answer/periods.js';
import { setUpDemo } from '../src/demo-setup.js';
import { benchAskTokens } from './ask-tokens-bench.js';
import { startBenchApp } from './bench-app.js';
import { latency } from './timing.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const QUESTIONS = ['What was revenue last week?', 'revenue by channel last month', 'top 3 regions by orders this year', '¿Cuántos pedidos hubo el mes pasado?'];

export async function benchAsk(): Promise<string[]> {
  const { app, services, close } = await startBenchApp({ budgetWindowEvery: { readings: 50, windowMs: 3_600_000 } });
  const lines = [`/ask, offline planner: ${RUNS} runs per question, in process; ms p50 / p99`];
  try {
    const ws = await services.members.createWorkspace({ name: 'Ask', plan: 'team' });
    const user = await services.members.createUser({ email: 'ask@example.com', name: 'Ask', passwordHash: null });
    await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
    await setUpDemo(services, { workspaceId: ws.id, userId: user.id, email: user.email });
    const key = (await services.keys.create({ workspace: { id: ws.id, plan: 'team' }, user: { id: user.id }, role: 'luminary' }, { name: 'bench', surface: 'question' })).value;
    const index = buildCatalogIndex((await services.models.live(ws.id)).model);
    for (const question of QUESTIONS) {
      const planning = await latency(async () => {
        const period = findPeriod(question, { now: new Date(), timezone: 'UTC' });
        planOffline(period ? question.replace(period.phrase, ' ') : question, index);
      }, RUNS);
      const whole = await latency(async () => {
        const r = await app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question } });
        if (r.statusCode !== 200) throw new Error(r.body);
      }, RUNS);
      lines.push(
        `  ${JSON.stringify(question).padEnd(42)} planning ${planning.p50.toFixed(3)} / ${planning.p99.toFixed(3)} (target p50 < 10 ms ${planning.p50 < 10 ? 'met' : 'NOT MET'})   whole request ${whole.p50.toFixed(1)} / ${whole.p99.toFixed(1)}`,
      );
    }
  } finally {
    await close();
  }
  return [...lines, '', ...(await benchAskTokens())];
}
