SELECT * FROM (SELECT CAST(DATE_FORMAT(CONVERT_TZ((`orders`.created_at), '+00:00', ?), '%Y-%m-01') AS DATETIME) AS `created_at.month`, SUM(`orders`.amount) AS `revenue`
FROM shop.orders AS `orders`
WHERE ((CONVERT_TZ((`orders`.created_at), '+00:00', ?) >= CAST(? AS DATETIME(3))) AND (CONVERT_TZ((`orders`.created_at), '+00:00', ?) < CAST(? AS DATETIME(3)))) AND ((`orders`.ship_region) = ?)
GROUP BY 1) AS `ordered`
ORDER BY CASE WHEN `created_at.month` IS NULL THEN 1 ELSE 0 END, `created_at.month` ASC
LIMIT 5000
-- params: ["Europe/Paris","Europe/Paris","2025-01-01 00:00:00.000","Europe/Paris","2025-07-01 00:00:00.000","Europe"]
