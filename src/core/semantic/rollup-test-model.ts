// The node the rollup matching tests write their rollups into: orders with a measure of every kind
// (additive, average, minimum, distinct count, a ratio over one, a formula), a time dimension and a
// data key. Shared so that the examples and the properties read the same fields.
export const ORDERS_FIELDS = `dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension channel { type: string }
  dimension amount { type: number }
  dimension customer_id { type: number }
  dimension created_at { type: timestamp }
  dimension ordered_on { type: date }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  measure avg_amount { type: avg  sql: \${amount} }
  measure smallest { type: min  sql: \${amount} }
  measure buyers { type: count_distinct  sql: \${customer_id} }
  measure per_buyer { type: ratio  numerator: revenue  denominator: buyers }
  measure aov { type: number  sql: \${revenue} / nullif(\${order_count}, 0) }
  data_key region { dimension: region  attribute: region }`;

/** The orders node with `members` (rollups, joins) after its fields. */
export function ordersNode(members: string): string {
  return `node orders {\n  connection: warehouse  table: shop.orders\n  ${ORDERS_FIELDS}\n  ${members}\n}\n`;
}
