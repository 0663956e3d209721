SELECT ("orders".channel) AS "channel", COUNT(*) AS "order_count", SUM("orders".amount) AS "revenue"
FROM shop.orders AS "orders"
LEFT JOIN shop.customers AS "customers" ON ("orders".customer_id) = ("customers".id)
WHERE (((("orders".status) <> $1) OR (("orders".status) IS NULL)) AND ((("customers".name) NOT ILIKE $2 ESCAPE '!') OR (("customers".name) IS NULL))) AND ((("orders".channel) NOT ILIKE $3 ESCAPE '!') OR (("orders".channel) IS NULL)) AND ((NOT ((("orders".created_at) >= CAST($4 AS TIMESTAMP)) AND (("orders".created_at) < CAST($5 AS TIMESTAMP)))) OR (("orders".created_at) IS NULL)) AND (("orders".ship_region) = $6)
GROUP BY 1
HAVING (NOT (SUM("orders".amount) > $7)) OR (SUM("orders".amount) IS NULL)
ORDER BY "order_count" DESC NULLS LAST, "channel" ASC NULLS LAST
LIMIT 5000
-- params: ["cancelled","a%","%place","2024-01-01 00:00:00.000","2025-01-01 00:00:00.000","Europe",50000]
