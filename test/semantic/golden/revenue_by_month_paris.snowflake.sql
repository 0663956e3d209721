SELECT CAST(DATE_TRUNC('MONTH', CONVERT_TIMEZONE('UTC', ?, ("orders".created_at))) AS TIMESTAMP_NTZ) AS "created_at.month", SUM("orders".amount) AS "revenue"
FROM shop.orders AS "orders"
WHERE ((CONVERT_TIMEZONE('UTC', ?, ("orders".created_at)) >= TO_TIMESTAMP_NTZ(?)) AND (CONVERT_TIMEZONE('UTC', ?, ("orders".created_at)) < TO_TIMESTAMP_NTZ(?))) AND (("orders".ship_region) = ?)
GROUP BY 1
ORDER BY "created_at.month" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe/Paris","Europe/Paris","2025-01-01 00:00:00.000","Europe/Paris","2025-07-01 00:00:00.000","Europe"]
