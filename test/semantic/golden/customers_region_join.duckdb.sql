SELECT ("customers".segment) AS "customers.segment", ("orders".channel) AS "channel", COUNT(DISTINCT "orders".customer_id) AS "buyers", AVG("orders".amount) AS "avg_order_value"
FROM shop.orders AS "orders"
LEFT JOIN shop.customers AS "customers" ON ("orders".customer_id) = ("customers".id)
WHERE (("orders".status) IN ($1, $2)) AND (("customers".name) ILIKE $3 ESCAPE '!') AND (("orders".ship_region) = $4)
GROUP BY 1, 2
ORDER BY "buyers" DESC NULLS LAST, "customers.segment" ASC NULLS LAST, "channel" ASC NULLS LAST
LIMIT 10
-- params: ["completed","refunded","%an%","Europe"]
