// The rollups benchmark's Cube side, its parts that need no Cube: the cube model has a pre-aggregation
// for each rollup of the CML model, with the same fields, and Cube's rows (numbers as strings, times
// without a zone) compare equal to ours only when every value is the same.
import { describe, expect, it } from 'vitest';
import { sameRows } from '../../bench/cube-rollups.js';
import { cubeOrdersModel, DASHBOARD, ordersModel, ROLLUPS } from '../../bench/rollup-facts.js';

interface PreAggregation {
  type: string;
  external: boolean;
  measures: string[];
  dimensions: string[];
  time_dimension: string;
  granularity: string;
  partition_granularity?: string;
}

/** Evaluates the generated JavaScript model as Cube would, with CUBE.x standing for the member x. */
function evaluateCubeModel(source: string): { name: string; definition: { sql_table: string; pre_aggregations: Record<string, PreAggregation> } } {
  let defined: ReturnType<typeof evaluateCubeModel> | undefined;
  const cube = (name: string, definition: ReturnType<typeof evaluateCubeModel>['definition']) => (defined = { name, definition });
  const members = new Proxy({}, { get: (_target, member) => String(member) });
  new Function('cube', 'CUBE', source)(cube, members);
  return defined!;
}

describe('the Cube model of the rollups benchmark', () => {
  it('has one pre-aggregation per rollup, stored in the source, with the rollup fields', () => {
    const { name, definition } = evaluateCubeModel(cubeOrdersModel('public.orders'));
    expect(name).toBe('orders');
    expect(definition.sql_table).toBe('public.orders');
    expect(Object.keys(definition.pre_aggregations)).toEqual(ROLLUPS.map((r) => r.name));
    for (const rollup of ROLLUPS) {
      expect(definition.pre_aggregations[rollup.name]).toEqual({
        type: 'rollup',
        external: false,
        measures: rollup.measures,
        dimensions: rollup.dimensions,
        time_dimension: 'created_at',
        granularity: 'month',
        refresh_key: { every: '1 hour' },
        ...(rollup.byYear ? { partition_granularity: 'year' } : {}),
      });
      expect(ordersModel('public.orders')).toContain(`rollup ${rollup.name} {`);
    }
  });
});

describe("comparing Cube's rows with ours", () => {
  const byMonth = DASHBOARD.find((q) => q.name === 'by_month')!;
  const ours = [
    { 'created_at.month': '2024-01-01 00:00:00', revenue: 21345997.91, order_count: 4242, units: 44548 },
    { 'created_at.month': '2024-02-01T00:00:00.000Z', revenue: '19888299.45', order_count: 3967, units: 41586 },
  ];
  const cubes = [
    { 'orders.created_at.month': '2024-01-01T00:00:00.000', 'orders.created_at': '2024-01-01T00:00:00.000', 'orders.revenue': '21345997.91', 'orders.order_count': '4242', 'orders.units': '44548' },
    { 'orders.created_at.month': '2024-02-01T00:00:00.000', 'orders.created_at': '2024-02-01T00:00:00.000', 'orders.revenue': '19888299.45', 'orders.order_count': '3967', 'orders.units': '41586' },
  ];

  it('are the same when every value is, numbers as strings and times without a zone included', () => {
    expect(sameRows(ours, cubes, byMonth)).toBe(true);
  });

  it('differ on one value, a month, the row count or order, and are never the same when empty', () => {
    expect(sameRows(ours, [cubes[0]!, { ...cubes[1]!, 'orders.revenue': '19888299.46' }], byMonth)).toBe(false);
    expect(sameRows(ours, [cubes[0]!, { ...cubes[1]!, 'orders.created_at.month': '2024-03-01T00:00:00.000' }], byMonth)).toBe(false);
    expect(sameRows(ours, [cubes[0]!], byMonth)).toBe(false);
    expect(sameRows(ours, [cubes[1]!, cubes[0]!], byMonth)).toBe(false);
    expect(sameRows([], [], byMonth)).toBe(false);
  });

  it('compare texts as texts and numbers by value ("5.00" is 5)', () => {
    const top = DASHBOARD.find((q) => q.name === 'top_10_products')!;
    expect(sameRows([{ product: 'p001', revenue: 5 }], [{ 'orders.product': 'p001', 'orders.revenue': '5.00' }], top)).toBe(true);
    expect(sameRows([{ product: 'p001', revenue: 5 }], [{ 'orders.product': 'p002', 'orders.revenue': '5' }], top)).toBe(false);
  });
});
