// Time scopes as the linker sets them: written (`time_scope:`, `snapshot:`), a snapshot in a reveal
// without `time:`, and otherwise inferred: a stock when the metric reads only measures of its base and
// the base is an entity (a node the rows of a timed reveal point at), a flow everywhere else.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SemanticModel, TimeScope } from '../semantic/model.js';
import { compileModel, formatDiagnostic } from './index.js';

function compile(source: string): SemanticModel {
  const { model, diagnostics } = compileModel([{ path: 'model.cml', content: source }]);
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join('\n'));
  return model;
}

/** Every metric's scope, as `reveal.metric`. */
function scopes(model: SemanticModel): Record<string, TimeScope> {
  return Object.fromEntries([...model.reveals.values()].flatMap((reveal) => [...reveal.metrics.values()].map((m) => [`${reveal.name}.${m.name}`, m.timeScope] as const)));
}

const NODES = `
node customers {
  connection: w
  table: shop.customers
  dimension id        { type: number  primary_key: true }
  dimension segment   { type: string }
  dimension signup_at { type: timestamp }
  measure customer_count { type: count }
  measure countries      { type: count_distinct  sql: \${TABLE}.country }
}
node orders {
  connection: w
  table: shop.orders
  dimension id          { type: number  primary_key: true }
  dimension customer_id { type: number }
  dimension created_at  { type: timestamp }
  measure order_count { type: count }
  measure revenue     { type: sum  sql: \${TABLE}.amount }
  join customers { relationship: many_to_one  on: \${orders.customer_id} = \${customers.id} }
}
node order_items {
  connection: w
  table: shop.order_items
  dimension id       { type: number  primary_key: true }
  dimension order_id { type: number }
  measure units { type: sum  sql: \${TABLE}.quantity }
  join orders { relationship: many_to_one  on: \${order_items.order_id} = \${orders.id} }
}
`;

const SALES = `
reveal sales {
  domain: d
  base: orders
  time: orders.created_at
  metric orders  { measure: order_count }
  metric revenue { measure: revenue }
  metric customers_ordering { measure: customers.customer_count }
}
`;

const CUSTOMERS = (metrics: string) => `
reveal customers {
  domain: d
  base: customers
  time: customers.signup_at
  ${metrics}
}
`;

