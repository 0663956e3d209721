// Representative semantic queries over the demo model, shared by the golden SQL tests and the engine tests.
import type { SemanticQueryInput } from '../../src/core/semantic/query.js';

export const GOLDEN_QUERIES: Record<string, SemanticQueryInput> = {
  revenue_total: { node: 'orders', measures: ['revenue', 'order_count'] },
  revenue_by_status: { node: 'orders', dimensions: ['status'], measures: ['revenue', 'completed_revenue', 'revenue_per_order'] },
  revenue_by_month_paris: {
    node: 'orders',
    dimensions: ['created_at.month'],
    measures: ['revenue'],
    filters: [{ field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-06-30'] }],
    timezone: 'Europe/Paris',
  },
  customers_region_join: {
    node: 'orders',
    dimensions: ['customers.segment', 'channel'],
    measures: ['buyers', 'avg_order_value'],
    filters: [
      { field: 'status', operator: 'in', value: ['completed', 'refunded'] },
      { field: 'customers.name', operator: 'contains', value: 'an' },
    ],
    sorts: [{ field: 'buyers', direction: 'desc' }],
    limit: 10,
  },
  having_and_or: {
    node: 'orders',
    dimensions: ['region'],
    measures: ['order_count'],
    filters: [
      { or: [{ field: 'channel', operator: 'equals', value: 'web' }, { field: 'channel', operator: '=', value: 'mobile' }] },
      { field: 'revenue', operator: 'gt', value: 1000 },
    ],
  },
  fan_out_units_by_status: { node: 'orders', dimensions: ['status'], measures: ['revenue', 'order_items.units'] },
  date_parts: { node: 'orders', dimensions: ['created_at.day_of_week', 'created_at.quarter_of_year'], measures: ['order_count'] },
  ratios_by_status: { node: 'orders', dimensions: ['status'], measures: ['order_count', 'completed_orders', 'completed_share', 'revenue_per_completed_order'] },
  ratio_across_fan_out: { node: 'orders', dimensions: ['channel'], measures: ['revenue_per_completed_order', 'order_items.units_per_line'] },
  not_filters: {
    node: 'orders',
    dimensions: ['channel'],
    measures: ['order_count', 'revenue'],
    filters: [
      { not: { or: [{ field: 'status', operator: 'equals', value: 'cancelled' }, { field: 'customers.name', operator: 'startsWith', value: 'a' }] } },
      { field: 'channel', operator: 'notEndsWith', value: 'place' },
      { field: 'created_at', operator: 'notInThePast', value: '1 year' },
      { not: { field: 'revenue', operator: 'gt', value: 50_000 } },
    ],
  },
};
