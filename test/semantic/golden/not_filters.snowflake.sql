SELECT ("orders".channel) AS "channel", COUNT(*) AS "order_count", SUM("orders".amount) AS "revenue"
FROM shop.orders AS "orders"
LEFT JOIN shop.customers AS "customers" ON ("orders".customer_id) = ("customers".id)
WHERE (((("orders".status) <> ?) OR (("orders".status) IS NULL)) AND ((("customers".name) NOT ILIKE ? ESCAPE '!') OR (("customers".name) IS NULL))) AND ((("orders".channel) NOT ILIKE ? ESCAPE '!') OR (("orders".channel) IS NULL)) AND ((NOT ((("orders".created_at) >= TO_TIMESTAMP_NTZ(?)) AND (("orders".created_at) < TO_TIMESTAMP_NTZ(?)))) OR (("orders".created_at) IS NULL)) AND (("orders".ship_region) = ?)
GROUP BY 1
HAVING (NOT (SUM("orders".amount) > ?)) OR (SUM("orders".amount) IS NULL)
ORDER BY "order_count" DESC NULLS LAST, "channel" ASC NULLS LAST
LIMIT 5000
-- params: ["cancelled","a%","%place","2024-01-01 00:00:00.000","2025-01-01 00:00:00.000","Europe",50000]
