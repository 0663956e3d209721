// How the console shows an answer's columns: a change with its sign and an arrow (so its direction reads
// without colour), a share as a percentage, a partial period marked, headers in words.
import { describe, expect, it } from 'vitest';
import { cellOf, columnLabel, formatMeasure, formatTime, grainOf, type ResultColumn } from '../../web/src/components/result-format.js';

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
    expect(cellOf({ key: 'created_at.month', kind: 'dimension', type: 'timestamp' }, '2026-04-01T00:00:00.000')).toEqual({ text: 'Apr 2026' });
    expect(cellOf({ key: 'created_at', kind: 'dimension', type: 'timestamp' }, '2026-04-01T00:00:00.000')).toEqual({ text: '2026-04-01' });
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

describe('formatMeasure', () => {
  it('writes a currency with its cents and thousands separated, with the unit’s symbol when the model names one', () => {
    expect(formatMeasure(1234567.5, { format: 'currency' })).toBe('1,234,567.50');
    expect(formatMeasure(1234567.5, { format: 'currency', unit: 'usd' })).toBe('$1,234,567.50');
    expect(formatMeasure(-42, { format: 'currency', unit: 'eur' })).toBe('−€42.00');
    expect(formatMeasure(1234567.5, { format: 'currency', unit: 'usd' }, true)).toBe('$1.2M');
  });

  it('writes a percent format as a percentage of the fraction, a unit after the number, a plain number grouped', () => {
    expect(formatMeasure(0.4838, { format: 'percent' })).toBe('48.4 %');
    expect(formatMeasure(0.042, { unit: 'percent' })).toBe('4.2%');
    expect(formatMeasure(12.5, { unit: 'km' })).toBe('12.5 km');
    expect(formatMeasure(1, { unit: 'minutes' })).toBe('1 minute');
    expect(formatMeasure(1234567, { format: 'number' })).toBe('1,234,567');
    expect(formatMeasure(1234567)).toBe('1,234,567');
    expect(formatMeasure(1234567, {}, true)).toBe('1.2M');
  });

  it('formats a measure’s comparison and change by the measure’s own format', () => {
    const hints = { format: 'currency', unit: 'usd' };
    expect(cellOf({ key: 'revenue', kind: 'measure', type: 'number' }, 1500, hints)).toEqual({ text: '$1,500.00' });
    expect(cellOf({ key: 'revenue.comparison', kind: 'comparison', type: 'number', measure: 'revenue' }, '99.5', hints)).toEqual({ text: '$99.50' });
    expect(cellOf(change, -1234.5, hints)).toMatchObject({ text: '▼ −$1,234.50', tone: 'down' });
    expect(cellOf(change, 0.001, hints)).toMatchObject({ text: '= $0.00', tone: 'flat' });
  });
});

describe('formatTime', () => {
  it('names a period by its grain from the wall time the server answers, whatever the browser’s zone', () => {
    expect(formatTime('2025-11-01T00:00:00.000', 'month')).toBe('Nov 2025');
    expect(formatTime('2025-10-01T00:00:00.000', 'quarter')).toBe('Q4 2025');
    expect(formatTime('2025-01-01T00:00:00.000', 'quarter')).toBe('Q1 2025');
    expect(formatTime('2025-01-01T00:00:00.000', 'year')).toBe('2025');
    expect(formatTime('2025-11-03T00:00:00.000', 'day')).toBe('2025-11-03');
    expect(formatTime('2025-11-03T00:00:00.000', 'week')).toBe('2025-11-03');
    expect(formatTime('2025-11-03T14:00:00.000', 'hour')).toBe('2025-11-03 14:00');
    expect(formatTime('2025-11-03T14:05:09.000Z')).toBe('2025-11-03 14:05:09');
    expect(formatTime('2025-11-03')).toBe('2025-11-03');
    expect(formatTime('web', 'month')).toBeUndefined();
  });

  it('reads the grain from a column key, joined fields included', () => {
    expect(grainOf('created_at.month')).toBe('month');
    expect(grainOf('customers.signup_at.quarter')).toBe('quarter');
    expect(grainOf('customers.segment')).toBeUndefined();
    expect(grainOf('channel')).toBeUndefined();
  });
});
