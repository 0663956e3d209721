// The CML builder's comparisons, percents of total and ratios (POST /api/studio/query/cml with compare,
// shares, per): asked of the reveal's base node with each metric as its measure, so every figure is the
// one POST /api/query answers for those measures, under the metrics' names, with the asker's data keys.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../src/core/cml/index.js';
import { revealAsNodeQuery } from '../src/core/semantic/reveal-composed.js';
import { DEMO_MODEL_DIR, readModelDir, setUpDemo } from '../src/demo-setup.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-cml-composed-'));
let t: TestApp;
let ws: SeededWorkspace;
let luminary: string;
let tracer: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  // The tracer may see Europe only; the luminary got region = * from the demo setup.
  await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: 'Europe' }) }).where('user_id', '=', ws.members.tracer.id).execute();
  luminary = await signIn(t.app, lum.email);
  tracer = await signIn(t.app, ws.members.tracer.email);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (url: string, payload: unknown, cookie: string) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

type Row = Record<string, unknown>;
/** A row with its keys renamed: measure ids → metric names. */
const renamed = (row: Row, names: Record<string, string>) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [Object.entries(names).reduce((k, [from, to]) => (k === from || k.startsWith(`${from}.`) ? to + k.slice(from.length) : k), key), value]));

describe('compare', () => {
  const range = ['2026-04-01', '2026-06-01'];

  it("answers each metric's comparison, change and change % as /api/query answers its measure's, for each asker's data keys", async () => {
    for (const cookie of [luminary, tracer]) {
      const cml = await post('/api/studio/query/cml', { reveal: 'sales', dimensions: ['channel'], measures: ['revenue', 'orders'], compare: { dimension: 'created_at', range, to: 'previous_year' } }, cookie);
      expect(cml.statusCode, cml.body).toBe(200);
      const node = (await post('/api/query', { node: 'orders', dimensions: ['channel'], measures: ['completed_revenue', 'order_count'], compare: { dimension: 'created_at', range, to: 'previous_year' } }, cookie)).json();
      const body = cml.json();
      expect(body.result.rows).toEqual(node.data.map((row: Row) => renamed(row, { completed_revenue: 'revenue', order_count: 'orders' })));
      expect(body.result.rows.length).toBeGreaterThan(0);
      expect(body.columns.map((c: { key: string }) => c.key)).toEqual([
        'channel', 'revenue', 'revenue.comparison', 'revenue.change', 'revenue.change_percent', 'orders', 'orders.comparison', 'orders.change', 'orders.change_percent', 'created_at.partial',
      ]);
      expect(body.columns.find((c: { key: string }) => c.key === 'orders.change')).toMatchObject({ kind: 'change', measure: 'orders', description: 'orders − orders.comparison; null when either is null' });
      expect(body).toMatchObject({ reveal: 'sales', base: 'orders', time: 'created_at', comparison: { to: 'previous_year', range: ['2026-04-01T00:00:00.000', '2026-06-01T00:00:00.000'], comparison_range: ['2025-04-01T00:00:00.000', '2025-06-01T00:00:00.000'] } });
    }
    const orders = async (cookie: string) => (await post('/api/studio/query/cml', { reveal: 'sales', measures: ['orders'], compare: { dimension: 'created_at', range } }, cookie)).json().result.rows[0].orders;
    expect(await orders(tracer)).toBeLessThan(await orders(luminary));
  });

  it('sorts by a computed key named after its metric, and previews the statements without running them', async () => {
    const ask = { reveal: 'sales', dimensions: ['channel'], measures: ['orders'], compare: { dimension: 'created_at', range }, sorts: [{ field: 'orders.change', direction: 'desc' }] };
    const rows = (await post('/api/studio/query/cml', ask, luminary)).json().result.rows as Row[];
    const changes = rows.map((r) => r['orders.change'] as number);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    const preview = (await post('/api/studio/query/cml', { ...ask, run: false }, luminary)).json();
    expect(preview.result).toBeNull();
    expect(preview.sql.split(';\n\n')).toHaveLength(2); // the current period and the comparison
    expect(preview.columns.map((c: { key: string }) => c.key)).toContain('orders.change_percent');
  });
});

