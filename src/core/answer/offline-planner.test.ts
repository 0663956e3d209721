import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../demo-setup.js';
import { buildCatalogIndex, type CatalogIndex } from './catalog-index.js';
import { planOffline } from './offline-planner.js';

const SALES_VALUES = new Map<string, readonly string[]>([
  ['status', ['completed', 'pending', 'cancelled', 'refunded']],
  ['channel', ['web', 'mobile', 'marketplace']],
  ['ship_region', ['North America', 'Europe']],
  ['customers.segment', ['consumer', 'small_business', 'enterprise']],
]);
const values = (reveal: string) => (reveal === 'sales' ? SALES_VALUES : new Map<string, readonly string[]>());

describe('planOffline', () => {
  let index: CatalogIndex;
  beforeAll(async () => {
    index = buildCatalogIndex(compileModel(await readModelDir(DEMO_MODEL_DIR)).model!);
  });

  it('indexes joined dimensions with their path and skips hidden ones', () => {
    const sales = index.reveals.find((reveal) => reveal.name === 'sales')!;
    const fields = sales.dimensions.map((dimension) => dimension.field);
    expect(fields).toContain('customers.segment');
    expect(fields).not.toContain('amount');
    expect(sales.timeField).toBe('created_at');
  });

  it('reads a metric word before a dimension as a qualifier: "by sales channel" is by channel', () => {
    expect(planOffline('revenue split by sales channel', index, { values })).toMatchObject({ kind: 'governed', metrics: ['revenue'], dimensions: ['channel'] });
    expect(planOffline('top 5 regions by revenue', index, { values })).toMatchObject({ kind: 'governed', metrics: ['revenue'], dimensions: ['ship_region'] });
  });

  it('never silently drops a dimension the question names outside a breakdown', () => {
    const plan = planOffline('revenue channel', index, { values });
    expect(plan).toMatchObject({ kind: 'no_match', reason: "The question names \"channel\" without saying how to use it; to break Revenue down, ask 'by channel'." });
    // Naming a filter's field is fine: "the marketplace channel" is the filter.
    expect(planOffline('orders from the marketplace channel', index, { values })).toMatchObject({ kind: 'governed', filters: [{ field: 'channel', value: 'marketplace' }] });
  });

  it('plans a metric with a breakdown, a value filter and a top N', () => {
    expect(planOffline('top 3 channels by revenue in Europe', index, { values })).toEqual({
      kind: 'governed',
      reveal: 'sales',
      metrics: ['revenue'],
      dimensions: ['channel'],
      filters: [{ field: 'ship_region', operator: 'equals', value: 'Europe' }],
      sort: { field: 'revenue', direction: 'desc' },
      limit: 3,
      matchedBy: 'name',
    });
  });

  it('lets metric words win over values: "completed orders" is a metric, not a filter', () => {
    const plan = planOffline('completed orders', index, { values });
    expect(plan).toMatchObject({ kind: 'governed', metrics: ['completed_orders'], filters: [] });
  });

  it('declines a description-only match, suggesting the metric by name', () => {
    const plan = planOffline('how much was paid', index);
    expect(plan).toMatchObject({ kind: 'no_match' });
    expect(plan.kind === 'no_match' && plan.closest[0]).toMatchObject({ metric: 'revenue' });
    expect(plan.kind === 'no_match' && plan.reason).toMatch(/Revenue \(sales\) was recognised only from its description/);
  });

  it('refuses questions whose important words nothing governed explains, naming them', () => {
    const plan = planOffline('churn rate by cohort', index, { values });
    expect(plan.kind).toBe('no_match');
    if (plan.kind !== 'no_match') return;
    expect(plan.reason).toContain('churn');
    expect(plan.closest).toHaveLength(3);
    expect(plan.closest[0]!.metric).toBe('cancellation_rate');
  });

  it('names both metrics when the question is ambiguous', () => {
    const plan = planOffline('business', index);
    expect(plan.kind).toBe('no_match');
    if (plan.kind === 'no_match') expect(plan.reason).toMatch(/Business customers.*Business share|Business share.*Business customers/);
  });

  it('refuses a breakdown the reveal cannot do', () => {
    expect(planOffline('customers by channel', index).kind).toBe('no_match');
  });

  it('keeps to the requested domain', () => {
    expect(planOffline('revenue', index, { domain: 'finance' }).kind).toBe('no_match');
    expect(planOffline('revenue', index, { domain: 'commerce' }).kind).toBe('governed');
  });
});
