// The demo project's model (demo/model) must compile without a single diagnostic and cover what the
// demo relies on: the four shop tables, their joins, the region data key and two governed reveals.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, formatDiagnostic, validateDirectory } from './index.js';

const DEMO_DIR = path.resolve(import.meta.dirname, '../../../demo/model');

describe('demo model', async () => {
  const { files, model, diagnostics } = await validateDirectory(DEMO_DIR);

  it('compiles with no errors and no warnings', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(model).toBeDefined();
  });

  it('has the shop nodes on the warehouse connection, joined as the schema relates them', () => {
    const nodes = model!.nodes;
    for (const name of ['customers', 'products', 'orders', 'order_items']) {
      expect(nodes.get(name)?.connection, name).toBe('warehouse');
      expect(nodes.get(name)?.source, name).toEqual({ kind: 'table', table: `shop.${name}` });
    }
    const joins = [...nodes.values()].flatMap((n) => n.joins.map((j) => `${j.from} ${j.relationship} ${j.to}`));
    expect(joins).toEqual(expect.arrayContaining(['orders many_to_one customers', 'order_items many_to_one orders', 'order_items many_to_one products']));
  });

  it('limits orders by the user region attribute on the ship_region column', () => {
    const orders = model!.nodes.get('orders')!;
    expect(orders.dataKeys).toMatchObject([{ node: 'orders', dimension: 'ship_region', attribute: 'region' }]);
    expect(orders.dimensions.get('ship_region')!.sql).toEqual([
      { kind: 'table', node: 'orders' },
      { kind: 'text', text: '.ship_region' },
    ]);
  });

  it('has the sales and customers reveals in commerce, every metric described for business users', () => {
    const reveals = model!.reveals;
    expect([...reveals.keys()].sort()).toEqual(['customers', 'sales']);
    const metrics = [...reveals.values()].flatMap((r) => [...r.metrics.values()]);
    expect(metrics.length).toBeGreaterThanOrEqual(10);
    for (const reveal of reveals.values()) {
      expect(reveal.domain).toBe('commerce');
      expect(reveal.time).toBeDefined();
    }
    for (const metric of metrics) {
      expect(metric.label, metric.name).not.toBe('');
      expect(metric.description, metric.name).not.toBe('');
      expect(metric.unit, metric.name).not.toBe('');
      expect(metric.synonyms.length, metric.name).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('docs/cml.md', () => {
  it('opens with an example that compiles cleanly', () => {
    const docs = readFileSync(path.resolve(import.meta.dirname, '../../../docs/cml.md'), 'utf8');
    const example = /```cml\n([\s\S]*?)```/.exec(docs)![1]!;
    const result = compileModel([{ path: 'example.cml', content: example }]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(result.model!.reveals.get('sales')!.metrics.size).toBe(2);
  });
});
