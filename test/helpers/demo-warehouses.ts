// The seeded demo data loaded into embedded DuckDB and, when they answer, a fresh PostgreSQL database
// and a fresh MySQL/MariaDB database, with a driver open on each: the engines that tests of compiled
// SQL run on. Clean-ups are pushed on the caller's list (files, databases), to run after the drivers
// are closed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDuckDb, loadMysql, loadPostgres } from '../../src/core/demo/index.js';
import type { DemoOptions } from '../../src/core/demo/types.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { Warehouse, WarehouseEngine } from '../../src/core/warehouse/types.js';
import { createTestDatabase, createTestMysqlDatabase } from './services.js';

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

/**
 * The demo in a MySQL/MariaDB database of its own, named uniquely and dropped by the clean-up. On MySQL
 * a schema is a database, so the demo's tables are `<schema>.orders` and so on: a model over them must
 * use this schema instead of `shop` (test/semantic/fixture.ts takes it as a parameter).
 */
export async function openDemoMysql(demo: DemoOptions, cleanups: Array<() => Promise<void>>): Promise<{ warehouse: Warehouse; schema: string }> {
  const db = await createTestMysqlDatabase();
  cleanups.push(() => db.drop());
  await loadMysql(db.url, { ...demo, database: db.database });
  const url = new URL(db.url);
  const warehouse = openWarehouse({ engine: 'mysql', host: url.hostname, port: Number(url.port || 3306), database: db.database, user: decodeURIComponent(url.username), ...(url.password ? { password: decodeURIComponent(url.password) } : {}) });
  return { warehouse, schema: db.database };
}
