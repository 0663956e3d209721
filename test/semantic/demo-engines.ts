// The engines a file of compiled-SQL tests runs on: embedded DuckDB always, PostgreSQL and MariaDB when
// their servers answer, each holding the same seeded demo data with the fixture model over it. Opened
// before the file's tests and closed, with their databases dropped, after them.
import { afterAll, beforeAll, type TestContext } from 'vitest';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import type { DemoOptions } from '../../src/core/demo/types.js';
import type { Warehouse, WarehouseEngine } from '../../src/core/warehouse/types.js';
import { openDemoMysql, openDemoWarehouses } from '../helpers/demo-warehouses.js';
import { hasService, missingMysqlTimeZones } from '../helpers/services.js';
import { demoModel } from './fixture.js';

export type Engine = Extract<WarehouseEngine, 'duckdb' | 'postgres' | 'mysql'>;
export const AVAILABLE: Record<Engine, boolean> = { duckdb: true, postgres: await hasService('postgres'), mysql: await hasService('mysql') };
export const ENGINES = (Object.keys(AVAILABLE) as Engine[]).filter((engine) => AVAILABLE[engine]);
/** Why MariaDB cannot answer in a named time zone here, if it cannot (see test/helpers/services.ts). */
export const NO_MYSQL_ZONES = AVAILABLE.mysql ? await missingMysqlTimeZones() : undefined;

/** True when `engine` can answer a query in `timezone` (MariaDB needs its time-zone tables for named zones). */
export const answersIn = (engine: Engine, timezone: string | undefined) => !(engine === 'mysql' && NO_MYSQL_ZONES && timezone && timezone !== 'UTC');

/** Skips the running test, with the reason, on an engine that cannot answer in `timezone`. */
export function needsZone(ctx: TestContext, engine: Engine, timezone: string | undefined): void {
  if (!answersIn(engine, timezone)) ctx.skip(NO_MYSQL_ZONES);
}

/** The demo on every engine present, filled in before the file's tests run. */
export function demoEngines(demo: DemoOptions, tag: string): Map<Engine, { warehouse: Warehouse; model: SemanticModel }> {
  const engines = new Map<Engine, { warehouse: Warehouse; model: SemanticModel }>();
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    for (const [engine, warehouse] of await openDemoWarehouses(demo, { tag, postgres: AVAILABLE.postgres, cleanups })) {
      engines.set(engine as Engine, { warehouse, model: demoModel() });
    }
    if (AVAILABLE.mysql) {
      // A database of this run's own, dropped at the end: the model's tables are <that database>.orders….
      const { warehouse, schema } = await openDemoMysql(demo, cleanups);
      engines.set('mysql', { warehouse, model: demoModel(schema) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { warehouse } of engines.values()) await warehouse.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return engines;
}
