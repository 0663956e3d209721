SELECT * FROM (SELECT (`customers`.segment) AS `customers.segment`, (`orders`.channel) AS `channel`, COUNT(DISTINCT `orders`.customer_id) AS `buyers`, AVG(`orders`.amount) AS `avg_order_value`
FROM shop.orders AS `orders`
LEFT JOIN shop.customers AS `customers` ON (`orders`.customer_id) = (`customers`.id)
WHERE ((`orders`.status) IN (?, ?)) AND (CAST(LOWER((`customers`.name)) AS BINARY) LIKE CAST(LOWER(?) AS BINARY) ESCAPE '!') AND ((`orders`.ship_region) = ?)
GROUP BY 1, 2) AS `ordered`
ORDER BY CASE WHEN `buyers` IS NULL THEN 1 ELSE 0 END, `buyers` DESC, CASE WHEN `customers.segment` IS NULL THEN 1 ELSE 0 END, `customers.segment` ASC, CASE WHEN `channel` IS NULL THEN 1 ELSE 0 END, `channel` ASC
LIMIT 10
-- params: ["completed","refunded","%an%","Europe"]
