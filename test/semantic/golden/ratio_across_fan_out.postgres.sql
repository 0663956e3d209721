WITH "g0" AS (SELECT "k"."d0" AS "d0", CAST((SUM("orders".amount)) AS DOUBLE PRECISION) / NULLIF((COUNT(CASE WHEN ("orders".status) = 'completed' THEN ("orders".id) END)), 0) AS "m0"
FROM (SELECT DISTINCT ("orders".channel) AS "d0", ("orders".id) AS "row_key"
FROM shop.orders AS "orders"
LEFT JOIN shop.order_items AS "order_items" ON ("order_items".order_id) = ("orders".id)
WHERE ("orders".ship_region) = $1) AS "k"
LEFT JOIN shop.orders AS "orders" ON ("orders".id) = "k"."row_key"
GROUP BY 1), "g1" AS (SELECT ("orders".channel) AS "d0", CAST((SUM("order_items".quantity)) AS DOUBLE PRECISION) / NULLIF((COUNT(("order_items".id))), 0) AS "m0"
FROM shop.orders AS "orders"
LEFT JOIN shop.order_items AS "order_items" ON ("order_items".order_id) = ("orders".id)
WHERE ("orders".ship_region) = $2
GROUP BY 1), "spine" AS (SELECT "g0"."d0" AS "d0"
FROM "g0" AS "g0"
UNION
SELECT "g1"."d0" AS "d0"
FROM "g1" AS "g1")
SELECT "spine"."d0" AS "channel", "g0"."m0" AS "revenue_per_completed_order", "g1"."m0" AS "order_items.units_per_line"
FROM "spine" AS "spine"
LEFT JOIN "g0" AS "g0" ON "spine"."d0" IS NOT DISTINCT FROM "g0"."d0"
LEFT JOIN "g1" AS "g1" ON "spine"."d0" IS NOT DISTINCT FROM "g1"."d0"
ORDER BY "revenue_per_completed_order" DESC NULLS LAST, "channel" ASC NULLS LAST
LIMIT 5000
-- params: ["Europe","Europe"]
