// How the console shows an answer's columns: a change with its sign and an arrow (so its direction reads
// without colour), a share as a percentage, a partial period marked, headers in words.
import { describe, expect, it } from 'vitest';
import { cellOf, columnLabel, type ResultColumn } from '../../web/src/components/result-format.js';

const change: ResultColumn = { key: 'orders.change', kind: 'change', type: 'number', measure: 'orders' };
const percent: ResultColumn = { key: 'orders.change_percent', kind: 'change_percent', type: 'number', measure: 'orders' };
const share: ResultColumn = { key: 'orders.share', kind: 'share', type: 'number', format: 'percent', measure: 'orders' };

describe('cellOf', () => {
  it('writes a change with its sign, a true minus and an arrow; a change shown as zero has none', () => {
    expect(cellOf(change, 9)).toEqual({ text: '▲ +9', tone: 'up', title: 'up' });
    expect(cellOf(change, -1234.567)).toEqual({ text: '▼ −1,234.57', tone: 'down', title: 'down' });
    expect(cellOf(change, 0)).toMatchObject({ text: '= 0', tone: 'flat' });
    expect(cellOf(percent, 150)).toMatchObject({ text: '▲ +150.0 %', tone: 'up' });
    expect(cellOf(percent, -22.2222)).toMatchObject({ text: '▼ −22.2 %', tone: 'down' });
    expect(cellOf(percent, 0.04)).toMatchObject({ text: '= 0.0 %', tone: 'flat' });
    expect(cellOf(percent, null)).toEqual({ text: '—', title: 'no value' });
  });

  it('shows a share (a fraction) as a percentage and marks a partial period', () => {
    expect(cellOf(share, 0.4838709677)).toEqual({ text: '48.4 %' });
    expect(cellOf({ key: 'created_at.partial', kind: 'partial', type: 'boolean' }, true)).toMatchObject({ text: '◐ Partial', tone: 'partial' });
    expect(cellOf({ key: 'created_at.partial', kind: 'partial', type: 'boolean' }, false)).toEqual({ text: '' });
    expect(cellOf({ key: 'created_at.month', kind: 'dimension', type: 'timestamp' }, '2026-04-01T00:00:00.000')).toEqual({ text: '2026-04-01' });
  });
});

describe('columnLabel', () => {
  const labelOf = (id: string) => ({ order_count: 'Orders', channel: 'Channel', gross_revenue: 'Gross revenue' })[id] ?? id;
  it('names computed columns after their measure, the comparison after its period', () => {
    const summary = { dimension: 'created_at', to: 'previous_year' as const, range: [], comparison_range: [], partial: false };
    expect(columnLabel({ key: 'order_count.comparison', kind: 'comparison', type: 'number', measure: 'order_count' }, labelOf, summary)).toBe('Orders (a year before)');
    expect(columnLabel({ key: 'order_count.comparison', kind: 'comparison', type: 'number', measure: 'order_count' }, labelOf)).toBe('Orders (previous period)');
    expect(columnLabel({ key: 'order_count.share', kind: 'share', type: 'number', measure: 'order_count', of: ['channel'] }, labelOf)).toBe('Orders % of each Channel');
    expect(columnLabel({ key: 'gross_revenue.per.order_count', kind: 'per', type: 'number', measure: 'gross_revenue', by: 'order_count' }, labelOf)).toBe('Gross revenue per Orders');
  });
});
