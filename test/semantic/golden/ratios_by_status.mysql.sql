SELECT * FROM (SELECT (`orders`.status) AS `status`, COUNT(*) AS `order_count`, COUNT(CASE WHEN (`orders`.status) = 'completed' THEN 1 END) AS `completed_orders`, CAST((COUNT(CASE WHEN (`orders`.status) = 'completed' THEN 1 END)) AS DOUBLE) / NULLIF((COUNT(*)), 0) AS `completed_share`, CAST((SUM(`orders`.amount)) AS DOUBLE) / NULLIF((COUNT(CASE WHEN (`orders`.status) = 'completed' THEN 1 END)), 0) AS `revenue_per_completed_order`
FROM shop.orders AS `orders`
WHERE (`orders`.ship_region) = ?
GROUP BY 1) AS `ordered`
ORDER BY CASE WHEN `order_count` IS NULL THEN 1 ELSE 0 END, `order_count` DESC, CASE WHEN `status` IS NULL THEN 1 ELSE 0 END, `status` ASC
LIMIT 5000
-- params: ["Europe"]