describe('shares and ratios', () => {
  it('answers a metric as a share of the total (adding up to 1) and a ratio of two metrics, by their names', async () => {
    const body = (await post('/api/studio/query/cml', { reveal: 'sales', dimensions: ['channel'], measures: ['orders'], shares: [{ measure: 'orders' }], per: [{ measure: 'gross_revenue', by: 'orders' }] }, luminary)).json();
    expect(body.columns.map((c: { key: string; format?: string }) => [c.key, c.format])).toEqual([['channel', undefined], ['orders', undefined], ['orders.share', 'percent'], ['gross_revenue.per.orders', undefined]]);
    const rows = body.result.rows as Array<{ orders: number; 'orders.share': number; 'gross_revenue.per.orders': number; channel: string }>;
    expect(rows.reduce((sum, r) => sum + r['orders.share'], 0)).toBeCloseTo(1, 10);
    const revenue = (await post('/api/query', { node: 'orders', dimensions: ['channel'], measures: ['gross_revenue', 'order_count'] }, luminary)).json().data as Row[];
    for (const row of rows) {
      const same = revenue.find((r) => r.channel === row.channel)!;
      expect(row['gross_revenue.per.orders']).toBeCloseTo((same.gross_revenue as number) / (same.order_count as number), 6);
    }
  });
});

describe('refusals', () => {
  it('refuses a metric computed from other metrics, naming the metrics that can be compared', async () => {
    const response = await post('/api/studio/query/cml', { reveal: 'sales', measures: ['average_order_value'], compare: { dimension: 'created_at', range: ['2026-04-01', '2026-05-01'] } }, luminary);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_compare', error: expect.stringMatching(/^Metric average_order_value is computed from other metrics: .*\(revenue, gross_revenue, orders/) });
    const unknown = await post('/api/studio/query/cml', { reveal: 'sales', measures: ['orders'], shares: [{ measure: 'profit' }] }, luminary);
    expect([unknown.statusCode, unknown.json().error]).toEqual([400, expect.stringMatching(/Unknown metric "profit" in reveal sales/)]);
    const outside = await post('/api/studio/query/cml', { reveal: 'sales', measures: ['orders'], shares: [{ measure: 'orders', of: ['status'] }] }, luminary);
    expect([outside.statusCode, outside.json().code]).toEqual([400, 'invalid_share']);
  });
});

describe('revealAsNodeQuery', () => {
  it('reads a metric of a joined node through its join, and refuses two metrics of one measure', async () => {
    const extra = `reveal twins {
  domain: commerce
  base: orders
  metric orders { measure: orders.order_count }
  metric order_total { measure: orders.order_count }
  metric customers { measure: customers.customer_count }
}
`;
    const model = compileModel([...(await readModelDir(DEMO_MODEL_DIR)), { path: 'twins.cml', content: extra }]).model!;
    const base = { reveal: 'twins', dimensions: [], filters: [], sorts: [] };
    const asked = revealAsNodeQuery(model, { ...base, metrics: ['orders', 'customers'], shares: [{ measure: 'customers', of: [] }] });
    expect(asked.query).toMatchObject({ node: 'orders', measures: ['order_count', 'customers.customer_count'], shares: [{ measure: 'customers.customer_count', of: [] }] });
    expect(asked.row({ order_count: 1, 'customers.customer_count': 2, 'customers.customer_count.share': 1 })).toEqual({ orders: 1, customers: 2, 'customers.share': 1 });
    expect(() => revealAsNodeQuery(model, { ...base, metrics: ['orders', 'order_total'], compare: { dimension: 'created_at', range: ['2026-01-01', '2026-02-01'], to: 'previous_period' } })).toThrow(
      /Metrics orders and order_total are the same measure \(order_count\)/,
    );
  });
});
