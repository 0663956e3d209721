// Warehouse.stream() on PostgreSQL, MariaDB and DuckDB: rows handed over in bounded batches, in order,
// capped at maxRows with the truncation said; a sink that waits for ever (a client that neither reads
// nor leaves) cannot hold the run past its time limit, and a sink that throws fails the run; either
// way the connection goes back and the next run works.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import type { RowSink, WarehouseValue } from '../../src/core/warehouse/types.js';
import { mysqlNumbers } from '../helpers/mysql-numbers.js';
import { waitFor } from '../helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from '../helpers/services.js';
import { expectRefused } from './fixture.js';

interface Engine {
  name: string;
  available: boolean;
  open(cleanups: Array<() => Promise<void>>): Promise<Warehouse>;
  /** `n` from 1 to `rows`, in order. */
  series(rows: number): string;
}

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    available: await hasService('postgres'),
    async open(cleanups) {
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      const url = new URL(db.url);
      return openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: decodeURIComponent(url.username) });
    },
    series: (rows) => `SELECT n FROM generate_series(1, ${rows}) AS n ORDER BY n`,
  },
  {
    name: 'MariaDB',
    available: await hasService('mysql'),
    async open(cleanups) {
      const db = await createTestMysqlDatabase();
      cleanups.push(() => db.drop());
      const url = new URL(db.url);
      return openWarehouse({ engine: 'mysql', host: url.hostname, port: Number(url.port || 3306), database: db.database, user: decodeURIComponent(url.username), ...(url.password ? { password: decodeURIComponent(url.password) } : {}) });
    },
    series: (rows) => `SELECT n FROM (${mysqlNumbers(5)}) AS s WHERE n <= ${rows} ORDER BY n`,
  },
  {
    name: 'DuckDB',
    available: true,
    async open(cleanups) {
      const dir = mkdtempSync(path.join(tmpdir(), 'warehouse-stream-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'stream.duckdb');
      const loader = await DuckDBInstance.create(file);
      const connection = await loader.connect();
      await connection.run('CREATE TABLE marker AS SELECT 1 AS x');
      connection.closeSync();
      loader.closeSync();
      return openWarehouse({ engine: 'duckdb', path: file });
    },
    series: (rows) => `SELECT range + 1 AS n FROM range(${rows}) ORDER BY n`,
  },
];

/** A sink that keeps the rows and the size of each batch. */
function keeping(): RowSink & { values: WarehouseValue[]; batches: number[]; names: string[] } {
  const kept = { values: [] as WarehouseValue[], batches: [] as number[], names: [] as string[] };
  return {
    ...kept,
    columns: (columns) => void kept.names.push(...columns.map((c) => c.name)),
    rows: async (batch) => {
      kept.batches.push(batch.length);
      for (const row of batch) kept.values.push(row[0]!);
    },
  };
}

describe.each(engines.map((e) => [e.name, e] as const))('stream() on %s', (_, engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  let warehouse: Warehouse;
  beforeAll(async () => {
    if (engine.available) warehouse = await engine.open(cleanups);
  });
  afterAll(async () => {
    await warehouse?.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const idle = () =>
    waitFor('the pool idle', async () => {
      const pool = warehouse.poolStats?.();
      return pool !== undefined && pool.total === pool.idle && pool.waiting === 0;
    });

  it.runIf(engine.available)('hands every row over in order, in bounded batches; a cap says it cut the result', async () => {
    const sink = keeping();
    const summary = await warehouse.stream(engine.series(30_000), [], { maxRows: 1_000_000, timeoutMs: 20_000 }, sink);
    expect(summary).toMatchObject({ rowCount: 30_000, truncated: false, columns: [{ name: 'n' }] });
    expect(sink.names).toEqual(['n']);
    expect(sink.values).toEqual(Array.from({ length: 30_000 }, (_, i) => i + 1));
    expect(sink.batches.length).toBeGreaterThan(1);
    expect(Math.max(...sink.batches)).toBeLessThanOrEqual(2_048);

    const capped = keeping();
    expect(await warehouse.stream(engine.series(30_000), [], { maxRows: 1_234, timeoutMs: 20_000 }, capped)).toMatchObject({ rowCount: 1_234, truncated: true });
    expect(capped.values).toEqual(Array.from({ length: 1_234 }, (_, i) => i + 1));
    const exact = keeping();
    expect(await warehouse.stream(engine.series(1_234), [], { maxRows: 1_234, timeoutMs: 20_000 }, exact)).toMatchObject({ rowCount: 1_234, truncated: false });
  });

  it.runIf(engine.available)('a sink that never lets go is cut at the time limit, and the connection goes back', async () => {
    const stalled: RowSink = { columns: () => undefined, rows: () => new Promise<void>(() => undefined) };
    const began = performance.now();
    const error = await expectRefused(warehouse.stream(engine.series(90_000), [], { maxRows: 1_000_000, timeoutMs: 400 }, stalled), [504]);
    expect(error.code).toBe('warehouse_timeout');
    // The time limit plus the watchdog's slack, with room for a busy machine.
    expect(performance.now() - began).toBeLessThan(5_000);
    await idle();
    expect((await warehouse.run('SELECT 7 AS seven', [], { maxRows: 1, timeoutMs: 5_000 })).rows).toEqual([{ seven: 7 }]);
  });

  it.runIf(engine.available)('a sink that throws fails the run, and the connection goes back', async () => {
    let calls = 0;
    const failing: RowSink = {
      columns: () => undefined,
      rows: async () => {
        if (++calls === 2) throw new Error('the client went away');
      },
    };
    await expectRefused(warehouse.stream(engine.series(90_000), [], { maxRows: 1_000_000, timeoutMs: 20_000 }, failing), [400, 499, 502]);
    expect(calls).toBe(2);
    await idle();
    expect((await warehouse.run('SELECT 8 AS eight', [], { maxRows: 1, timeoutMs: 5_000 })).rows).toEqual([{ eight: 8 }]);
  });
});
