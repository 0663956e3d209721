// The in-process app the benchmarks drive: embedded store, a scratch data dir, plain HTTP, silent
// logs. `budgetWindowEvery` moves the rate-limit counters' clock forward one window every so many
// readings, so a benchmark measures the service rather than its budget.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock, type Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/identity/passwords.js';
import { closeServices, createServices, type Services } from '../src/services.js';
import { SURFACE_POLICY } from '../src/http/route-policy.js';
import { memorySharedState } from '../src/shared-state/memory.js';
import { redisSharedState } from '../src/shared-state/redis.js';
import { openStore } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';

export interface BenchApp {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  close(): Promise<void>;
}

export interface BenchAppOptions {
  env?: Record<string, string>;
  budgetWindowEvery?: { readings: number; windowMs: number };
  /** A PostgreSQL database for the metadata store (migrated here); embedded PGlite when omitted. */
  databaseUrl?: string;
  /** Serve HTTPS with this key and certificate (plain HTTP when omitted). */
  tls?: { key: string; cert: string };
  /** Redis for the shared state (rate limits, generations); in process when omitted. `budgetWindowEvery` is then ignored. */
  redisUrl?: string;
  extraRoutes?: (app: FastifyInstance) => Promise<void> | void;
}

export const NO_OP_ROUTES = { bare: '/bench/bare', authed: '/api/v1/bench/authed' } as const;

/** The same no-op handler behind no policy and behind surface A's (question key auth + hourly rate limit). */
export function noOpRoutes(app: FastifyInstance): void {
  app.get(NO_OP_ROUTES.bare, { config: SURFACE_POLICY.public }, async () => ({ ok: true }));
  app.get(NO_OP_ROUTES.authed, { config: SURFACE_POLICY.question }, async () => ({ ok: true }));
}

export async function startBenchApp(options: BenchAppOptions = {}): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  const config = loadConfig({ TLS: 'off', SVC_DEMO: 'off', LOG_LEVEL: 'silent', SVC_DATA_DIR: dataDir, ...options.env });
  const store = await openStore(options.databaseUrl ? { kind: 'postgres', url: options.databaseUrl } : { kind: 'pglite' });
  await migrate(store);
  let readings = 0;
  const every = options.budgetWindowEvery;
  const budgetClock: Clock = every ? { now: () => new Date(Date.now() + Math.floor(readings++ / every.readings) * every.windowMs) } : systemClock;
  const shared = options.redisUrl ? await redisSharedState(options.redisUrl) : memorySharedState(budgetClock);
  const services = createServices({ config, secretKey: randomBytes(32), store, shared, clock: systemClock });
  const app = await buildApp({ services, ...(options.tls ? { tls: options.tls } : {}), ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}) });
  return {
    app,
    services,
    dataDir,
    async close() {
      await app.close();
      await closeServices(services);
      await shared.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A team workspace, its luminary and a key of the given surface, for a benchmark to call as. */
export async function benchWorkspace(services: Services, name: string, surface: 'structured' | 'question') {
  const passwordHash = await hashPassword('bench password');
  const ws = await services.members.createWorkspace({ name, plan: 'team' });
  const user = await services.members.createUser({ email: `${name.toLowerCase()}@example.com`, name, passwordHash });
  await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
  const key = (await services.keys.create({ workspace: { id: ws.id, plan: 'team' }, user: { id: user.id }, role: 'luminary' }, { name: 'bench', surface })).value;
  return { ws, user, key };
}
