// Random semantic queries over the demo model, for the differential tests:
// - REFERENCE_QUERY draws from fields and filters the reference computes (each filter carries its
//   meaning as a hand-written predicate), so each engine is checked against the reference;
// - WIDE_QUERY draws filters with random operands from the whole operator catalogue, nested in and/or
//   groups, where the only oracle is the other engines: a test of the dialects agreeing at edges
//   (bounds, escapes, zones) that no hand-picked case names.
import fc from 'fast-check';
import { ORDER_STATUSES } from '../../src/core/demo/index.js';
import type { Filter } from '../../src/core/semantic/query.js';
import type { JoinedRow } from './reference.js';

export const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/Sao_Paulo', 'Asia/Kolkata'] as const;
export const REGIONS = ['*', 'Europe', 'North America'] as const;

const REFERENCE_DIMENSIONS = ['status', 'channel', 'region', 'customers.segment', 'customers.region', 'products.category', 'created_at.month', 'created_at.day_of_week'];
const REFERENCE_MEASURES = [
  'order_count',
  'revenue',
  'completed_revenue',
  'buyers',
  'avg_order_value',
  'revenue_per_order',
  'completed_share',
  'revenue_per_completed_order',
  'customers.customer_count',
  'order_items.units',
  'order_items.line_count',
  'order_items.units_per_line',
];

interface ReferenceFilter {
  readonly filter: Filter;
  readonly where?: (row: JoinedRow) => boolean;
  readonly having?: (measure: (id: string) => unknown) => boolean;
}

const REFERENCE_FILTERS: readonly ReferenceFilter[] = [
  { filter: { field: 'status', operator: 'in', value: ['completed', 'refunded'] }, where: (r) => ['completed', 'refunded'].includes(r.order.status) },
  { filter: { field: 'channel', operator: 'notEquals', value: 'web' }, where: (r) => r.order.channel !== 'web' },
  { filter: { field: 'created_at', operator: 'after', value: '2024-06-30' }, where: (r) => r.wall >= '2024-07-01' },
  { filter: { field: 'created_at', operator: 'inDateRange', value: ['2024-03-31', '2024-10-27'] }, where: (r) => r.wall >= '2024-03-31' && r.wall < '2024-10-28' },
  { filter: { field: 'customers.segment', operator: 'equals', value: 'consumer' }, where: (r) => r.customer.segment === 'consumer' },
  {
    filter: { or: [{ field: 'customers.region', operator: 'equals', value: 'Europe' }, { field: 'id', operator: 'lt', value: 500 }] },
    where: (r) => r.customer.region === 'Europe' || r.order.id < 500,
  },
  { filter: { field: 'order_count', operator: 'gt', value: 5 }, having: (m) => Number(m('order_count')) > 5 },
  { filter: { not: { field: 'channel', operator: 'startsWith', value: 'mob' } }, where: (r) => !r.order.channel.startsWith('mob') },
  { filter: { field: 'completed_share', operator: 'lt', value: 0.5 }, having: (m) => m('completed_share') !== null && Number(m('completed_share')) < 0.5 },
];

export const REFERENCE_QUERY = fc.record({
  dimensions: fc.subarray(REFERENCE_DIMENSIONS, { maxLength: 3 }),
  measures: fc.subarray(REFERENCE_MEASURES, { minLength: 1, maxLength: 3 }),
  filters: fc.subarray([...REFERENCE_FILTERS], { maxLength: 2 }),
  timezone: fc.constantFrom(...TIMEZONES),
  region: fc.constantFrom(...REGIONS),
});

// ---- the wide space ---------------------------------------------------------------------------

const WIDE_DIMENSIONS = [
  ...REFERENCE_DIMENSIONS,
  'customers.name',
  'created_at.week',
  'created_at.quarter',
  'created_at.hour',
  'created_at.week_of_year',
  'created_at.day_of_year',
  // Not is_completed: MySQL has no boolean type and answers a boolean dimension as 0/1 where the other
  // engines answer false/true (filters on it agree, and are drawn below).
];
const WIDE_MEASURES = [...REFERENCE_MEASURES, 'first_order_at', 'order_items.item_revenue', 'products.product_count'];

