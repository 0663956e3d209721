SELECT * FROM (SELECT SUM(`orders`.amount) AS `revenue`, COUNT(*) AS `order_count`
FROM shop.orders AS `orders`
WHERE (`orders`.ship_region) = ?) AS `ordered`
ORDER BY CASE WHEN `revenue` IS NULL THEN 1 ELSE 0 END, `revenue` DESC
LIMIT 5000
-- params: ["Europe"]
