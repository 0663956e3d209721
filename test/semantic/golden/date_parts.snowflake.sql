SELECT DAYOFWEEKISO(("orders".created_at)) AS "created_at.day_of_week", QUARTER(("orders".created_at)) AS "created_at.quarter_of_year", COUNT(*) AS "order_count"
FROM shop.orders AS "orders"
WHERE ("orders".ship_region) = ?
GROUP BY 1, 2
ORDER BY "order_count" DESC NULLS LAST, "created_at.day_of_week" ASC NULLS LAST, "created_at.quarter_of_year" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe"]
