SELECT ("orders".ship_region) AS "region", COUNT(*) AS "order_count"
FROM shop.orders AS "orders"
WHERE ((("orders".channel) = ?) OR (("orders".channel) = ?)) AND (("orders".ship_region) = ?)
GROUP BY 1
HAVING SUM("orders".amount) > ?
ORDER BY "order_count" DESC NULLS LAST, "region" ASC NULLS LAST
LIMIT 5000
-- params: ["web","mobile","Europe",1000]
