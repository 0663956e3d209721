// Every filter operator, each with its meaning written out by hand as a predicate over the generated
// rows: what the reference (reference.ts) expects, independently of how any dialect renders it. The
// demo's `now` is 2025-06-18T10:00:00Z; wall times compare as text (`YYYY-MM-DD HH:mm:ss.SSS`).
import type { Filter } from '../../src/core/semantic/query.js';
import type { JoinedRow } from './reference.js';

export interface FilterCase {
  readonly name: string;
  readonly filter: Filter;
  readonly timezone?: string;
  readonly where?: (row: JoinedRow) => boolean;
  readonly having?: (measure: (id: string) => unknown) => boolean;
}

const lower = (text: string) => text.toLowerCase();
const id = (r: JoinedRow) => r.order.id;

export const FILTER_CASES: readonly FilterCase[] = [
  { name: 'status equals', filter: { field: 'status', operator: 'equals', value: 'completed' }, where: (r) => r.order.status === 'completed' },
  { name: 'status = list', filter: { field: 'status', operator: '=', value: ['completed', 'pending'] }, where: (r) => ['completed', 'pending'].includes(r.order.status) },
  { name: 'status notEquals', filter: { field: 'status', operator: 'notEquals', value: 'completed' }, where: (r) => r.order.status !== 'completed' },
  { name: 'status in', filter: { field: 'status', operator: 'in', value: ['refunded'] }, where: (r) => r.order.status === 'refunded' },
  { name: 'status notIn', filter: { field: 'status', operator: 'notIn', value: ['refunded', 'cancelled'] }, where: (r) => !['refunded', 'cancelled'].includes(r.order.status) },
  { name: 'customers.name contains (any case)', filter: { field: 'customers.name', operator: 'contains', value: 'AN' }, where: (r) => lower(r.customer.name).includes('an') },
  { name: 'customers.name notContains', filter: { field: 'customers.name', operator: 'notContains', value: 'a' }, where: (r) => !lower(r.customer.name).includes('a') },
  { name: 'customers.name contains a LIKE wildcard, literally', filter: { field: 'customers.name', operator: 'contains', value: '%' }, where: (r) => r.customer.name.includes('%') },
  { name: 'customers.name notContains a LIKE wildcard, literally', filter: { field: 'customers.name', operator: 'notContains', value: '_' }, where: (r) => !r.customer.name.includes('_') },
  { name: 'channel startsWith', filter: { field: 'channel', operator: 'startsWith', value: 'we' }, where: (r) => r.order.channel.startsWith('we') },
  { name: 'channel endsWith', filter: { field: 'channel', operator: 'endsWith', value: 'place' }, where: (r) => r.order.channel.endsWith('place') },
  { name: 'channel notStartsWith (any case)', filter: { field: 'channel', operator: 'notStartsWith', value: 'WE' }, where: (r) => !r.order.channel.startsWith('we') },
  { name: 'channel notEndsWith a list', filter: { field: 'channel', operator: 'notEndsWith', value: ['place', 'ile'] }, where: (r) => !r.order.channel.endsWith('place') && !r.order.channel.endsWith('ile') },
  { name: 'id gt', filter: { field: 'id', operator: 'gt', value: 2000 }, where: (r) => id(r) > 2000 },
  { name: 'id >=', filter: { field: 'id', operator: '>=', value: 2000 }, where: (r) => id(r) >= 2000 },
  { name: 'id lt', filter: { field: 'id', operator: 'lt', value: 100 }, where: (r) => id(r) < 100 },
  { name: 'id <=', filter: { field: 'id', operator: '<=', value: 100 }, where: (r) => id(r) <= 100 },
  { name: 'id between (both ends included)', filter: { field: 'id', operator: 'between', value: [10, 20] }, where: (r) => id(r) >= 10 && id(r) <= 20 },
  { name: 'id notBetween', filter: { field: 'id', operator: 'notBetween', value: [10, 2990] }, where: (r) => id(r) < 10 || id(r) > 2990 },
  { name: 'customers.region isNull', filter: { field: 'customers.region', operator: 'isNull' }, where: () => false },
  { name: 'customers.region notNull', filter: { field: 'customers.region', operator: 'notNull' }, where: () => true },
  { name: 'created_at before a date', filter: { field: 'created_at', operator: 'before', value: '2024-01-01' }, where: (r) => r.wall < '2024-01-01' },
  { name: 'created_at after a date (from the next day)', filter: { field: 'created_at', operator: 'after', value: '2025-06-01' }, where: (r) => r.wall >= '2025-06-02' },
  { name: 'created_at after a date-time', filter: { field: 'created_at', operator: 'after', value: '2025-06-01T12:30:00' }, where: (r) => r.wall > '2025-06-01 12:30:00.000' },
  { name: 'created_at onOrBefore a date (the whole day)', filter: { field: 'created_at', operator: 'onOrBefore', value: '2023-12-31' }, where: (r) => r.wall < '2024-01-01' },
  { name: 'created_at onOrBefore a date-time', filter: { field: 'created_at', operator: 'onOrBefore', value: '2023-12-31 08:00' }, where: (r) => r.wall <= '2023-12-31 08:00:00.000' },
  { name: 'created_at onOrAfter an instant', filter: { field: 'created_at', operator: 'onOrAfter', value: '2025-06-01T00:00:00Z' }, where: (r) => r.wall >= '2025-06-01' },
  {
    name: 'created_at inDateRange of dates (the last day included)',
    filter: { field: 'created_at', operator: 'inDateRange', value: ['2024-02-01', '2024-02-29'] },
    where: (r) => r.wall >= '2024-02-01' && r.wall < '2024-03-01',
  },
  {
    name: 'created_at inDateRange of date-times',
    filter: { field: 'created_at', operator: 'inDateRange', value: ['2024-02-01T12:00:00', '2024-02-09T06:30:00'] },
    where: (r) => r.wall >= '2024-02-01 12:00:00.000' && r.wall <= '2024-02-09 06:30:00.000',
  },
  { name: 'created_at inThePast 3 months', filter: { field: 'created_at', operator: 'inThePast', value: '3 months' }, where: (r) => r.wall >= '2025-03-01' && r.wall < '2025-06-01' },
  { name: 'created_at inThePast 10 days', filter: { field: 'created_at', operator: 'inThePast', value: '10 days' }, where: (r) => r.wall >= '2025-06-08' && r.wall < '2025-06-18' },
  { name: 'created_at inTheCurrent year', filter: { field: 'created_at', operator: 'inTheCurrent', value: 'year' }, where: (r) => r.wall >= '2025-01-01' && r.wall < '2026-01-01' },
  { name: 'created_at inTheCurrent week', filter: { field: 'created_at', operator: 'inTheCurrent', value: 'week' }, where: (r) => r.wall >= '2025-06-16' && r.wall < '2025-06-23' },
  {
    name: 'created_at notInDateRange of dates',
    filter: { field: 'created_at', operator: 'notInDateRange', value: ['2024-02-01', '2025-02-28'] },
    where: (r) => r.wall < '2024-02-01' || r.wall >= '2025-03-01',
  },
  { name: 'created_at notInThePast 3 months', filter: { field: 'created_at', operator: 'notInThePast', value: '3 months' }, where: (r) => r.wall < '2025-03-01' || r.wall >= '2025-06-01' },
  { name: 'created_at notInTheCurrent year', filter: { field: 'created_at', operator: 'notInTheCurrent', value: 'year' }, where: (r) => r.wall < '2025-01-01' },
  {
    name: 'not of an or of two fields',
    filter: { not: { or: [{ field: 'status', operator: 'equals', value: 'cancelled' }, { field: 'customers.segment', operator: 'in', value: ['enterprise'] }] } },
    where: (r) => r.order.status !== 'cancelled' && r.customer.segment !== 'enterprise',
  },
  {
    name: 'not of a time in a zone',
    filter: { not: { field: 'created_at', operator: 'onOrAfter', value: '2025-01-01' } },
    timezone: 'Asia/Kolkata',
    where: (r) => r.wall < '2025-01-01',
  },
  {
    name: 'created_at before a date, in Los Angeles',
    filter: { field: 'created_at', operator: 'before', value: '2024-01-01' },
    timezone: 'America/Los_Angeles',
    where: (r) => r.wall < '2024-01-01',
  },
  {
    name: 'created_at inDateRange, in Kolkata',
    filter: { field: 'created_at', operator: 'inDateRange', value: ['2025-03-01', '2025-03-31'] },
    timezone: 'Asia/Kolkata',
    where: (r) => r.wall >= '2025-03-01' && r.wall < '2025-04-01',
  },
  { name: 'is_completed equals', filter: { field: 'is_completed', operator: 'equals', value: true }, where: (r) => r.order.status === 'completed' },
  { name: 'revenue gt (a measure)', filter: { field: 'revenue', operator: 'gt', value: 50_000 }, having: (m) => Number(m('revenue')) > 50_000 },
  { name: 'not of a measure comparison', filter: { not: { field: 'revenue', operator: 'gt', value: 50_000 } }, having: (m) => Number(m('revenue')) <= 50_000 },
  { name: 'completed_share gt (a ratio)', filter: { field: 'completed_share', operator: 'gt', value: 0.3 }, having: (m) => Number(m('completed_share')) > 0.3 },
  { name: 'order_count between (a measure)', filter: { field: 'order_count', operator: 'between', value: [300, 1000] }, having: (m) => Number(m('order_count')) >= 300 && Number(m('order_count')) <= 1000 },
];
