// The service for the peer benchmark, in its own process so that the load generator and the peer do
// not share its event loop: a workspace whose live demo model runs on the PostgreSQL database named by
// BENCH_WAREHOUSE_URL, a structured key, a listening server on loopback. It prints one JSON line with
// its port and key, and answers the parent's "cpu" message with its process.cpuUsage().
import { startBenchApp, benchWorkspace } from './bench-app.js';
import { setUpDemo } from '../src/demo-setup.js';

const warehouse = new URL(process.env.BENCH_WAREHOUSE_URL ?? '');
// The structured budget (1,000 a minute per workspace) still counts every request; its window moves on
// every 500 readings so that a run measures the hit path rather than 429s.
const { app, services, close } = await startBenchApp({
  budgetWindowEvery: { readings: 500, windowMs: 60_000 },
  env: { SVC_RESULT_CACHE_SECONDS: '3600' },
});
const { ws, user, key } = await benchWorkspace(services, 'Peer', 'structured');
await services.connections.create(ws.id, {
  name: 'warehouse',
  engine: 'postgres',
  settings: { host: warehouse.hostname, port: Number(warehouse.port || 5432), database: warehouse.pathname.slice(1), user: warehouse.username },
});
// The demo's model and attributes; its own DuckDB file is not queried (the connection above is the model's).
await setUpDemo(services, { workspaceId: ws.id, userId: user.id, email: user.email }, { orders: 10 });

await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, key })}\n`);

process.on('message', (message) => {
  if (message === 'cpu') process.send!(process.cpuUsage());
});
process.on('SIGTERM', () => {
  void close().finally(() => process.exit(0));
});
