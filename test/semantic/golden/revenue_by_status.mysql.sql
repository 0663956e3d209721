SELECT * FROM (SELECT (`orders`.status) AS `status`, SUM(`orders`.amount) AS `revenue`, SUM(CASE WHEN (`orders`.status) = 'completed' THEN `orders`.amount END) AS `completed_revenue`, (SUM(`orders`.amount)) / NULLIF((COUNT(*)), 0) AS `revenue_per_order`
FROM shop.orders AS `orders`
WHERE (`orders`.ship_region) = ?
GROUP BY 1) AS `ordered`
ORDER BY CASE WHEN `revenue` IS NULL THEN 1 ELSE 0 END, `revenue` DESC, CASE WHEN `status` IS NULL THEN 1 ELSE 0 END, `status` ASC
LIMIT 5000
-- params: ["Europe"]
