SELECT * FROM (SELECT (`orders`.ship_region) AS `region`, COUNT(*) AS `order_count`
FROM shop.orders AS `orders`
WHERE (((`orders`.channel) = ?) OR ((`orders`.channel) = ?)) AND ((`orders`.ship_region) = ?)
GROUP BY 1
HAVING SUM(`orders`.amount) > ?) AS `ordered`
ORDER BY CASE WHEN `order_count` IS NULL THEN 1 ELSE 0 END, `order_count` DESC, CASE WHEN `region` IS NULL THEN 1 ELSE 0 END, `region` ASC
LIMIT 5000
-- params: ["web","mobile","Europe",1000]
