// Reveal queries on the demo model: metrics by measure and by expression (metrics over metrics),
// compiled for DuckDB and run on the generated warehouse.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { loadDuckDb } from '../../src/core/demo/index.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { compileRevealQuery, metricTemplate, type RevealQuery } from '../../src/core/semantic/reveal.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { openWarehouse, type Warehouse } from '../../src/core/warehouse/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';

const NOW = new Date('2025-06-18T10:00:00Z');
let model: SemanticModel;
let warehouse: Warehouse;
const dir = mkdtempSync(path.join(tmpdir(), 'svc-reveal-'));

beforeAll(async () => {
  model = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
  await loadDuckDb(path.join(dir, 'demo.duckdb'), { orders: 2000, now: NOW });
  warehouse = openWarehouse({ engine: 'duckdb', path: path.join(dir, 'demo.duckdb') });
});
afterAll(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(query: Partial<RevealQuery> & { reveal: string }, attributes: Record<string, string> = { region: '*' }) {
  const compiled = compileRevealQuery(model, { metrics: [], dimensions: [], filters: [], sorts: [], ...query }, { dialect: DIALECTS.duckdb, attributes, now: NOW });
  return (await warehouse.run(compiled.sql, compiled.params, { maxRows: 1000, timeoutMs: 10_000 })).rows;
}

describe('reveal queries', () => {
  it('inline metrics used by an expression metric', () => {
    const template = metricTemplate(model.reveals.get('sales')!, 'average_order_value');
    expect(template.filter((p) => p.kind === 'measure').length).toBeGreaterThanOrEqual(2);
    expect(template.some((p) => p.kind === 'metric')).toBe(false);
  });

  it('compute an expression metric as its parts computed separately', async () => {
    const rows = await run({ reveal: 'sales', dimensions: ['channel'], metrics: ['revenue', 'completed_orders', 'average_order_value'] });
    expect(rows.length).toBe(3);
    for (const row of rows) {
      expect(row.average_order_value as number).toBeCloseTo((row.revenue as number) / (row.completed_orders as number), 6);
    }
  });

  it('apply data keys to reveal queries too', async () => {
    const [all] = await run({ reveal: 'sales', metrics: ['orders'] });
    const [europe] = await run({ reveal: 'sales', metrics: ['orders'] }, { region: 'Europe' });
    const [none] = await run({ reveal: 'sales', metrics: ['orders'] }, {});
    expect(all!.orders).toBe(2000);
    expect(europe!.orders as number).toBeLessThan(2000);
    expect(none!.orders).toBe(0);
  });

  it('refuse unknown reveals, domains and metrics by name', () => {
    expect(() => compileRevealQuery(model, { reveal: 'sales', domain: 'finance', metrics: ['revenue'], dimensions: [], filters: [], sorts: [] }, { dialect: DIALECTS.duckdb, attributes: {}, now: NOW })).toThrow(
      /Unknown reveal "sales" in domain "finance"/,
    );
    expect(() => compileRevealQuery(model, { reveal: 'sales', metrics: ['profit'], dimensions: [], filters: [], sorts: [] }, { dialect: DIALECTS.duckdb, attributes: {}, now: NOW })).toThrow(
      /Unknown metric "profit" in reveal sales; metrics: revenue, gross_revenue/,
    );
  });
});
