// Builds the real app on a real store for a test file, and seeds workspaces with members of every role.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { hashPassword } from '../../src/identity/passwords.js';
import { closeServices, createServices, type Services } from '../../src/services.js';
import { memorySharedState } from '../../src/shared-state/memory.js';
import { redisSharedState } from '../../src/shared-state/redis.js';
import { redisResultCache, resultCacheLimits } from '../../src/querying/result-cache.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import type { KeySurface, Plan, Role } from '../../src/store/schema.js';
import { TestClock } from './clock.js';
import { probeRoutes } from './probe-routes.js';

export const PASSWORD = 'correct horse battery staple';

export interface TestAppOptions {
  /** A PostgreSQL URL, or omitted for embedded PGlite in memory. */
  databaseUrl?: string;
  /** Share an already open store (a second instance over the same database). */
  store?: Store;
  redisUrl?: string;
  env?: Record<string, string>;
  logger?: Logger;
  tls?: { key: string; cert: string };
  clock?: Clock;
  /** The key secrets are sealed with; random by default. Give one to share secrets with a spawned server. */
  secretKey?: Buffer;
  /** Receives the notes the services log as warnings (a language model's output not used as is). */
  onNote?: (note: string) => void;
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  store: Store;
  clock: TestClock;
  close(): Promise<void>;
}

// An embedded store migrated once per test process, as an archive every later embedded store starts
// from: a new PGlite cluster takes seconds to create, a copy of one well under a second. The archive
// is never written to, so files that share the process (isolate: false) see the same one.
let migratedPglite: Promise<Blob> | undefined;

async function migratedPgliteArchive(): Promise<Blob> {
  migratedPglite ??= (async () => {
    const template = await openStore({ kind: 'pglite' });
    try {
      await migrate(template);
      return await template.dumpDataDir!();
    } finally {
      await template.close();
    }
  })();
  return migratedPglite;
}

/** A new embedded store with every migration applied: a copy of the one migrated for this process. */
export async function openMigratedPglite(): Promise<Store> {
  return openStore({ kind: 'pglite', from: await migratedPgliteArchive() });
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ SVC_DATA_DIR: '/tmp/svc-test-data', SVC_DEMO: 'off', ...options.env });
  const ownsStore = !options.store;
  const store = options.store ?? (options.databaseUrl ? await openStore({ kind: 'postgres', url: options.databaseUrl }) : await openMigratedPglite());
  if (ownsStore && options.databaseUrl) await migrate(store);
  const clock = (options.clock as TestClock | undefined) ?? new TestClock();
  const shared = options.redisUrl ? await redisSharedState(options.redisUrl) : memorySharedState(clock);
  const resultCache = options.redisUrl ? await redisResultCache(options.redisUrl, resultCacheLimits(config)) : undefined;
  const services = createServices({ config, secretKey: options.secretKey ?? randomBytes(32), store, shared, clock, resultCache, ...(options.onNote ? { onNote: options.onNote } : {}) });
  const app = await buildApp({
    services,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    extraRoutes: probeRoutes,
  });
  await app.ready();
  return {
    app,
    services,
    store,
    clock,
    async close() {
      await app.close();
      await closeServices(services);
      await shared.close();
      if (ownsStore) await store.close();
    },
  };
}

export interface SeededMember {
  id: string;
  email: string;
  role: Role;
}

export interface SeededWorkspace {
  id: string;
  plan: Plan;
  members: Record<Role, SeededMember>;
}

let passwordHash: Promise<string> | undefined;
let counter = 0;

/** A new workspace with one member of each role, all with PASSWORD. */
export async function seedWorkspace(services: Services, plan: Plan = 'team'): Promise<SeededWorkspace> {
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const tag = `${process.pid.toString(36)}${(counter++).toString(36)}${randomBytes(4).toString('hex')}`;
  const workspace = await services.members.createWorkspace({ name: `Workspace ${tag}`, plan });
  const members = {} as Record<Role, SeededMember>;
  for (const role of ['viewer', 'tracer', 'editor', 'luminary'] as const) {
    const user = await services.members.createUser({ email: `${role}-${tag}@example.com`, name: role, passwordHash: hash });
    await services.members.addMembership({ workspaceId: workspace.id, userId: user.id, role });
    members[role] = { id: user.id, email: user.email, role };
  }
  return { id: workspace.id, plan, members };
}

/** Creates a key for a member through the key service (as the console does) and returns its value. */
export async function createKey(
  services: Services,
  workspace: SeededWorkspace,
  role: Role,
  surface: KeySurface,
  extra: { expiresAt?: Date; scopes?: string[]; rateLimit?: number } = {},
): Promise<{ id: string; value: string }> {
  const actor = { workspace: { id: workspace.id, plan: workspace.plan }, user: { id: workspace.members[role].id }, role };
  const created = await services.keys.create(actor, { name: `${surface} key`, surface, ...extra });
  return { id: created.key.id, value: created.value };
}

/** Signs in through the real route and returns the Cookie header to send. */
export async function signIn(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'svc_session');
  return `svc_session=${cookie!.value}`;
}

/** A console request as the console's own page sends it: the session cookie, and a JSON body if any. */
export function consoleRequest(
  app: FastifyInstance,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: { cookie, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

/** A console request on a test app; writes are JSON, a DELETE without a body included (the CSRF rule). */
export function consoleCall(t: TestApp, cookie: string, method: 'GET' | 'PATCH' | 'DELETE' | 'POST', url: string, payload?: object) {
  return consoleRequest(t.app, cookie, method, url, payload, method === 'GET' || payload ? {} : { 'content-type': 'application/json' });
}
