// The demo on first start: a DuckDB warehouse of generated commerce data in the demo workspace's own
// directory (<data dir>/workspaces/<id>/warehouse.duckdb), the connection `warehouse` to it, and the `demo` project's model deployed. The demo's luminary gets the
// attribute region = "*" so the data key on orders shows them every region.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CmlFile } from './core/cml/index.js';
import { DEFAULT_DEMO_ORDERS, loadDuckDb } from './core/demo/index.js';
import { ALL_ROWS } from './core/semantic/compile.js';
import { IDENTITY_GENERATION } from './identity/generations.js';
import type { Services } from './services.js';

export const DEMO_MODEL_DIR = fileURLToPath(new URL('../demo/model/', import.meta.url));
export const DEMO_CONNECTION = 'warehouse';
export const DEMO_PROJECT = 'demo';
/** The demo warehouse's file, relative to the demo workspace's directory. */
export const DEMO_WAREHOUSE_FILE = 'warehouse.duckdb';

export async function readModelDir(dir: string): Promise<CmlFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.cml')).sort();
  return Promise.all(names.map(async (name) => ({ path: name, content: await readFile(path.join(dir, name), 'utf8') })));
}

export async function setUpDemo(
  services: Services,
  demo: { workspaceId: string; userId: string; email: string },
  options: { orders?: number } = {},
): Promise<{ warehouseFile: string; orders: number; elapsedMs: number }> {
  const started = performance.now();
  const directory = services.connections.directoryOf(demo.workspaceId);
  const warehouseFile = path.join(directory, DEMO_WAREHOUSE_FILE);
  const orders = options.orders ?? DEFAULT_DEMO_ORDERS;
  if (!existsSync(warehouseFile)) {
    await mkdir(directory, { recursive: true });
    await loadDuckDb(warehouseFile, { orders, now: services.clock.now() });
  }

  const existing = await services.connections.list(demo.workspaceId);
  if (!existing.some((c) => c.name === DEMO_CONNECTION)) {
    await services.connections.create(demo.workspaceId, { name: DEMO_CONNECTION, engine: 'duckdb', settings: { path: DEMO_WAREHOUSE_FILE } });
  }
  await services.store.db
    .updateTable('memberships')
    .set({ attributes: JSON.stringify({ region: ALL_ROWS }) })
    .where('workspace_id', '=', demo.workspaceId)
    .where('user_id', '=', demo.userId)
    .execute();
  await services.shared.bump(IDENTITY_GENERATION);

  await services.models.deploy(
    { workspaceId: demo.workspaceId, userId: demo.userId, email: demo.email },
    DEMO_PROJECT,
    await readModelDir(DEMO_MODEL_DIR),
    { message: 'Demo model', projectName: 'Demo' },
  );
  return { warehouseFile, orders, elapsedMs: Math.round(performance.now() - started) };
}
