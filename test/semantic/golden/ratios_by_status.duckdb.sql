SELECT ("orders".status) AS "status", COUNT(*) AS "order_count", COUNT(CASE WHEN ("orders".status) = 'completed' THEN 1 END) AS "completed_orders", CAST((COUNT(CASE WHEN ("orders".status) = 'completed' THEN 1 END)) AS DOUBLE PRECISION) / NULLIF((COUNT(*)), 0) AS "completed_share", CAST((SUM("orders".amount)) AS DOUBLE PRECISION) / NULLIF((COUNT(CASE WHEN ("orders".status) = 'completed' THEN 1 END)), 0) AS "revenue_per_completed_order"
FROM shop.orders AS "orders"
WHERE ("orders".ship_region) = $1
GROUP BY 1
ORDER BY "order_count" DESC NULLS LAST, "status" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe"]
