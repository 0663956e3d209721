// The seeded demo data loaded into embedded DuckDB and, when it answers, a fresh PostgreSQL database,
// with a driver open on each: the engines that tests of compiled SQL compare. Clean-ups are pushed on
// the caller's list (files, databases), to run after the drivers are closed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDuckDb, loadPostgres } from '../../src/core/demo/index.js';
import type { DemoOptions } from '../../src/core/demo/types.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { Warehouse, WarehouseEngine } from '../../src/core/warehouse/types.js';
import { createTestDatabase } from './services.js';

export async function openDemoWarehouses(
  demo: DemoOptions,
  options: { tag: string; postgres: boolean; cleanups: Array<() => Promise<void>> },
): Promise<Map<WarehouseEngine, Warehouse>> {
  const warehouses = new Map<WarehouseEngine, Warehouse>();
  const dir = mkdtempSync(path.join(tmpdir(), `svc-${options.tag}-`));
  options.cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'demo.duckdb');
  await loadDuckDb(file, demo);
  warehouses.set('duckdb', openWarehouse({ engine: 'duckdb', path: file }));
  if (options.postgres) {
    const db = await createTestDatabase();
    options.cleanups.push(() => db.drop());
    await loadPostgres(db.url, demo);
    const url = new URL(db.url);
    warehouses.set('postgres', openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username }));
  }
  return warehouses;
}
