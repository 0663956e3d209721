SELECT CAST(EXTRACT(ISODOW FROM ("orders".created_at)) AS INTEGER) AS "created_at.day_of_week", CAST(EXTRACT(QUARTER FROM ("orders".created_at)) AS INTEGER) AS "created_at.quarter_of_year", COUNT(*) AS "order_count"
FROM shop.orders AS "orders"
WHERE ("orders".ship_region) = $1
GROUP BY 1, 2
ORDER BY "order_count" DESC NULLS LAST, "created_at.day_of_week" ASC NULLS LAST, "created_at.quarter_of_year" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe"]
