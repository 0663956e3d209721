// Demo dataset: generation time alone (rows produced and summed, no I/O) and the full DuckDB load
// (generation + Appender + keys + checkpoint) into a temporary file, for 100k and 1M orders.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateDemo, loadDuckDb, summariseDemo } from '../src/core/demo/index.js';

const SIZES = [100_000, 1_000_000];
const NOW = new Date('2025-01-01T00:00:00.000Z');

const fmt = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2).padStart(6)} s`;

export async function benchDemo(): Promise<string[]> {
  const lines = ['Demo dataset (seed 42): generation without I/O, then a full DuckDB load into a temporary file'];
  // Warm-up, so the first measured size does not pay for JIT compilation.
  summariseDemo(generateDemo({ orders: 20_000, now: NOW }));
  for (const orders of SIZES) {
    const started = performance.now();
    const totals = summariseDemo(generateDemo({ orders, now: NOW }));
    const ms = performance.now() - started;
    const rows = totals.customers.rows + totals.products.rows + totals.orders.rows + totals.order_items.rows;
    lines.push(`  generate ${fmt(orders).padStart(9)} orders  ${seconds(ms)}   ${fmt(rows)} rows, ${fmt(Math.round(rows / (ms / 1000)))} rows/s`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'demo-bench-'));
  try {
    for (const orders of SIZES) {
      const file = path.join(dir, `demo-${orders}.duckdb`);
      const { elapsedMs, counts } = await loadDuckDb(file, { orders, now: NOW });
      const size = (await stat(file)).size;
      lines.push(
        `  DuckDB   ${fmt(orders).padStart(9)} orders  ${seconds(elapsedMs)}   ${fmt(counts.order_items)} items, file ${(size / 1e6).toFixed(0)} MB`,
      );
      await rm(file, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
}
