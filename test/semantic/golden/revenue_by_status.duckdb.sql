SELECT ("orders".status) AS "status", SUM("orders".amount) AS "revenue", SUM(CASE WHEN ("orders".status) = 'completed' THEN "orders".amount END) AS "completed_revenue", (SUM("orders".amount)) / NULLIF((COUNT(*)), 0) AS "revenue_per_order"
FROM shop.orders AS "orders"
WHERE ("orders".ship_region) = $1
GROUP BY 1
ORDER BY "revenue" DESC NULLS LAST, "status" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe"]
