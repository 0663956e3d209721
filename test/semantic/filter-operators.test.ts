// The operators the console offers for a field (operatorsFor, shared with the browser) are exactly the
// ones the compiler accepts on that field: every offered one compiles with a value of its shape, every
// other one is refused. So Explore can never offer an operator the server refuses.
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { FILTER_OPERATORS, OPERATOR_VALUES, operatorsFor, type FilterOperator, type FilterTarget } from '../../src/core/semantic/filter-operators.js';
import { semanticQuerySchema } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { demoModel } from './fixture.js';

const SAMPLES: Record<string, unknown> = { string: 'web', number: 3, boolean: true, timestamp: '2024-01-01', measure: 10 };
const SECOND: Record<string, unknown> = { string: 'zz', number: 9, boolean: false, timestamp: '2024-03-01', measure: 20 };

function valueFor(operator: FilterOperator, type: string): unknown {
  switch (OPERATOR_VALUES[operator]) {
    case 'none':
      return undefined;
    case 'one':
      return SAMPLES[type];
    case 'list':
      return [SAMPLES[type], SECOND[type]];
    case 'two':
      return [SAMPLES[type], SECOND[type]];
    case 'period':
      return '3 months';
    case 'unit':
      return 'month';
  }
}

const FIELDS: Array<{ field: string; type: string; target: FilterTarget }> = [
  { field: 'channel', type: 'string', target: { kind: 'dimension', type: 'string' } },
  { field: 'id', type: 'number', target: { kind: 'dimension', type: 'number' } },
  { field: 'is_completed', type: 'boolean', target: { kind: 'dimension', type: 'boolean' } },
  { field: 'created_at', type: 'timestamp', target: { kind: 'dimension', type: 'timestamp' } },
  { field: 'created_at.month', type: 'timestamp', target: { kind: 'dimension', type: 'timestamp' } },
  { field: 'order_count', type: 'measure', target: { kind: 'measure' } },
];

describe('operatorsFor', () => {
  it.for(FIELDS.map((f) => [f.field, f] as const))('offers for %s exactly the operators the compiler accepts', ([, { field, type, target }]) => {
    const model = demoModel();
    const offered = operatorsFor(target);
    expect(offered.length).toBeGreaterThan(0);
    for (const operator of FILTER_OPERATORS) {
      const value = valueFor(operator, type);
      const query = semanticQuerySchema.parse({ node: 'orders', measures: ['order_count'], filters: [{ field, operator, ...(value === undefined ? {} : { value }) }] });
      const compile = () => compileQuery(model, query, { dialect: DIALECTS.duckdb, attributes: { region: '*' }, now: new Date('2025-06-18T10:00:00Z') });
      if (offered.includes(operator)) expect(compile, `${field} ${operator}`).not.toThrow();
      else expect(compile, `${field} ${operator}`).toThrow(/does not apply|applies to/);
    }
  });

  it('offers only operators the server knows', () => {
    for (const { target } of FIELDS) for (const operator of operatorsFor(target)) expect(FILTER_OPERATORS).toContain(operator);
  });
});
