// A test file's app with the demo, on each metadata store: embedded PGlite always, and PostgreSQL when
// it answers (a database of the file's own, dropped after). Anything paged, ordered or time-stamped is
// tested on both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, test } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './app.js';
import { createTestDatabase, hasService } from './services.js';

const hasPostgres = await hasService('postgres');

export const METADATA_STORES = [
  { store: 'PGlite', postgres: false, available: true },
  { store: 'PostgreSQL', postgres: true, available: hasPostgres },
];

export interface DemoApp {
  t: TestApp;
  ws: SeededWorkspace;
  /** The session cookie of the workspace's luminary. */
  cookie: string;
}

/**
 * Starts the app on the store before the enclosing describe's tests (the demo set up with `orders`
 * orders for the seeded workspace's luminary, who is signed in) and closes it after. The answer's
 * `it` skips its tests, saying so, when the store does not answer.
 */
export function demoAppOn(store: (typeof METADATA_STORES)[number], orders: number, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-demo-store-'));
  let app: DemoApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (!store.available) return;
    const database = store.postgres ? await createTestDatabase() : undefined;
    drop = database?.drop;
    const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, ...env }, ...(database ? { databaseUrl: database.url } : {}) });
    const ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders });
    app = { t, ws, cookie: await signIn(t.app, lum.email) };
  }, 120_000);
  afterAll(async () => {
    await app?.t.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { it: store.available ? test : test.skip, app: (): DemoApp => app! };
}
