import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLargeModel } from '../../../bench/cml-bench.js';
import { compileModel, formatDiagnostic, validateDirectory } from './index.js';
import { at, positions, shop } from './test-helpers.js';

function compileOk(source: string) {
  const result = compileModel([{ path: 'model.cml', content: source }]);
  expect(result.diagnostics).toEqual([]);
  return result.model!;
}

describe('compileModel: the linked model', () => {
  it('fills defaults: labels from names, empty descriptions, `${TABLE}.<name>` for dimensions', () => {
    const model = compileOk(shop());
    const orders = model.nodes.get('orders')!;
    expect(orders).toMatchObject({ label: 'Orders', description: '', connection: 'warehouse', source: { kind: 'table', table: 'shop.orders' }, tags: [], file: 'model.cml' });
    expect(orders.domain).toBeUndefined();
    const customerId = orders.dimensions.get('customer_id')!;
    expect(customerId).toMatchObject({ label: 'Customer id', description: '', type: 'number', hidden: true, primaryKey: false });
    expect(customerId.sql).toEqual([
      { kind: 'table', node: 'orders' },
      { kind: 'text', text: '.customer_id' },
    ]);
    expect(orders.measures.get('order_count')).toMatchObject({ label: 'Order count', type: 'count', hidden: false });
    expect(orders.measures.get('order_count')!.sql).toBeUndefined();
    expect([...orders.dimensions.keys()]).toEqual(['id', 'customer_id', 'status', 'amount', 'created_at']);
  });

  it('resolves references into template parts and copies text verbatim', () => {
    const model = compileOk(
      shop(
        `dimension region { type: string  label: "Ship region"  sql: upper(\${TABLE}.ship_region) }
  measure completed {
    type: sum  format: currency
    description: "Completed only."
    sql: \${amount}
    filter: \${status} = 'completed'   # comment is not SQL
  }
  measure per_order { type: number  sql: \${completed} / nullif(\${orders.order_count}, 0) }`,
      ),
    );
    const orders = model.nodes.get('orders')!;
    expect(orders.dimensions.get('region')!.sql).toEqual([
      { kind: 'text', text: 'upper(' },
      { kind: 'table', node: 'orders' },
      { kind: 'text', text: '.ship_region)' },
    ]);
    expect(orders.measures.get('completed')).toMatchObject({
      label: 'Completed',
      description: 'Completed only.',
      format: 'currency',
      sql: [{ kind: 'dimension', node: 'orders', name: 'amount' }],
      filter: [
        { kind: 'dimension', node: 'orders', name: 'status' },
        { kind: 'text', text: " = 'completed'" },
      ],
    });
    expect(orders.measures.get('per_order')!.sql).toEqual([
      { kind: 'measure', node: 'orders', name: 'completed' },
      { kind: 'text', text: ' / nullif(' },
      { kind: 'measure', node: 'orders', name: 'order_count' },
      { kind: 'text', text: ', 0)' },
    ]);
    expect(orders.joins).toEqual([
      {
        from: 'orders',
        to: 'customers',
        relationship: 'many_to_one',
        on: [
          { kind: 'dimension', node: 'orders', name: 'customer_id' },
          { kind: 'text', text: ' = ' },
          { kind: 'dimension', node: 'customers', name: 'id' },
        ],
        span: { file: 'model.cml', ...at(shop(), 'join'), endLine: at(shop(), 'join').line, endColumn: shop().split('\n')[at(shop(), 'join').line - 1]!.length + 1 },
      },
    ]);
  });

  it('takes a node source from triple-quoted SQL as written, trimmed', () => {
    const model = compileOk(shop('', 'node recent {\n  connection: warehouse\n  sql: """\n    select * from shop.orders\n    where created_at > now() - interval \'7 days\'\n  """\n}'));
    expect(model.nodes.get('recent')!.source).toEqual({ kind: 'sql', sql: "select * from shop.orders\n    where created_at > now() - interval '7 days'" });
  });

  it('links reveals: metrics by measure or expr, metrics before measures in expr, formats inherited', () => {
    const model = compileOk(
      shop(
        'measure total { type: sum  format: currency  sql: ${amount} }',
        `reveal sales {
  domain: commerce
  description: """
    Sales of the shop.
  """
  base: orders
  time: created_at
  metric revenue { unit: dollars  synonyms: [turnover, "chiffre d'affaires"]  measure: total }
  metric order_count { label: "Orders"  measure: orders.order_count }
  metric customers { unit: count  measure: customers.customer_count }
  metric aov { unit: dollars  format: currency  expr: \${revenue} / nullif(\${order_count}, 0) + 0 * \${orders.revenue} }
}`,
      ),
    );
    const sales = model.reveals.get('sales')!;
    expect(sales).toMatchObject({ name: 'sales', domain: 'commerce', label: 'Sales', description: 'Sales of the shop.', base: 'orders', time: { node: 'orders', dimension: 'created_at' }, file: 'model.cml' });
    expect([...sales.metrics.keys()]).toEqual(['revenue', 'order_count', 'customers', 'aov']);
    expect(sales.metrics.get('revenue')).toMatchObject({ reveal: 'sales', label: 'Revenue', description: '', unit: 'dollars', synonyms: ['turnover', "chiffre d'affaires"], format: 'currency', measure: { node: 'orders', name: 'total' } });
    expect(sales.metrics.get('order_count')).toMatchObject({ label: 'Orders', unit: '', synonyms: [], measure: { node: 'orders', name: 'order_count' } });
    expect(sales.metrics.get('order_count')!.format).toBeUndefined();
    expect(sales.metrics.get('customers')!.measure).toEqual({ node: 'customers', name: 'customer_count' });
    expect(sales.metrics.get('aov')!.expr).toEqual([
      { kind: 'metric', reveal: 'sales', name: 'revenue' },
      { kind: 'text', text: ' / nullif(' },
      { kind: 'metric', reveal: 'sales', name: 'order_count' },
      { kind: 'text', text: ', 0) + 0 * ' },
      { kind: 'measure', node: 'orders', name: 'revenue' },
    ]);
    expect(sales.metrics.get('aov')!.measure).toBeUndefined();
  });

  it('links across files in any order', () => {
    const result = compileModel([
      { path: 'reveals.cml', content: 'reveal r { domain: d  base: orders\n  metric m { measure: customers.customer_count } }' },
      { path: 'shop.cml', content: shop() },
    ]);
    expect(result.diagnostics).toEqual([]);
    expect(result.model!.reveals.get('r')!.file).toBe('reveals.cml');
    expect(result.model!.nodes.get('orders')!.file).toBe('shop.cml');
  });

  it('gives model objects the span of their declaration', () => {
    const source = shop();
    const model = compileOk(source);
    expect(model.nodes.get('customers')!.span).toEqual({ file: 'model.cml', line: 1, column: 1, endLine: 8, endColumn: 2 });
    expect(model.nodes.get('orders')!.dimensions.get('status')!.span).toMatchObject({ ...at(source, 'dimension status'), endLine: at(source, 'dimension status').line });
  });

  it('still checks a duplicate node, so its own mistakes show at once', () => {
    const source = shop('', 'node orders { connection: warehouse  table: t\n  dimension x { type: strng }\n}');
    expect(positions(compileModel([{ path: 'model.cml', content: source }]).diagnostics)).toEqual([
      { code: 'CML201', ...at(source, 'node |orders { connection: warehouse  table: t') },
      { code: 'CML103', ...at(source, 'strng') },
    ]);
  });

  it('leaves the model out exactly when there is an error', () => {
    const bad = compileModel([{ path: 'model.cml', content: shop('dimension x { type: nope }') }]);
    expect(bad.model).toBeUndefined();
    expect(bad.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    expect(compileModel([]).model).toEqual({ nodes: new Map(), reveals: new Map() });
  });

  it('reports nothing for joins whose fan-out no metric crosses', () => {
    const source = shop(
      'join items { relationship: one_to_many  on: ${orders.id} = ${items.order_id} }',
      'node items { connection: warehouse  table: t\n  dimension order_id { type: number }\n  measure n { type: count }\n}\nreveal r { domain: d  base: orders\n  metric items { measure: items.n } }',
    );
    expect(compileModel([{ path: 'model.cml', content: source }]).diagnostics).toEqual([]);
  });

  it('compiles the generated 1,000-node benchmark model without a diagnostic', () => {
    const result = compileModel(generateLargeModel(1000));
    expect(result.diagnostics).toEqual([]);
    expect(result.model!.nodes.size).toBe(1000);
    expect(result.model!.reveals.size).toBe(100);
  });
});

describe('formatDiagnostic', () => {
  it('prints file:line:col: severity CODE message', () => {
    const [d] = compileModel([{ path: 'dir/a.cml', content: 'node a { connection: w  table: t  colour: red }' }]).diagnostics;
    expect(formatDiagnostic(d!)).toBe('dir/a.cml:1:35: error CML101 unknown property `colour` in a node');
  });
});

describe('validateDirectory', () => {
  it('reads *.cml files recursively with paths relative to the directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cml-'));
    try {
      await mkdir(path.join(dir, 'nodes', 'shop'), { recursive: true });
      await writeFile(path.join(dir, 'nodes', 'shop', 'shop.cml'), shop());
      await writeFile(path.join(dir, 'reveals.cml'), 'reveal r { domain: d  base: ordrs }');
      await writeFile(path.join(dir, 'notes.md'), 'node ignored {');
      const result = await validateDirectory(dir);
      expect(result.files.map((f) => f.path)).toEqual(['nodes/shop/shop.cml', 'reveals.cml']);
      expect(result.model).toBeUndefined();
      expect(result.diagnostics.map((d) => [d.file, d.code, d.line, d.column])).toEqual([['reveals.cml', 'CML301', 1, 29]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
