SELECT ("orders".ship_region) AS "region", COUNT(*) AS "order_count"
FROM shop.orders AS "orders"
WHERE ((("orders".channel) = $1) OR (("orders".channel) = $2)) AND (("orders".ship_region) = $3)
GROUP BY 1
HAVING SUM("orders".amount) > $4
ORDER BY "order_count" DESC NULLS LAST, "region" ASC NULLS LAST
LIMIT 5000
-- params: ["web","mobile","Europe",1000]
