// The rollup file and the reads that fill it: a partition is replaced in one transaction (a reader sees
// the old rows until the commit, and a failed build leaves them), a build past its group limit stores
// nothing, and the drivers stream a large result in batches, stopping cleanly when the reader stops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { Warehouse, WarehouseValue } from '../../src/core/warehouse/types.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { RollupStore } from '../../src/rollups/rollup-store.js';
import { TEST_NOW } from '../helpers/clock.js';
import { hasService, POSTGRES_URL } from '../helpers/services.js';
import { factModel, factRows, loadDuckDbFacts } from './fact-table.js';

const postgresUp = await hasService('postgres');
const dir = mkdtempSync(path.join(tmpdir(), 'rollup-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [
  { name: 'region', type: 'VARCHAR' },
  { name: 'created_at__day', type: 'TIMESTAMP' },
  { name: 'revenue', type: 'DECIMAL(38,2)' },
];
const MARCH = { timeColumn: 'created_at__day', range: { start: new Date('2024-03-01T00:00:00Z'), end: new Date('2024-04-01T00:00:00Z') } };

async function* batches(rows: WarehouseValue[][][], between?: () => Promise<void>): AsyncGenerator<WarehouseValue[][]> {
  for (const [i, batch] of rows.entries()) {
    if (i > 0) await between?.();
    yield batch;
  }
}

async function revenueByMonth(store: RollupStore): Promise<Record<string, unknown>> {
  const result = await store.query(`SELECT strftime(created_at__day, '%Y-%m') AS month, SUM(revenue) AS revenue FROM "t" GROUP BY 1 ORDER BY 1`, [], 100);
  return Object.fromEntries(result.rows.map((row) => [row['month'], row['revenue']]));
}

describe('RollupStore.replace', () => {
  it('replaces one partition in a transaction: readers see the old rows until the commit, other partitions stay', async () => {
    const store = await RollupStore.open(path.join(dir, 'replace.duckdb'));
    try {
      await store.replace('t', COLUMNS, undefined, batches([[['east', '2024-02-10T00:00:00.000', '5.25'], ['east', '2024-03-02T00:00:00.000', '1.10']]]));
      expect(await revenueByMonth(store)).toEqual({ '2024-02': 5.25, '2024-03': 1.1 });
      const seenMidway: Array<Record<string, unknown>> = [];
      const written = await store.replace(
        't',
        COLUMNS,
        MARCH,
        batches([[['east', '2024-03-05T00:00:00.000', '10.01']], [['west', '2024-03-31T00:00:00.000', '0.02']]], async () => {
          seenMidway.push(await revenueByMonth(store));
        }),
      );
      expect(written).toBe(2);
      expect(seenMidway).toEqual([{ '2024-02': 5.25, '2024-03': 1.1 }]);
      expect(await revenueByMonth(store)).toEqual({ '2024-02': 5.25, '2024-03': 10.03 });
    } finally {
      store.close();
    }
  });

  it('keeps the old rows when a build fails midway', async () => {
    const store = await RollupStore.open(path.join(dir, 'failed.duckdb'));
    try {
      await store.replace('t', COLUMNS, undefined, batches([[['east', '2024-03-02T00:00:00.000', '1.10']]]));
      async function* failing(): AsyncGenerator<WarehouseValue[][]> {
        yield [['east', '2024-03-05T00:00:00.000', '99.00']];
        throw new Error('source went away');
      }
      await expect(store.replace('t', COLUMNS, MARCH, failing())).rejects.toThrow('source went away');
      expect(await revenueByMonth(store)).toEqual({ '2024-03': 1.1 });
    } finally {
      store.close();
    }
  });

  it('runs replaces started together one after the other', async () => {
    const store = await RollupStore.open(path.join(dir, 'queued.duckdb'));
    try {
      const april = { ...MARCH, range: { start: new Date('2024-04-01T00:00:00Z'), end: new Date('2024-05-01T00:00:00Z') } };
      const slow = async () => new Promise<void>((resolve) => setTimeout(resolve, 20));
      const written = await Promise.all([
        store.replace('t', COLUMNS, MARCH, batches([[['east', '2024-03-05T00:00:00.000', '1.00']], [['east', '2024-03-06T00:00:00.000', '2.00']]], slow)),
        store.replace('t', COLUMNS, april, batches([[['west', '2024-04-05T00:00:00.000', '4.00']], [['west', '2024-04-06T00:00:00.000', '8.00']]], slow)),
      ]);
      expect(written).toEqual([2, 2]);
      expect(await revenueByMonth(store)).toEqual({ '2024-03': 3, '2024-04': 12 });
    } finally {
      store.close();
    }
  });
});

describe('buildRollup', () => {
  it('refuses a build holding more groups than allowed, and stores none of it', async () => {
    const file = path.join(dir, 'facts.duckdb');
    const facts = factRows(500);
    await loadDuckDbFacts(file, facts);
    const groups = new Set(facts.map((row) => `${row.region}|${row.createdAt.slice(0, 7)}`)).size;
    const model = compileModel([{ path: 'facts.cml', content: factModel('main.orders') }]).model!;
    const rollup = model.nodes.get('orders')!.rollups.find((r) => r.name === 'monthly_region')!;
    const source = openWarehouse({ engine: 'duckdb', path: file });
    const store = await RollupStore.open(path.join(dir, 'limit.duckdb'));
    try {
      const build = { model, rollup, source, store, now: TEST_NOW, timeoutMs: 30_000 };
      // One group per region (null included) and month that has rows.
      const { table, rows, sourceMaxTime } = await buildRollup({ ...build, maxRows: groups });
      expect(rows).toBe(groups);
      const latest = facts.map((row) => row.createdAt).sort().at(-1)!;
      expect(sourceMaxTime).toBe(`${latest.replace(' ', 'T')}.000`);
      await expect(buildRollup({ ...build, maxRows: groups - 1 })).rejects.toThrow(`more than ${groups - 1} groups`);
      expect((await store.query(`SELECT COUNT(*) AS n FROM "${table}"`, [], 1)).rows).toEqual([{ n: groups }]);
    } finally {
      store.close();
      await source.close();
    }
  });
});

async function streamed(warehouse: Warehouse, sql: string, stopAfter?: number): Promise<number[]> {
  const sizes: number[] = [];
  for await (const batch of warehouse.stream!(sql, [], { timeoutMs: 30_000 })) {
    expect(batch.columns.map((c) => c.name)).toEqual(['n']);
    sizes.push(batch.rows.length);
    if (sizes.length === stopAfter) break;
  }
  return sizes;
}

describe('Warehouse.stream', () => {
  it('DuckDB yields a large result chunk by chunk, and an empty one as one batch of columns', async () => {
    const warehouse = openWarehouse({ engine: 'duckdb', path: path.join(dir, 'facts.duckdb') });
    try {
      const sizes = await streamed(warehouse, 'SELECT range AS n FROM range(5000)');
      expect(sizes.length).toBeGreaterThan(1);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(5000);
      expect(await streamed(warehouse, 'SELECT 1 AS n WHERE false')).toEqual([0]);
      expect(await streamed(warehouse, 'SELECT range AS n FROM range(5000)', 1)).toHaveLength(1);
    } finally {
      await warehouse.close();
    }
  });

  it.runIf(postgresUp)('PostgreSQL yields a large result through a cursor, and gives its connection back when the reader stops early', async () => {
    const url = new URL(POSTGRES_URL);
    // One connection: a stream that kept it would leave the next run waiting forever.
    const warehouse = openWarehouse({ engine: 'postgres', host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1), user: url.username }, { maxConnections: 1 });
    try {
      const sizes = await streamed(warehouse, 'SELECT n FROM generate_series(1, 1234) AS n');
      expect(sizes).toEqual([500, 500, 234]);
      expect(await streamed(warehouse, 'SELECT 1 AS n WHERE false')).toEqual([0]);
      expect(await streamed(warehouse, 'SELECT n FROM generate_series(1, 5000) AS n', 1)).toEqual([500]);
      const after = await warehouse.run('SELECT 1 AS n', [], { maxRows: 1, timeoutMs: 5_000 });
      expect(after.rows).toEqual([{ n: 1 }]);
      await expect(streamed(warehouse, 'CREATE TABLE x (a int)')).rejects.toThrow();
    } finally {
      await warehouse.close();
    }
  });
});
