// What a chart draws for a result: along a time or a number, the rows in its order whatever their sort
// (a line by month sorted by revenue runs from the first month to the last); labels keep the rows'
// order; stacked bars of negative values are drawn side by side, with a note.
import { describe, expect, it } from 'vitest';
import { planChart } from '../../web/src/components/chart-plan.js';

const byRevenue = [
  { 'created_at.month': '2025-11-01T00:00:00.000', channel: 'web', revenue: 30 },
  { 'created_at.month': '2025-09-01T00:00:00.000', channel: 'web', revenue: 20 },
  { 'created_at.month': '2025-10-01T00:00:00.000', channel: 'mobile', revenue: 10 },
  { 'created_at.month': '2025-09-01T00:00:00.000', channel: 'mobile', revenue: 5 },
];

describe('planChart', () => {
  it('draws a time along x in time order, however the rows are sorted', () => {
    const plan = planChart({ type: 'line', x: 'created_at.month', y: ['revenue'] }, ['created_at.month', 'revenue'], byRevenue.slice(0, 3));
    expect(plan).toMatchObject({ draw: 'line', data: { x: ['2025-09-01T00:00:00.000', '2025-10-01T00:00:00.000', '2025-11-01T00:00:00.000'], series: [{ name: 'revenue', values: [20, 10, 30] }] } });
  });

  it('splits by a second dimension with the months still in time order, a missing month empty', () => {
    const plan = planChart({ type: 'stacked_bar', x: 'created_at.month', y: ['revenue'], series: 'channel' }, ['created_at.month', 'channel', 'revenue'], byRevenue);
    expect(plan).toMatchObject({
      draw: 'stacked_bar',
      data: { x: ['2025-09-01T00:00:00.000', '2025-10-01T00:00:00.000', '2025-11-01T00:00:00.000'], series: [{ name: 'web', values: [20, null, 30] }, { name: 'mobile', values: [5, 10, null] }] },
    });
  });

  it('keeps the rows’ order for labels, and orders numbers', () => {
    const labels = planChart({ type: 'bar' }, ['channel', 'revenue'], [{ channel: 'web', revenue: 3 }, { channel: 'app', revenue: 2 }]);
    expect(labels).toMatchObject({ data: { x: ['web', 'app'] } });
    const numbers = planChart({ type: 'line' }, ['month_of_year', 'revenue'], [{ month_of_year: 11, revenue: 3 }, { month_of_year: 2, revenue: 2 }]);
    expect(numbers).toMatchObject({ data: { x: [2, 11], series: [{ values: [2, 3] }] } });
  });

  it('draws stacked bars with a negative value side by side, and says so', () => {
    const plan = planChart({ type: 'stacked_bar' }, ['channel', 'change'], [{ channel: 'web', change: 3 }, { channel: 'app', change: -2 }]);
    expect(plan).toMatchObject({ draw: 'bar', note: 'Some values are negative, which do not stack: drawn as bars side by side.' });
  });

  it('names a pie’s slices as the grid names the values', () => {
    const plan = planChart({ type: 'pie' }, ['created_at.quarter', 'revenue'], [{ 'created_at.quarter': '2025-10-01T00:00:00.000', revenue: 3 }], () => 'Q4 2025');
    expect(plan).toMatchObject({ draw: 'pie', slices: [{ label: 'Q4 2025', value: 3 }] });
  });
});