const instant = fc.date({ min: new Date('2023-05-01T00:00:00Z'), max: new Date('2025-07-01T00:00:00Z'), noInvalidDate: true });
/** A date, a local date-time or an instant with an offset, as a user may write one. */
const timeValue = fc.oneof(
  instant.map((d) => d.toISOString().slice(0, 10)),
  instant.map((d) => d.toISOString().slice(0, 19)),
  instant.map((d) => d.toISOString().slice(0, 16).replace('T', ' ')),
  fc.tuple(instant, fc.constantFrom('Z', '+05:30', '-03:00')).map(([d, offset]) => `${d.toISOString().slice(0, 19)}${offset}`),
);
/** Short text with LIKE's special characters and the escape character among ordinary letters. */
const fragment = fc.string({ unit: fc.constantFrom('a', 'e', 'n', 'o', 'w', 'b', 'p', 'A', '%', '_', '!', ' ', "'"), maxLength: 3 });
const orderId = fc.integer({ min: -5, max: 3_100 });
const period = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('day', 'week', 'month', 'quarter', 'year')).map(([n, unit]) => `${n} ${unit}s`);

const leaf: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ field: fc.constant('status'), operator: fc.constantFrom('equals', 'notEquals', 'in', 'notIn'), value: fc.subarray([...ORDER_STATUSES], { minLength: 1 }) }),
  fc.record({
    field: fc.constantFrom('channel', 'customers.name', 'customers.segment'),
    operator: fc.constantFrom('contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith'),
    value: fragment,
  }),
  fc.record({ field: fc.constant('id'), operator: fc.constantFrom('gt', 'gte', 'lt', 'lte', '=', '!='), value: orderId }),
  fc.record({ field: fc.constant('id'), operator: fc.constantFrom('between', 'notBetween'), value: fc.tuple(orderId, orderId) }),
  fc.record({ field: fc.constant('created_at'), operator: fc.constantFrom('before', 'after', 'onOrBefore', 'onOrAfter'), value: timeValue }),
  fc.record({ field: fc.constant('created_at'), operator: fc.constantFrom('inDateRange', 'notInDateRange'), value: fc.tuple(timeValue, timeValue) }),
  fc.record({ field: fc.constant('created_at'), operator: fc.constantFrom('inThePast', 'notInThePast'), value: period }),
  fc.record({ field: fc.constant('created_at'), operator: fc.constantFrom('inTheCurrent', 'notInTheCurrent'), value: fc.constantFrom('day', 'week', 'month', 'quarter', 'year') }),
  fc.record({ field: fc.constant('created_at.day_of_week'), operator: fc.constantFrom('gt', 'lte'), value: fc.integer({ min: 1, max: 7 }) }),
  fc.record({ field: fc.constant('created_at.day_of_week'), operator: fc.constant('between'), value: fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 })) }),
  fc.record({ field: fc.constant('created_at.month'), operator: fc.constantFrom('before', 'onOrAfter'), value: timeValue }),
  fc.record({ field: fc.constant('customers.region'), operator: fc.constantFrom('isNull', 'notNull') }),
  fc.record({ field: fc.constant('is_completed'), operator: fc.constantFrom('equals', 'notEquals'), value: fc.boolean() }),
);

/** Dimension filters, alone or nested one or two levels in and/or/not groups. */
const dimensionFilter: fc.Arbitrary<Filter> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { minLength: 1, maxLength: 3 }).map((or) => ({ or })) },
  { weight: 1, arbitrary: fc.tuple(leaf, fc.array(leaf, { minLength: 2, maxLength: 2 })).map(([first, or]) => ({ and: [first, { or }] })) },
  { weight: 1, arbitrary: fc.array(leaf, { minLength: 1, maxLength: 2 }).map((and) => ({ not: { and } })) },
);

const measureFilter: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ field: fc.constant('revenue'), operator: fc.constantFrom('gt', 'lt'), value: fc.integer({ min: 0, max: 200_000 }) }),
  fc.record({ field: fc.constant('revenue_per_completed_order'), operator: fc.constantFrom('gt', 'lt'), value: fc.integer({ min: 0, max: 500 }) }).map((not) => ({ not })),
  fc.record({ field: fc.constant('order_count'), operator: fc.constant('between'), value: fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2_000 })) }),
);

export const WIDE_QUERY = fc.record({
  dimensions: fc.subarray(WIDE_DIMENSIONS, { maxLength: 3 }),
  measures: fc.subarray(WIDE_MEASURES, { minLength: 1, maxLength: 3 }),
  filters: fc.tuple(fc.array(dimensionFilter, { maxLength: 2 }), fc.array(measureFilter, { maxLength: 1 })).map(([d, m]) => [...d, ...m]),
  timezone: fc.constantFrom(...TIMEZONES),
  region: fc.constantFrom(...REGIONS),
});
