SELECT SUM("orders".amount) AS "revenue", COUNT(*) AS "order_count"
FROM shop.orders AS "orders"
WHERE ("orders".ship_region) = $1
ORDER BY "revenue" DESC NULLS LAST
LIMIT 5000
-- params: ["Europe"]
