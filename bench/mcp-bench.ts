// `npm run bench mcp`: the MCP `query` tool against the same C /v1/query, both over HTTP on one
// keep-alive socket each, interleaved, on the DuckDB demo: p50 of each and their ratio, with the result
// cache answering (hit) and with it off (miss: both run on the warehouse). Target: MCP ≤ 1.2× C at p50.
import type { AddressInfo } from 'node:net';
import { benchWorkspace, startBenchApp } from './bench-app.js';
import { keepAlivePost } from './http-post.js';
import { interleaved } from './interleave.js';
import { setUpDemo } from '../src/demo-setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 20);
const QUERY = { node: 'orders', dimensions: ['status', 'channel'], measures: ['order_count', 'gross_revenue'], limit: 500 };
const TARGET = 1.2;

async function measure(label: string, env: Record<string, string>): Promise<string[]> {
  const { app, services, close } = await startBenchApp({ env, budgetWindowEvery: { readings: 500, windowMs: 60_000 } });
  try {
    const { ws, user, key } = await benchWorkspace(services, 'Mcp', 'structured');
    await setUpDemo(services, { workspaceId: ws.id, userId: user.id, email: user.email });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const rest = keepAlivePost(port);
    const mcp = keepAlivePost(port);
    const auth = { authorization: `Bearer ${key}` };
    const mcpHeaders = { ...auth, accept: 'application/json, text/event-stream', host: `127.0.0.1:${port}` };
    let id = 0;
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'query', arguments: QUERY } };
    const figures = await interleaved(
      {
        rest: () => rest.post('/v1/query', auth, QUERY),
        mcp: async () => {
          const text = await mcp.post('/mcp', mcpHeaders, { ...call, id: ++id });
          if (text.includes('"isError":true') || text.includes('"error":{')) throw new Error(text.slice(0, 300));
        },
      },
      { rounds: ROUNDS, perRound: PER_ROUND },
    );
    rest.close();
    mcp.close();
    const ratio = figures.mcp.p50 / figures.rest.p50;
    return [
      `  ${label}: C /v1/query p50 ${figures.rest.p50.toFixed(2)} ms (p99 ${figures.rest.p99.toFixed(2)}), MCP query p50 ${figures.mcp.p50.toFixed(2)} ms (p99 ${figures.mcp.p99.toFixed(2)}): ` +
        `${ratio.toFixed(2)}× (target ≤ ${TARGET}× ${ratio <= TARGET ? 'met' : 'NOT MET'})`,
    ];
  } finally {
    await close();
  }
}

export async function benchMcp(): Promise<string[]> {
  return [
    `MCP query tool vs C /v1/query over HTTP, interleaved (${ROUNDS} rounds × ${PER_ROUND}), DuckDB demo; ${JSON.stringify(QUERY)}`,
    ...(await measure('cache hit', {})),
    ...(await measure('cache miss (result cache off)', { SVC_RESULT_CACHE_SECONDS: '0' })),
  ];
}
