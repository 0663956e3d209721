// The compiler's rules, on the PostgreSQL dialect: what it refuses (and how it says so), data keys,
// relative periods, and the plan it picks around one-to-many joins.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { compileQuery } from '../../src/core/semantic/compile.js';
import { OPPOSITE_OPERATORS, OPERATOR_VALUES, type FilterOperator } from '../../src/core/semantic/filter-operators.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { filterGroupDepth, filtersSchema, semanticQuerySchema, type Filter, type SemanticQueryInput } from '../../src/core/semantic/query.js';
import { DIALECTS } from '../../src/core/sql/dialects.js';
import { demoModel } from './fixture.js';

const NOW = new Date('2025-06-18T10:00:00Z'); // a Wednesday
const model = demoModel();

function compile(input: SemanticQueryInput, attributes: Record<string, string> = { region: '*' }, m: SemanticModel = model) {
  return compileQuery(m, semanticQuerySchema.parse(input), { dialect: DIALECTS.postgres, attributes, now: NOW });
}

function refusal(input: SemanticQueryInput): { status: number; code: string; message: string } {
  try {
    compile(input);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('refusals name the offending part', () => {
  it.each<[string, SemanticQueryInput, number, RegExp]>([
    ['unknown node', { node: 'invoices', measures: ['x'] }, 404, /Unknown node "invoices"/],
    ['unknown measure, with a suggestion', { node: 'orders', measures: ['revenu'] }, 400, /Unknown measure "revenu"; did you mean revenue/],
    ['unknown dimension of a joined node', { node: 'orders', dimensions: ['customers.nmae'] }, 400, /Unknown dimension "customers.nmae"; did you mean customers.name/],
    ['a measure used as a dimension', { node: 'orders', dimensions: ['revenue'] }, 400, /revenue is a measure, not a dimension/],
    ['unknown granularity', { node: 'orders', dimensions: ['created_at.fortnight'] }, 400, /Unknown granularity "fortnight" in created_at.fortnight/],
    ['granularity on a string', { node: 'orders', dimensions: ['status.month'] }, 400, /status is of type string/],
    ['unknown operator', { node: 'orders', measures: ['revenue'], filters: [{ field: 'status', operator: 'like', value: 'x' }] }, 400, /Unknown filter operator "like"/],
    ['time operator on a string', { node: 'orders', measures: ['revenue'], filters: [{ field: 'status', operator: 'before', value: '2025-01-01' }] }, 400, /before applies to date and timestamp dimensions; status is string/],
    ['text operator on a number', { node: 'orders', measures: ['revenue'], filters: [{ field: 'id', operator: 'contains', value: '1' }] }, 400, /contains applies to string dimensions/],
    ['a bad date', { node: 'orders', measures: ['revenue'], filters: [{ field: 'created_at', operator: 'after', value: '2025-02-30' }] }, 400, /needs a date/],
    ['a string for a number', { node: 'orders', measures: ['revenue'], filters: [{ field: 'id', operator: 'equals', value: 'seven' }] }, 400, /id needs a number/],
    ['between with one value', { node: 'orders', measures: ['revenue'], filters: [{ field: 'id', operator: 'between', value: [1] }] }, 400, /needs two values/],
    ['mixed or group', { node: 'orders', measures: ['revenue'], filters: [{ or: [{ field: 'status', operator: 'equals', value: 'x' }, { field: 'revenue', operator: 'gt', value: 1 }] }] }, 400, /cannot mix dimension and measure filters/],
    ['sorting by something not selected', { node: 'orders', measures: ['revenue'], sorts: [{ field: 'status', direction: 'asc' }] }, 400, /Cannot sort by status/],
    ['a field twice', { node: 'orders', measures: ['revenue', 'revenue'] }, 400, /revenue is listed twice/],
    ['an empty query', { node: 'orders' }, 400, /at least one dimension or measure/],
    ['an unknown time zone', { node: 'orders', measures: ['revenue'], timezone: 'Mars/Olympus' }, 400, /Unknown time zone "Mars\/Olympus"/],
    // Newer JavaScript engines take UTC offsets as zones; warehouses do not.
    ['a UTC offset for a time zone', { node: 'orders', measures: ['revenue'], timezone: '+02:00' }, 400, /Unknown time zone "\+02:00"/],
    ['a compact UTC offset for a time zone', { node: 'orders', measures: ['revenue'], timezone: '-0500' }, 400, /Unknown time zone "-0500"/],
    ['a bad period', { node: 'orders', measures: ['revenue'], filters: [{ field: 'created_at', operator: 'inThePast', value: 'a while' }] }, 400, /needs a period such as "7 days"/],
    ['a negated time operator on a string', { node: 'orders', measures: ['revenue'], filters: [{ field: 'status', operator: 'notInThePast', value: '3 days' }] }, 400, /notInThePast applies to date and timestamp dimensions/],
    ['a negated text operator on a number', { node: 'orders', measures: ['revenue'], filters: [{ field: 'id', operator: 'notStartsWith', value: '1' }] }, 400, /notStartsWith applies to string dimensions/],
    // Inside `not`, the operator written is checked, not the opposite it becomes.
    ['a text operator on a number, negated', { node: 'orders', measures: ['revenue'], filters: [{ not: { field: 'id', operator: 'contains', value: '1' } }] }, 400, /Operator contains applies to string dimensions/],
    [
      'a not group mixing dimension and measure filters',
      { node: 'orders', measures: ['revenue'], filters: [{ not: { and: [{ field: 'status', operator: 'equals', value: 'x' }, { field: 'revenue', operator: 'gt', value: 1 }] } }] },
      400,
      /cannot mix dimension and measure filters/,
    ],
  ])('%s', (_name, input, status, message) => {
    const error = refusal(input);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });
});

describe('data keys', () => {
  it("limit the node's rows to the user's attribute, as a bound parameter", () => {
    const compiled = compile({ node: 'orders', measures: ['revenue'] }, { region: "Europe' OR 1=1 --" });
    expect(compiled.sql).toMatch(/WHERE \("orders"\.ship_region\) = \$1/);
    expect(compiled.params).toEqual(["Europe' OR 1=1 --"]);
  });

  it('fail closed when the user lacks the attribute', () => {
    const compiled = compile({ node: 'orders', measures: ['revenue'] }, {});
    expect(compiled.sql).toMatch(/WHERE 1 = 0/);
  });

  it('apply to every node the query touches, also through a join', () => {
    const compiled = compile({ node: 'customers', dimensions: ['segment'], measures: ['orders.revenue'] }, { region: 'Asia Pacific' });
    expect(compiled.sql).toMatch(/LEFT JOIN shop\.orders AS "orders"/);
    expect(compiled.params).toContain('Asia Pacific');
  });

  it('not to nodes the query does not touch; "*" grants every row', () => {
    expect(compile({ node: 'customers', measures: ['customer_count'] }, {}).sql).not.toMatch(/WHERE/);
    expect(compile({ node: 'orders', measures: ['revenue'] }, { region: '*' }).sql).not.toMatch(/WHERE/);
  });
});

describe('periods resolve on the server, half-open, in the query time zone', () => {
  const range = (operator: string, value: unknown, timezone = 'UTC') =>
    compile({ node: 'orders', measures: ['revenue'], timezone, filters: [{ field: 'created_at', operator, value: value as string }] }).params;

  it.each<[string, unknown, string, unknown[]]>([
    ['inThePast', '7 days', 'UTC', ['2025-06-11 00:00:00.000', '2025-06-18 00:00:00.000']],
    ['inThePast', 'week', 'UTC', ['2025-06-09 00:00:00.000', '2025-06-16 00:00:00.000']],
    ['inThePast', '1 month', 'UTC', ['2025-05-01 00:00:00.000', '2025-06-01 00:00:00.000']],
    ['inTheCurrent', 'quarter', 'UTC', ['2025-04-01 00:00:00.000', '2025-07-01 00:00:00.000']],
    ['inTheCurrent', 'year', 'UTC', ['2025-01-01 00:00:00.000', '2026-01-01 00:00:00.000']],
    ['inDateRange', ['2025-03-01', '2025-03-31'], 'UTC', ['2025-03-01 00:00:00.000', '2025-04-01 00:00:00.000']],
    ['after', '2025-03-01', 'UTC', ['2025-03-02 00:00:00.000']],
    ['before', '2025-03-01T12:30:00', 'UTC', ['2025-03-01 12:30:00.000']],
    ['onOrBefore', '2025-03-01T12:30:00Z', 'Asia/Tokyo', ['2025-03-01 21:30:00.000']],
  ])('%s %j (%s)', (operator, value, timezone, expected) => {
    const params = range(operator, value, timezone).filter((p) => p !== timezone);
    expect(params).toEqual(expected);
  });

  it('takes "today" in the query time zone: late evening in Los Angeles is still the day before', () => {
    const params = compileQuery(
      model,
      semanticQuerySchema.parse({ node: 'orders', measures: ['revenue'], timezone: 'America/Los_Angeles', filters: [{ field: 'created_at', operator: 'inTheCurrent', value: 'day' }] }),
      { dialect: DIALECTS.postgres, attributes: { region: '*' }, now: new Date('2025-06-18T05:00:00Z') },
    ).params.filter((p) => p !== 'America/Los_Angeles');
    expect(params).toEqual(['2025-06-17 00:00:00.000', '2025-06-18 00:00:00.000']);
  });
});

describe('joins and fan-out', () => {
  it('uses one grouped select when no join multiplies a measured node', () => {
    const compiled = compile({ node: 'order_items', dimensions: ['products.category', 'orders.status'], measures: ['units'] });
    expect(compiled.sql).not.toMatch(/WITH/);
    expect(compiled.sql).toMatch(/LEFT JOIN shop\.orders AS "orders"/);
    expect(compiled.sql).toMatch(/LEFT JOIN shop\.products AS "products"/);
  });

  it('aggregates a node per distinct row when a one-to-many join would repeat it', () => {
    const compiled = compile({ node: 'orders', dimensions: ['status'], measures: ['revenue', 'order_items.units'] });
    expect(compiled.sql).toMatch(/SELECT DISTINCT \("orders".status\) AS "d0", \("orders".id\) AS "row_key"/);
  });

  it('leaves count_distinct, min and max in one select: duplicates cannot change them', () => {
    const compiled = compile({ node: 'orders', dimensions: ['order_items.product_id'], measures: ['buyers', 'first_order_at'] });
    expect(compiled.sql).not.toMatch(/WITH/);
  });

  it('refuses, naming the fix, when the repeated node has no primary key', () => {
    const base = demoModel();
    const orders = base.nodes.get('orders')!;
    const dimensions = new Map([...orders.dimensions].map(([k, d]) => [k, { ...d, primaryKey: false }]));
    const noKey: SemanticModel = { ...base, nodes: new Map([...base.nodes, ['orders', { ...orders, dimensions }]]) };
    expect(() => compile({ node: 'orders', measures: ['revenue', 'order_items.units'] }, { region: '*' }, noKey)).toThrow(
      /orders.revenue would be counted more than once .* give node orders a primary_key dimension/,
    );
  });

  it('refuses nodes that no join connects', () => {
    const base = demoModel();
    const products = base.nodes.get('products')!;
    const measures = new Map([...products.measures].map(([k, m]) => [k, { ...m, node: 'lonely' }]));
    const lonely = { ...products, name: 'lonely', joins: [], measures };
    const m: SemanticModel = { ...base, nodes: new Map([...base.nodes, ['lonely', lonely]]) };
    expect(() => compile({ node: 'orders', measures: ['revenue', 'lonely.product_count'] }, { region: '*' }, m)).toThrow(/Node lonely cannot be joined to orders/);
  });
});

describe('output', () => {
  it('keys rows by the requested ids and reports their types', () => {
    const compiled = compile({ node: 'orders', dimensions: ['created_at.month', 'customers.segment', 'created_at.day_of_week'], measures: ['revenue'] });
    expect(compiled.columns).toEqual([
      { key: 'created_at.month', kind: 'dimension', type: 'timestamp' },
      { key: 'customers.segment', kind: 'dimension', type: 'string' },
      { key: 'created_at.day_of_week', kind: 'dimension', type: 'number' },
      { key: 'revenue', kind: 'measure', type: 'number' },
    ]);
    expect(compiled.nodes).toEqual(['orders', 'customers']);
  });

  it('binds every value: nothing from the query is spliced into the SQL text', () => {
    const hostile = "x'); DROP TABLE shop.orders; --";
    const compiled = compile({
      node: 'orders',
      dimensions: ['status'],
      measures: ['revenue'],
      filters: [
        { field: 'status', operator: 'equals', value: hostile },
        { field: 'channel', operator: 'startsWith', value: hostile },
      ],
    });
    expect(compiled.sql).not.toContain('DROP');
    expect(compiled.params).toContain(hostile);
  });
});

describe('negation', () => {
  /** A field each operator applies to, with a value of the shape it takes. */
  function leaf(operator: FilterOperator): Filter {
    const text = operator.toLowerCase().includes('contains') || operator.toLowerCase().includes('with');
    const time = /date|past|current/i.test(operator);
    if (time) {
      const value = { two: ['2025-01-01', '2025-02-15'], period: '3 months', unit: 'month' }[OPERATOR_VALUES[operator] as 'two' | 'period' | 'unit'];
      return { field: 'created_at', operator, value };
    }
    if (text) return { field: 'channel', operator, value: ['we', 'mo'] };
    const shape = OPERATOR_VALUES[operator];
    return { field: 'id', operator, ...(shape === 'none' ? {} : { value: shape === 'two' ? [10, 20] : [7] }) };
  }

  it.for(Object.entries(OPPOSITE_OPERATORS) as Array<[FilterOperator, FilterOperator]>)('`not` of %s is %s, the same SQL', ([operator, opposite]) => {
    const negated = compile({ node: 'orders', measures: ['revenue'], filters: [{ not: leaf(operator) }] });
    const named = compile({ node: 'orders', measures: ['revenue'], filters: [leaf(opposite)] });
    expect(negated.sql).toBe(named.sql);
    expect(negated.params).toEqual(named.params);
  });

  it('pairs every negated operator with its positive one', () => {
    for (const [operator, opposite] of Object.entries(OPPOSITE_OPERATORS)) expect(OPPOSITE_OPERATORS[opposite!]).toBe(operator);
    const negated = Object.keys(OPERATOR_VALUES).filter((op) => op.startsWith('not') && op !== 'notNull');
    for (const operator of negated) expect(OPPOSITE_OPERATORS[operator as FilterOperator], operator).toBeDefined();
  });

  it('of a comparison without an opposite keeps the rows without a value', () => {
    const compiled = compile({ node: 'orders', measures: ['revenue'], filters: [{ not: { field: 'id', operator: 'gt', value: 5 } }] });
    expect(compiled.sql).toContain('WHERE (NOT (("orders".id) > $1)) OR (("orders".id) IS NULL)\n');
  });

  it('pushes down through and/or (De Morgan) and cancels out twice', () => {
    const a = { field: 'id', operator: 'gt', value: 5 };
    const b = { field: 'status', operator: 'equals', value: 'x' };
    const notOfAnd = compile({ node: 'orders', measures: ['revenue'], filters: [{ not: { and: [a, b] } }] });
    const orOfNots = compile({ node: 'orders', measures: ['revenue'], filters: [{ or: [{ not: a }, { not: b }] }] });
    expect(notOfAnd.sql).toBe(orOfNots.sql);
    const twice = compile({ node: 'orders', measures: ['revenue'], filters: [{ not: { not: { or: [a, b] } } }] });
    expect(twice.sql).toBe(compile({ node: 'orders', measures: ['revenue'], filters: [{ or: [a, b] }] }).sql);
  });

  it('is one filter in the schema: `not` takes exactly one, and counts as a level of nesting', () => {
    const f = { field: 'status', operator: 'equals', value: 'x' };
    expect(filtersSchema.safeParse([{ not: f }]).success).toBe(true);
    expect(filtersSchema.safeParse([{ not: [f] }]).success).toBe(false);
    expect(filtersSchema.safeParse([{ not: f, and: [f] }]).success).toBe(false);
    expect(filterGroupDepth({ not: { and: [{ not: f }] } } as Filter)).toBe(3);
    let deep: Filter = f as Filter;
    for (let i = 0; i < 11; i++) deep = { not: deep };
    expect(filtersSchema.safeParse([deep]).error?.issues[0]?.message).toBe('and/or/not groups nest at most 10 levels deep');
  });
});
