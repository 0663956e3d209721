SELECT CAST(DATE_TRUNC('month', timezone($1, timezone('UTC', CAST(("orders".created_at) AS TIMESTAMP)))) AS TIMESTAMP) AS "created_at.month", SUM("orders".amount) AS "revenue"
FROM shop.orders AS "orders"
WHERE ((timezone($2, timezone('UTC', CAST(("orders".created_at) AS TIMESTAMP))) >= CAST($3 AS TIMESTAMP)) AND (timezone($4, timezone('UTC', CAST(("orders".created_at) AS TIMESTAMP))) < CAST($5 AS TIMESTAMP))) AND (("orders".ship_region) = $6)
GROUP BY 1
ORDER BY "created_at.month" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe/Paris","Europe/Paris","2025-01-01 00:00:00.000","Europe/Paris","2025-07-01 00:00:00.000","Europe"]
