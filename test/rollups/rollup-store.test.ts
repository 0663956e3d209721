// The rollup file and the reads that fill it: a partition is replaced in one transaction (a reader sees
// the old rows until the commit, and a failed build leaves them), a build past its group limit stores
// nothing. (How the drivers stream into a sink: test/warehouse/stream.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { RowSink, WarehouseValue } from '../../src/core/warehouse/types.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { RollupStore } from '../../src/rollups/rollup-store.js';
import { TEST_NOW } from '../helpers/clock.js';
import { factModel, factRows, loadDuckDbFacts } from './fact-table.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rollup-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [
  { name: 'region', type: 'VARCHAR' },
  { name: 'created_at__day', type: 'TIMESTAMP' },
  { name: 'revenue', type: 'DECIMAL(38,2)' },
];
const MARCH = { timeColumn: 'created_at__day', range: { start: new Date('2024-03-01T00:00:00Z'), end: new Date('2024-04-01T00:00:00Z') } };

/** Fills a replace as a driver's stream would: the columns, then the batches, `between` each two. */
function batches(rows: WarehouseValue[][][], between?: () => Promise<void>): (sink: RowSink) => Promise<void> {
  return async (sink) => {
    await sink.columns(COLUMNS);
    for (const [i, batch] of rows.entries()) {
      if (i > 0) await between?.();
      await sink.rows(batch);
    }
  };
}

async function revenueByMonth(store: RollupStore): Promise<Record<string, unknown>> {
  const result = await store.query(`SELECT strftime(created_at__day, '%Y-%m') AS month, SUM(revenue) AS revenue FROM "t" GROUP BY 1 ORDER BY 1`, [], 100);
  return Object.fromEntries(result.rows.map((row) => [row['month'], row['revenue']]));
}

describe('RollupStore.replace', () => {
  it('replaces one partition in a transaction: readers see the old rows until the commit, other partitions stay', async () => {
    const store = await RollupStore.open(path.join(dir, 'replace.duckdb'));
    try {
      await store.replace('t', undefined, batches([[['east', '2024-02-10T00:00:00.000', '5.25'], ['east', '2024-03-02T00:00:00.000', '1.10']]]));
      expect(await revenueByMonth(store)).toEqual({ '2024-02': 5.25, '2024-03': 1.1 });
      const seenMidway: Array<Record<string, unknown>> = [];
      const written = await store.replace(
        't',
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
      await store.replace('t', undefined, batches([[['east', '2024-03-02T00:00:00.000', '1.10']]]));
      const failing = async (sink: RowSink) => {
        await batches([[['east', '2024-03-05T00:00:00.000', '99.00']]])(sink);
        throw new Error('source went away');
      };
      await expect(store.replace('t', MARCH, failing)).rejects.toThrow('source went away');
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
        store.replace('t', MARCH, batches([[['east', '2024-03-05T00:00:00.000', '1.00']], [['east', '2024-03-06T00:00:00.000', '2.00']]], slow)),
        store.replace('t', april, batches([[['west', '2024-04-05T00:00:00.000', '4.00']], [['west', '2024-04-06T00:00:00.000', '8.00']]], slow)),
      ]);
      expect(written).toEqual([2, 2]);
      expect(await revenueByMonth(store)).toEqual({ '2024-03': 3, '2024-04': 12 });
    } finally {
      store.close();
    }
  });
});

describe('RollupStore catalog reads', () => {
  it('read the stored tables and columns while replaces are under way, without breaking them', async () => {
    const store = await RollupStore.open(path.join(dir, 'catalog.duckdb'));
    try {
      await store.replace('t', MARCH, batches([[['east', '2024-03-05T00:00:00.000', '1.00']]]));
      const reads: Promise<unknown>[] = [];
      // Between batches of every replace, the catalog is read, as a query or a build checking its table does.
      const between = async () => {
        reads.push(store.columnTypes('t'), store.tables());
        await new Promise<void>((resolve) => setImmediate(resolve));
      };
      const replaces = Array.from({ length: 8 }, (_, i) =>
        store.replace(`t${i}`, undefined, batches([[['east', '2024-03-05T00:00:00.000', '1.00']], [['west', '2024-03-06T00:00:00.000', '2.00']], [['north', '2024-03-07T00:00:00.000', '3.00']]], between)),
      );
      expect(await Promise.all(replaces)).toEqual(Array.from({ length: 8 }, () => 3));
      const read = await Promise.all(reads);
      expect(read.length).toBe(8 * 2 * 2);
      expect(read[0]).toEqual(new Map(COLUMNS.map((c) => [c.name, c.type])));
      expect(await store.tables()).toEqual(['t', ...Array.from({ length: 8 }, (_, i) => `t${i}`)]);
    } finally {
      store.close();
    }
  });
});

describe('RollupStore.query', () => {
  it('fails a read that fails after its first chunks instead of answering the rows read before', async () => {
    const store = await RollupStore.open(path.join(dir, 'read.duckdb'));
    try {
      const failing = `SELECT range AS n, CASE WHEN range = 300000 THEN error('row 300000 fails') ELSE range END AS v FROM range(400000)`;
      await expect(store.query(failing, [], 1_000_000)).rejects.toThrow();
      const whole = await store.query('SELECT range AS n FROM range(300000)', [], 1_000_000);
      expect(whole).toMatchObject({ rowCount: 300_000, truncated: false });
      expect(await store.query('SELECT range AS n FROM range(10)', [], 3)).toMatchObject({ rows: [{ n: 0 }, { n: 1 }, { n: 2 }], truncated: true });
    } finally {
      store.close();
    }
  });
});

describe('RollupStore reuse', () => {
  it('answers whole reads after cut and failed ones (read connections are reused), and forgets a dropped table\'s columns', async () => {
    const store = await RollupStore.open(path.join(dir, 'reuse.duckdb'));
    try {
      // Cut reads (a cap, a failure midway) leave results half-read: later reads must still answer whole.
      for (let i = 0; i < 6; i++) {
        expect(await store.query('SELECT range AS n FROM range(5000)', [], 2)).toMatchObject({ rowCount: 2, truncated: true });
        await expect(store.query(`SELECT CASE WHEN range = 4000 THEN error('fails') ELSE range END AS v FROM range(5000)`, [], 10_000)).rejects.toThrow();
        expect(await store.query('SELECT range AS n FROM range(3000)', [], 10_000)).toMatchObject({ rowCount: 3000, truncated: false });
      }
      await store.replace('t', undefined, batches([[['north', '2024-03-02T00:00:00.000', '1.50']]]));
      expect([...(await store.columnTypes('t'))!.keys()]).toEqual(['region', 'created_at__day', 'revenue']);
      await store.drop('t');
      expect(await store.columnTypes('t')).toBeUndefined();
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
