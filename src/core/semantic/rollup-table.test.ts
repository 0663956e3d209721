// A rollup's stored table is named by what its rows depend on: a changed definition (of the rollup or
// of a field it stores) is a new table, a change of when it is rebuilt or of where it is written is not.
import { describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { rollupTableName, storedColumnType } from './rollup-table.js';
import { ordersNode } from './rollup-test-model.js';

const ROLLUP = 'rollup daily { dimensions: [region]  measures: [revenue, avg_amount]  time: created_at  grain: day  refresh: on_deploy }';

function tableOf(source: string): string {
  const model = compileModel([{ path: 'm.cml', content: source }]).model!;
  return rollupTableName(model, model.nodes.get('orders')!.rollups[0]!);
}

describe('rollupTableName', () => {
  const base = tableOf(ordersNode(ROLLUP));

  it('names the node and the rollup, with a hash of the definition', () => {
    expect(base).toMatch(/^orders__daily__[0-9a-f]{16}$/);
  });

  it('changes with the rollup, and with the SQL of a measure it stores', () => {
    expect(tableOf(ordersNode(ROLLUP.replace('grain: day', 'grain: month')))).not.toBe(base);
    expect(tableOf(ordersNode(ROLLUP).replace('measure revenue { type: sum  sql: ${amount} }', 'measure revenue { type: sum  sql: ${amount} * 2 }'))).not.toBe(base);
  });

  it('changes with the stored columns: a table built without the latest source time is never read as one with it', () => {
    const model = compileModel([{ path: 'm.cml', content: ordersNode(ROLLUP) }]).model!;
    const rollup = model.nodes.get('orders')!.rollups[0]!;
    expect(rollup.columns.at(-1)).toEqual({ kind: 'latest', name: '__source_max_time', dimension: 'created_at' });
    expect(rollupTableName(model, { ...rollup, columns: rollup.columns.filter((c) => c.kind !== 'latest') })).not.toBe(base);
  });

  it('stays when only the refresh or the place it is written at changes', () => {
    expect(tableOf(ordersNode(ROLLUP.replace('refresh: on_deploy', 'refresh: "1 hour"')))).toBe(base);
    expect(tableOf(`\n\n${ordersNode(ROLLUP)}`)).toBe(base);
  });
});

describe('storedColumnType', () => {
  const measure = (aggregate: 'sum' | 'count') => ({ kind: 'measure' as const, name: 'm', measure: 'm', aggregate, reaggregate: 'sum' as const });
  it('keeps integers, decimals (with their scale) and doubles apart; counts are BIGINT', () => {
    expect(storedColumnType(measure('sum'), 'INT8')).toBe('HUGEINT');
    expect(storedColumnType(measure('sum'), 'NUMERIC')).toBe('DECIMAL(38,10)');
    expect(storedColumnType(measure('sum'), 'DECIMAL(38,2)')).toBe('DECIMAL(38,2)');
    expect(storedColumnType(measure('sum'), 'DOUBLE PRECISION')).toBe('DOUBLE');
    expect(storedColumnType(measure('count'), 'NUMERIC')).toBe('BIGINT');
    expect(storedColumnType({ kind: 'dimension', name: 'd', dimension: 'd' }, 'TIMESTAMP WITH TIME ZONE')).toBe('TIMESTAMPTZ');
    expect(storedColumnType({ kind: 'dimension', name: 'd', dimension: 'd' }, 'INTERVAL')).toBe('VARCHAR');
  });
  it('keeps the latest source time as the driver wrote it', () => {
    expect(storedColumnType({ kind: 'latest', name: '__source_max_time', dimension: 'created_at' }, 'TIMESTAMP WITH TIME ZONE')).toBe('VARCHAR');
  });
});