describe('inferred time scopes', () => {
  it('the demo model: every metric of the customers reveal is a stock, every metric of sales a flow', () => {
    const dir = path.resolve(import.meta.dirname, '../../../demo/model');
    const files = readdirSync(dir).map((file) => ({ path: file, content: readFileSync(path.join(dir, file), 'utf8') }));
    const found = scopes(compileModel(files).model!);
    for (const [name, scope] of Object.entries(found)) expect(scope, name).toBe(name.startsWith('customers.') ? 'stock' : 'flow');
    expect(Object.keys(found)).toEqual(expect.arrayContaining(['customers.customers', 'customers.enterprise_customers', 'customers.business_share', 'customers.countries', 'sales.revenue', 'sales.orders']));
  });

  it('a base that a timed reveal’s rows point at is an entity: counts, distinct counts and ratios of stocks over it are stocks', () => {
    const model = compile(
      NODES +
        SALES +
        CUSTOMERS(`metric customers { measure: customer_count }
  metric countries { measure: countries }
  metric per_country { expr: \${customers} * 1.0 / nullif(\${countries}, 0) }`),
    );
    expect(scopes(model)).toEqual({
      'sales.orders': 'flow',
      'sales.revenue': 'flow',
      'sales.customers_ordering': 'flow',
      'customers.customers': 'stock',
      'customers.countries': 'stock',
      'customers.per_country': 'stock',
    });
  });

  it('without a timed reveal pointing at it, the same base is no entity: its metrics stay flows', () => {
    expect(scopes(compile(NODES + CUSTOMERS('metric customers { measure: customer_count }')))).toEqual({ 'customers.customers': 'flow' });
  });

  it('a reveal without a time dimension points at nothing: its base reaches no entity', () => {
    const untimed = SALES.replace('  time: orders.created_at\n', '');
    expect(scopes(compile(NODES + untimed + CUSTOMERS('metric customers { measure: customer_count }')))).toMatchObject({ 'sales.orders': 'snapshot', 'customers.customers': 'flow' });
  });

  it('the node a timed reveal keeps its time on is where its events happen, not an entity', () => {
    const items = `
reveal items {
  domain: d
  base: order_items
  time: orders.created_at
  metric units { measure: units }
}
`;
    expect(scopes(compile(NODES + items + SALES + CUSTOMERS('metric customers { measure: customer_count }')))).toEqual({
      'items.units': 'flow',
      'sales.orders': 'flow',
      'sales.revenue': 'flow',
      'sales.customers_ordering': 'flow',
      // order lines point at orders, which point at customers: still an entity, two joins away
      'customers.customers': 'stock',
    });
  });

  it('only many_to_one joins point at an entity: rows a timed reveal reaches through one_to_many are not', () => {
    // Customers declare their orders (one_to_many), orders declare nothing: no event points at anything.
    const nodes = NODES.replace('join customers { relationship: many_to_one  on: ${orders.customer_id} = ${customers.id} }', '').replace(
      'measure countries      { type: count_distinct  sql: ${TABLE}.country }',
      'measure countries      { type: count_distinct  sql: ${TABLE}.country }\n  join orders { relationship: one_to_many  on: ${customers.id} = ${orders.customer_id} }',
    );
    const sales = SALES.replace('  metric customers_ordering { measure: customers.customer_count }\n', '');
    expect(scopes(compile(nodes + sales + CUSTOMERS('metric customers { measure: customer_count }')))).toEqual({
      'sales.orders': 'flow',
      'sales.revenue': 'flow',
      'customers.customers': 'flow',
    });
  });

  it('a metric over an entity that reads another node, or a flow, is a flow', () => {
    const nodes = NODES.replace(
      'measure countries      { type: count_distinct  sql: ${TABLE}.country }',
      'measure countries      { type: count_distinct  sql: ${TABLE}.country }\n  join orders { relationship: one_to_many  on: ${customers.id} = ${orders.customer_id} }',
    );
    const model = compile(
      nodes +
        SALES +
        CUSTOMERS(`metric customers { measure: customer_count }
  metric orders_placed { measure: orders.order_count }
  metric new_customers { measure: customer_count  time_scope: flow }
  metric new_share { expr: \${new_customers} * 1.0 / nullif(\${customers}, 0) }`),
    );
    expect(scopes(model)).toMatchObject({
      'customers.customers': 'stock',
      'customers.orders_placed': 'flow',
      'customers.new_customers': 'flow',
      'customers.new_share': 'flow',
    });
  });
});

describe('written time scopes', () => {
  it('time_scope: says it, over any inference', () => {
    const sales = SALES.replace('metric orders  { measure: order_count }', 'metric orders  { measure: order_count  time_scope: stock }');
    const model = compile(NODES + sales + CUSTOMERS('metric customers { measure: customer_count  time_scope: flow }\n  metric open { measure: customer_count  time_scope: snapshot }'));
    expect(scopes(model)).toMatchObject({ 'sales.orders': 'stock', 'sales.revenue': 'flow', 'customers.customers': 'flow', 'customers.open': 'snapshot' });
    expect(model.reveals.get('customers')!.metrics.get('open')!.snapshot).toBe(true);
    expect(model.reveals.get('sales')!.metrics.get('orders')!.snapshot).toBe(false);
  });

  it('snapshot: true is a snapshot, and snapshot: false leaves the scope to be inferred', () => {
    const model = compile(NODES + SALES + CUSTOMERS('metric a { measure: customer_count  snapshot: true }\n  metric b { measure: customer_count  snapshot: false }'));
    expect(scopes(model)).toMatchObject({ 'customers.a': 'snapshot', 'customers.b': 'stock' });
  });

  it('every metric of a reveal without time: is a snapshot, time_scope: snapshot allowed', () => {
    const fleet = `reveal fleet { domain: d  base: customers\n  metric a { measure: customer_count }\n  metric b { measure: customer_count  time_scope: snapshot }\n}`;
    expect(scopes(compile(NODES + fleet))).toEqual({ 'fleet.a': 'snapshot', 'fleet.b': 'snapshot' });
  });
});
