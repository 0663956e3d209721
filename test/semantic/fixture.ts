// A hand-built linked model over the demo schema, so that the compiler is tested apart from the parser.
import type { Dimension, Join, Measure, SemanticModel, SemanticNode, SqlPart, SqlTemplate } from '../../src/core/semantic/model.js';

const span = { file: 'fixture.cml', line: 1, column: 1, endLine: 1, endColumn: 2 };

/** `${TABLE}.x`, `${dim}` style templates: 'T.amount', '{status} = \'completed\'' */
function tpl(node: string, text: string): SqlTemplate {
  const parts: SqlPart[] = [];
  for (const piece of text.split(/(T\.|\{[\w.]+\}|\[[\w.]+\])/)) {
    if (!piece) continue;
    if (piece === 'T.') parts.push({ kind: 'table', node }, { kind: 'text', text: '.' });
    else if (piece.startsWith('{')) {
      const [n, f] = piece.slice(1, -1).includes('.') ? piece.slice(1, -1).split('.') : [node, piece.slice(1, -1)];
      parts.push({ kind: 'dimension', node: n!, name: f! });
    } else if (piece.startsWith('[')) parts.push({ kind: 'measure', node, name: piece.slice(1, -1) });
    else parts.push({ kind: 'text', text: piece });
  }
  return parts;
}

type DimSpec = [name: string, type: Dimension['type'], sql?: string, primaryKey?: boolean];
/** For a ratio, `sql` is `numerator/denominator`: two measures of the node. */
type MeasureSpec = [name: string, type: Measure['type'] | 'ratio', sql?: string, filter?: string];

function measure(node: string, [name, type, sql, filter]: MeasureSpec): Measure {
  const base = { node, name, label: name, description: '', hidden: false, span };
  if (type === 'ratio') {
    const [numerator, denominator] = sql!.split('/') as [string, string];
    return { ...base, type: 'number', ratio: { numerator, denominator }, sql: tpl(node, `[${numerator}] / [${denominator}]`) };
  }
  return { ...base, type, ...(sql ? { sql: tpl(node, sql) } : {}), ...(filter ? { filter: tpl(node, filter) } : {}) };
}

function node(
  name: string,
  table: string,
  dims: DimSpec[],
  measures: MeasureSpec[],
  joins: Array<[to: string, relationship: Join['relationship'], on: string]> = [],
  dataKeys: Array<[dimension: string, attribute: string]> = [],
): SemanticNode {
  return {
    name,
    label: name,
    description: '',
    connection: 'warehouse',
    source: { kind: 'table', table },
    tags: [],
    dimensions: new Map(
      dims.map(([n, type, sql, pk]) => [
        n,
        { node: name, name: n, label: n, description: '', type, sql: tpl(name, sql ?? `T.${n}`), primaryKey: Boolean(pk), hidden: false, span },
      ]),
    ),
    measures: new Map(measures.map((spec) => [spec[0], measure(name, spec)])),
    joins: joins.map(([to, relationship, on]) => ({ from: name, to, relationship, on: tpl(name, on), span })),
    dataKeys: dataKeys.map(([dimension, attribute]) => ({ node: name, name: dimension, dimension, attribute, span })),
    rollups: [],
    file: 'fixture.cml',
    span,
  };
}

/**
 * @param schema Where the demo tables live: `shop` as the loaders create them, or a test's own database
 *   on MySQL/MariaDB, where a schema is a database and each run loads a uniquely named one.
 */
export function demoModel(schema = 'shop'): SemanticModel {
  const nodes = [
    node(
      'orders',
      `${schema}.orders`,
      [
        ['id', 'number', undefined, true],
        ['customer_id', 'number'],
        ['status', 'string'],
        ['channel', 'string'],
        ['region', 'string', 'T.ship_region'],
        ['created_at', 'timestamp'],
        ['is_completed', 'boolean', "T.status = 'completed'"],
      ],
      [
        ['order_count', 'count'],
        ['revenue', 'sum', 'T.amount'],
        ['completed_revenue', 'sum', 'T.amount', "{status} = 'completed'"],
        ['avg_order_value', 'avg', 'T.amount'],
        ['buyers', 'count_distinct', 'T.customer_id'],
        ['first_order_at', 'min', 'T.created_at'],
        ['revenue_per_order', 'number', '[revenue] / NULLIF([order_count], 0)'],
        ['completed_orders', 'count', undefined, "{status} = 'completed'"],
        // Two counts: integers, which PostgreSQL would divide as integers.
        ['completed_share', 'ratio', 'completed_orders/order_count'],
        // Zero in every group without a completed order.
        ['revenue_per_completed_order', 'ratio', 'revenue/completed_orders'],
      ],
      [['customers', 'many_to_one', '{orders.customer_id} = {customers.id}']],
      [['region', 'region']],
    ),
    node(
      'customers',
      `${schema}.customers`,
      [
        ['id', 'number', undefined, true],
        ['name', 'string'],
        ['region', 'string'],
        ['segment', 'string'],
        ['signup_at', 'timestamp'],
      ],
      [['customer_count', 'count']],
    ),
    node(
      'order_items',
      `${schema}.order_items`,
      [
        ['id', 'number', undefined, true],
        ['order_id', 'number'],
        ['product_id', 'number'],
        ['quantity', 'number'],
      ],
      [
        ['units', 'sum', 'T.quantity'],
        ['item_revenue', 'sum', 'T.quantity * T.unit_price'],
        ['line_count', 'count'],
        ['units_per_line', 'ratio', 'units/line_count'],
      ],
      [
        ['orders', 'many_to_one', '{order_items.order_id} = {orders.id}'],
        ['products', 'many_to_one', '{order_items.product_id} = {products.id}'],
      ],
    ),
    node(
      'products',
      `${schema}.products`,
      [
        ['id', 'number', undefined, true],
        ['name', 'string'],
        ['category', 'string'],
      ],
      [['product_count', 'count']],
    ),
  ];
  return { nodes: new Map(nodes.map((n) => [n.name, n])), reveals: new Map() };
}
