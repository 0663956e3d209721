// The merge of a comparison's statements on rows written by hand, for what the demo data cannot show
// reliably: a 29 February, comparison rows outside the current range, measure filters choosing the rows,
// a bucket not over yet, and numbers a driver gives as text.
import { describe, expect, it } from 'vitest';
import { mergeComposedRows } from '../../src/core/semantic/comparison.js';
import { planComposedQuery } from '../../src/core/semantic/composed-plan.js';
import { semanticQuerySchema, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';
import { demoModel } from './fixture.js';

const NOW = new Date('2028-03-02T12:00:00Z');
const model = demoModel();
const plan = (input: Omit<SemanticQueryInput, 'node'>) => planComposedQuery(model, semanticQuerySchema.parse({ node: 'orders', ...input }), { now: NOW });
const day = (date: string, n: number | string | null): WarehouseRow => ({ 'created_at.day': `${date}T00:00:00.000`, order_count: n });
const pick = (rows: WarehouseRow[], ...keys: string[]) => rows.map((row) => keys.map((key) => row[key]));

describe('merging a comparison', () => {
  it('days a year apart: 28 and 29 February both meet the 28th; the 1st of March only a year before is a row of its own', () => {
    const p = plan({ dimensions: ['created_at.day'], measures: ['order_count'], compare: { dimension: 'created_at', range: ['2028-02-28', '2028-03-03'], to: 'previous_year' } });
    const merged = mergeComposedRows(p, [
      [day('2028-02-28', 5), day('2028-02-29', 7), day('2028-03-02', 4)],
      [day('2027-02-28', 10), day('2027-03-01', 3), day('2027-03-02', 4)],
    ]);
    expect(pick(merged.rows, 'created_at.day', 'order_count', 'order_count.comparison', 'order_count.change', 'order_count.change_percent', 'created_at.partial')).toEqual([
      ['2028-02-28T00:00:00.000', 5, 10, -5, -50, false],
      ['2028-02-29T00:00:00.000', 7, 10, -3, -30, false],
      ['2028-03-01T00:00:00.000', null, 3, null, null, false],
      ['2028-03-02T00:00:00.000', 4, 4, 0, 0, true],
    ]);
  });

  it('a longer comparison range adds no rows beyond the current range', () => {
    const p = plan({ dimensions: ['created_at.month'], measures: ['order_count'], compare: { dimension: 'created_at', range: ['2028-01-01', '2028-03-01'], to: { range: ['2027-01-01', '2027-06-01'] } } });
    const month = (date: string, n: number): WarehouseRow => ({ 'created_at.month': `${date}T00:00:00.000`, order_count: n });
    const merged = mergeComposedRows(p, [[month('2028-01-01', 1)], [month('2027-01-01', 2), month('2027-02-01', 3), month('2027-03-01', 4)]]);
    expect(pick(merged.rows, 'created_at.month', 'order_count', 'order_count.comparison')).toEqual([
      ['2028-01-01T00:00:00.000', 1, 2],
      ['2028-02-01T00:00:00.000', null, 3],
    ]);
  });

  it('with a measure filter, the rows are the current ones that pass it: none is added from the comparison', () => {
    const p = plan({
      dimensions: ['channel'],
      measures: ['order_count'],
      filters: [{ field: 'order_count', operator: 'gt', value: 1 }],
      compare: { dimension: 'created_at', range: ['2028-01-01', '2028-02-01'] },
    });
    expect(p.statements[1]!.query.filters.some((f) => 'field' in f && f.field === 'order_count')).toBe(false);
    const merged = mergeComposedRows(p, [[{ channel: 'web', order_count: 3 }], [{ channel: 'web', order_count: 0 }, { channel: 'mobile', order_count: 1 }]]);
    expect(pick(merged.rows, 'channel', 'order_count', 'order_count.comparison', 'order_count.change', 'order_count.change_percent')).toEqual([['web', 3, 0, 3, null]]);
  });

  it('numbers given as text are computed with; the answer keeps them as given', () => {
    const p = plan({ dimensions: ['channel'], measures: ['revenue'], compare: { dimension: 'created_at', range: ['2028-01-01', '2028-02-01'] }, per: [{ measure: 'revenue', by: 'order_count' }] });
    const merged = mergeComposedRows(p, [[{ channel: 'web', revenue: '9007199254740993', order_count: 0 }], [{ channel: 'web', revenue: 4.5e15 }]]);
    expect(merged.rows[0]).toMatchObject({ revenue: '9007199254740993', 'revenue.comparison': 4.5e15, 'revenue.change': Number('9007199254740993') - 4.5e15, 'revenue.per.order_count': null });
  });

  it('sorts nulls last in either direction, then cuts to the limit', () => {
    const p = plan({ dimensions: ['channel'], measures: ['order_count'], compare: { dimension: 'created_at', range: ['2028-01-01', '2028-02-01'] }, sorts: [{ field: 'order_count.change', direction: 'desc' }], limit: 2 });
    const merged = mergeComposedRows(p, [
      [{ channel: 'a', order_count: 1 }, { channel: 'b', order_count: 5 }, { channel: 'c', order_count: 2 }],
      [{ channel: 'a', order_count: 1 }, { channel: 'c', order_count: 1 }],
    ]);
    expect(pick(merged.rows, 'channel', 'order_count.change')).toEqual([
      ['c', 1],
      ['a', 0],
    ]);
    expect(merged.truncated).toBe(true);
  });
});
