SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2;
-- params: ["rollups","r0123456789_0011223344556677_orders__monthly"]

SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('rollup schema ' || $1));
-- params: ["rollups"]

SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1;
-- params: ["rollups"]

CREATE SCHEMA IF NOT EXISTS "rollups";
-- params: []

CREATE TABLE IF NOT EXISTS "rollups"."r0123456789_0011223344556677_orders__monthly" AS SELECT "b"."region" AS "region", CAST("b"."created_at.month" AS TIMESTAMP) AS "created_at__month", "b"."revenue" AS "revenue", "b"."avg_amount__sum" AS "avg_amount__sum", "b"."avg_amount__count" AS "avg_amount__count", "b"."order_count" AS "order_count", "b"."__source_max_time" AS "__source_max_time" FROM (SELECT ("orders".region) AS "region", DATE_TRUNC('month', ("orders".created_at)) AS "created_at.month", SUM(("orders".amount)) AS "revenue", SUM(("orders".amount)) AS "avg_amount__sum", COUNT(("orders".amount)) AS "avg_amount__count", COUNT(*) AS "order_count", (MAX(("orders".created_at))) AS "__source_max_time"
FROM shop.orders AS "orders"
WHERE (("orders".created_at) >= CAST($1 AS TIMESTAMP)) AND (("orders".created_at) < CAST($2 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "created_at.month" ASC NULLS LAST, "region" ASC NULLS LAST
LIMIT 1001) AS "b" WITH NO DATA;
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]

DELETE FROM "rollups"."r0123456789_0011223344556677_orders__monthly" WHERE "created_at__month" >= CAST($1 AS TIMESTAMP) AND "created_at__month" < CAST($2 AS TIMESTAMP);
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]

WITH "b" AS (SELECT ("orders".region) AS "region", DATE_TRUNC('month', ("orders".created_at)) AS "created_at.month", SUM(("orders".amount)) AS "revenue", SUM(("orders".amount)) AS "avg_amount__sum", COUNT(("orders".amount)) AS "avg_amount__count", COUNT(*) AS "order_count", (MAX(("orders".created_at))) AS "__source_max_time"
FROM shop.orders AS "orders"
WHERE (("orders".created_at) >= CAST($1 AS TIMESTAMP)) AND (("orders".created_at) < CAST($2 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "created_at.month" ASC NULLS LAST, "region" ASC NULLS LAST
LIMIT 1001), "i" AS (INSERT INTO "rollups"."r0123456789_0011223344556677_orders__monthly" ("region", "created_at__month", "revenue", "avg_amount__sum", "avg_amount__count", "order_count", "__source_max_time") SELECT "b"."region", CAST("b"."created_at.month" AS TIMESTAMP), "b"."revenue", "b"."avg_amount__sum", "b"."avg_amount__count", "b"."order_count", "b"."__source_max_time" FROM "b" RETURNING 1) SELECT (SELECT COUNT(*) FROM "i") AS "rows", (SELECT MAX("b"."__source_max_time") FROM "b") AS "source_max_time";
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]
