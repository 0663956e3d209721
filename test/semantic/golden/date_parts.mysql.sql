SELECT * FROM (SELECT (WEEKDAY((`orders`.created_at)) + 1) AS `created_at.day_of_week`, QUARTER((`orders`.created_at)) AS `created_at.quarter_of_year`, COUNT(*) AS `order_count`
FROM shop.orders AS `orders`
WHERE (`orders`.ship_region) = ?
GROUP BY 1, 2) AS `ordered`
ORDER BY CASE WHEN `order_count` IS NULL THEN 1 ELSE 0 END, `order_count` DESC, CASE WHEN `created_at.day_of_week` IS NULL THEN 1 ELSE 0 END, `created_at.day_of_week` ASC, CASE WHEN `created_at.quarter_of_year` IS NULL THEN 1 ELSE 0 END, `created_at.quarter_of_year` ASC
LIMIT 5000
-- params: ["Europe"]
