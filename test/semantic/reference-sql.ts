// Hand-written DuckDB SQL over shop.*, for the golden queries (as their user, region = Europe, should
// see them) and for a few results the engine tests check: written from the meaning of each query, not
// from the compiler's output.
import type { GOLDEN_QUERIES } from './queries.js';

const PARIS = (column: string) => `timezone('Europe/Paris', timezone('UTC', ${column}))`;
const NEW_YORK = (column: string) => `timezone('America/New_York', timezone('UTC', ${column}))`;

const GOLDEN_SQL: Record<keyof typeof GOLDEN_QUERIES, string> = {
  revenue_total: `SELECT SUM(amount) AS "revenue", COUNT(*) AS "order_count" FROM shop.orders WHERE ship_region = 'Europe'`,
  revenue_by_status: `
    SELECT status AS "status", SUM(amount) AS "revenue", SUM(CASE WHEN status = 'completed' THEN amount END) AS "completed_revenue",
           SUM(amount) / COUNT(*) AS "revenue_per_order"
    FROM shop.orders WHERE ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  revenue_by_month_paris: `
    SELECT date_trunc('month', ${PARIS('created_at')}) AS "created_at.month", SUM(amount) AS "revenue"
    FROM shop.orders
    WHERE ship_region = 'Europe' AND ${PARIS('created_at')} >= TIMESTAMP '2025-01-01' AND ${PARIS('created_at')} < TIMESTAMP '2025-07-01'
    GROUP BY 1 ORDER BY 1`,
  customers_region_join: `
    SELECT c.segment AS "customers.segment", o.channel AS "channel", COUNT(DISTINCT o.customer_id) AS "buyers", AVG(o.amount) AS "avg_order_value"
    FROM shop.orders o LEFT JOIN shop.customers c ON c.id = o.customer_id
    WHERE o.status IN ('completed', 'refunded') AND lower(c.name) LIKE '%an%' AND o.ship_region = 'Europe'
    GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10`,
  having_and_or: `
    SELECT ship_region AS "region", COUNT(*) AS "order_count" FROM shop.orders
    WHERE channel IN ('web', 'mobile') AND ship_region = 'Europe'
    GROUP BY 1 HAVING SUM(amount) > 1000 ORDER BY 2 DESC, 1`,
  fan_out_units_by_status: `
    SELECT o.status AS "status", SUM(o.amount) AS "revenue",
           (SELECT SUM(i.quantity) FROM shop.order_items i JOIN shop.orders o2 ON o2.id = i.order_id
            WHERE o2.status = o.status AND o2.ship_region = 'Europe') AS "order_items.units"
    FROM shop.orders o WHERE o.ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  date_parts: `
    SELECT CAST(isodow(created_at) AS INTEGER) AS "created_at.day_of_week", CAST(quarter(created_at) AS INTEGER) AS "created_at.quarter_of_year",
           COUNT(*) AS "order_count"
    FROM shop.orders WHERE ship_region = 'Europe' GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
  // A ratio is its group's numerator over its group's denominator, none where that is 0.
  ratios_by_status: `
    SELECT status AS "status", COUNT(*) AS "order_count", COUNT(*) FILTER (WHERE status = 'completed') AS "completed_orders",
           COUNT(*) FILTER (WHERE status = 'completed') / COUNT(*) AS "completed_share",
           CASE WHEN COUNT(*) FILTER (WHERE status = 'completed') = 0 THEN NULL
                ELSE SUM(amount) / COUNT(*) FILTER (WHERE status = 'completed') END AS "revenue_per_completed_order"
    FROM shop.orders WHERE ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  ratio_across_fan_out: `
    SELECT o.channel AS "channel",
           SUM(o.amount) / COUNT(*) FILTER (WHERE o.status = 'completed') AS "revenue_per_completed_order",
           (SELECT SUM(i.quantity) / COUNT(*) FROM shop.order_items i JOIN shop.orders o2 ON o2.id = i.order_id
            WHERE o2.channel = o.channel AND o2.ship_region = 'Europe') AS "order_items.units_per_line"
    FROM shop.orders o WHERE o.ship_region = 'Europe' GROUP BY 1 ORDER BY 2 DESC, 1`,
  // Negations keep what their positive form leaves out; no field here is ever null.
  not_filters: `
    SELECT o.channel AS "channel", COUNT(*) AS "order_count", SUM(o.amount) AS "revenue"
    FROM shop.orders o LEFT JOIN shop.customers c ON c.id = o.customer_id
    WHERE o.status <> 'cancelled' AND lower(c.name) NOT LIKE 'a%' AND lower(o.channel) NOT LIKE '%place'
      AND NOT (o.created_at >= TIMESTAMP '2024-01-01' AND o.created_at < TIMESTAMP '2025-01-01') AND o.ship_region = 'Europe'
    GROUP BY 1 HAVING SUM(o.amount) <= 50000 ORDER BY 2 DESC, 1`,
};

export const REFERENCE_SQL: Record<string, string> = {
  ...GOLDEN_SQL,
  revenue_and_count_by_status: 'SELECT status AS "status", SUM(amount) AS "revenue", COUNT(*) AS "order_count" FROM shop.orders GROUP BY 1 ORDER BY 1',
  revenue_by_category: `
    SELECT c.category AS "products.category", SUM(o.amount) AS "revenue", MAX(u.units) AS "order_items.units"
    FROM shop.orders o
    JOIN (SELECT DISTINCT i.order_id, p.category FROM shop.order_items i JOIN shop.products p ON p.id = i.product_id) c ON c.order_id = o.id
    JOIN (SELECT p.category, SUM(i.quantity) AS units FROM shop.order_items i JOIN shop.products p ON p.id = i.product_id GROUP BY 1) u ON u.category = c.category
    GROUP BY 1 ORDER BY 1`,
  revenue_and_customers_by_category: `
    SELECT p.category AS "products.category", SUM(o.amount) AS "revenue", COUNT(DISTINCT o.customer_id) AS "customers.customer_count"
    FROM shop.orders o JOIN (SELECT DISTINCT i.order_id, p.category FROM shop.order_items i JOIN shop.products p ON p.id = i.product_id) p ON p.order_id = o.id
    GROUP BY 1`,
  days_in_new_york: `
    SELECT strftime(date_trunc('day', ${NEW_YORK('created_at')}), '%Y-%m-%dT%H:%M:%S.000') AS "created_at.day", COUNT(*) AS "order_count"
    FROM shop.orders
    WHERE ${NEW_YORK('created_at')} >= TIMESTAMP '2025-03-08' AND ${NEW_YORK('created_at')} < TIMESTAMP '2025-03-11'
    GROUP BY 1 ORDER BY 1`,
};
