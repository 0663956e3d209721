// A server for the benchmark, in its own process (the load generator gets the other core). It mounts
// the probe routes and prints one JSON line with its port and a question key once it listens.
import { randomBytes } from 'node:crypto';
import { noOpRoutes } from './bench-app.js';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/identity/passwords.js';
import { createServices } from '../src/services.js';
import { memorySharedState } from '../src/shared-state/memory.js';
import { redisSharedState } from '../src/shared-state/redis.js';
import { openStore } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { probeRoutes } from '../test/helpers/probe-routes.js';

const databaseUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL;
const config = loadConfig({ TLS: 'off', SVC_DEMO: 'off', LOG_LEVEL: 'silent' });
const store = await openStore(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite' });
await migrate(store);
const shared = redisUrl ? await redisSharedState(redisUrl) : memorySharedState(systemClock);
const services = createServices({ config, secretKey: randomBytes(32), store, shared, clock: systemClock });

const workspace = await services.members.createWorkspace({ name: `Bench ${Date.now()}`, plan: 'team' });
const user = await services.members.createUser({
  email: `bench-${Date.now()}@example.com`,
  name: 'Bench',
  passwordHash: await hashPassword('bench password'),
});
await services.members.addMembership({ workspaceId: workspace.id, userId: user.id, role: 'luminary' });
// A budget no run can spend, so that every request is admitted and the limiter still counts each one.
const key = await services.keys.create(
  { workspace: { id: workspace.id, plan: 'team' }, user: { id: user.id }, role: 'luminary' },
  { name: 'bench', surface: 'question', rateLimit: 2_000_000_000 },
);

const app = await buildApp({
  services,
  extraRoutes: async (child) => {
    await probeRoutes(child);
    noOpRoutes(child);
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, key: key.value })}\n`);

process.on('SIGTERM', async () => {
  await app.close();
  await shared.close();
  await store.close();
  process.exit(0);
});
