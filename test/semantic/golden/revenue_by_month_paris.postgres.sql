SELECT DATE_TRUNC('month', ((("orders".created_at)) AT TIME ZONE 'UTC' AT TIME ZONE $1)) AS "created_at.month", SUM("orders".amount) AS "revenue"
FROM shop.orders AS "orders"
WHERE ((((("orders".created_at)) AT TIME ZONE 'UTC' AT TIME ZONE $2) >= CAST($3 AS TIMESTAMP)) AND (((("orders".created_at)) AT TIME ZONE 'UTC' AT TIME ZONE $4) < CAST($5 AS TIMESTAMP))) AND (("orders".ship_region) = $6)
GROUP BY 1
ORDER BY "created_at.month" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe/Paris","Europe/Paris","2025-01-01 00:00:00.000","Europe/Paris","2025-07-01 00:00:00.000","Europe"]
