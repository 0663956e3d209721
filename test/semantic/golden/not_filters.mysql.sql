SELECT * FROM (SELECT (`orders`.channel) AS `channel`, COUNT(*) AS `order_count`, SUM(`orders`.amount) AS `revenue`
FROM shop.orders AS `orders`
LEFT JOIN shop.customers AS `customers` ON (`orders`.customer_id) = (`customers`.id)
WHERE ((((`orders`.status) <> ?) OR ((`orders`.status) IS NULL)) AND ((CAST(LOWER((`customers`.name)) AS BINARY) NOT LIKE CAST(LOWER(?) AS BINARY) ESCAPE '!') OR ((`customers`.name) IS NULL))) AND ((CAST(LOWER((`orders`.channel)) AS BINARY) NOT LIKE CAST(LOWER(?) AS BINARY) ESCAPE '!') OR ((`orders`.channel) IS NULL)) AND ((NOT (((`orders`.created_at) >= CAST(? AS DATETIME(3))) AND ((`orders`.created_at) < CAST(? AS DATETIME(3))))) OR ((`orders`.created_at) IS NULL)) AND ((`orders`.ship_region) = ?)
GROUP BY 1
HAVING (NOT (SUM(`orders`.amount) > ?)) OR (SUM(`orders`.amount) IS NULL)) AS `ordered`
ORDER BY CASE WHEN `order_count` IS NULL THEN 1 ELSE 0 END, `order_count` DESC, CASE WHEN `channel` IS NULL THEN 1 ELSE 0 END, `channel` ASC
LIMIT 5000
-- params: ["cancelled","a%","%place","2024-01-01 00:00:00.000","2025-01-01 00:00:00.000","Europe",50000]
