SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?;
-- params: ["ROLLUPS","r0123456789_0011223344556677_orders__monthly"]

SELECT 1 FROM information_schema.schemata WHERE schema_name = ?;
-- params: ["ROLLUPS"]

CREATE SCHEMA IF NOT EXISTS "ROLLUPS";
-- params: []

CREATE TABLE IF NOT EXISTS "ROLLUPS"."r0123456789_0011223344556677_orders__monthly" AS SELECT "b"."region" AS "region", CAST("b"."created_at.month" AS TIMESTAMP_NTZ) AS "created_at__month", "b"."revenue" AS "revenue", "b"."avg_amount__sum" AS "avg_amount__sum", "b"."avg_amount__count" AS "avg_amount__count", "b"."order_count" AS "order_count", "b"."__source_max_time" AS "__source_max_time" FROM (SELECT ("orders".region) AS "region", CAST(DATE_TRUNC('MONTH', ("orders".created_at)) AS TIMESTAMP_NTZ) AS "created_at.month", SUM(("orders".amount)) AS "revenue", SUM(("orders".amount)) AS "avg_amount__sum", COUNT(("orders".amount)) AS "avg_amount__count", COUNT(*) AS "order_count", (MAX(("orders".created_at))) AS "__source_max_time"
FROM shop.orders AS "orders"
WHERE (("orders".created_at) >= TO_TIMESTAMP_NTZ(?)) AND (("orders".created_at) < TO_TIMESTAMP_NTZ(?))
GROUP BY 1, 2
ORDER BY "created_at.month" ASC NULLS LAST, "region" ASC NULLS LAST
LIMIT 1001) AS "b" WHERE 1 = 0;
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]

CREATE TEMPORARY TABLE "ROLLUPS"."r0123456789_0011223344556677_orders__monthly__build" AS SELECT * FROM (SELECT ("orders".region) AS "region", CAST(DATE_TRUNC('MONTH', ("orders".created_at)) AS TIMESTAMP_NTZ) AS "created_at.month", SUM(("orders".amount)) AS "revenue", SUM(("orders".amount)) AS "avg_amount__sum", COUNT(("orders".amount)) AS "avg_amount__count", COUNT(*) AS "order_count", (MAX(("orders".created_at))) AS "__source_max_time"
FROM shop.orders AS "orders"
WHERE (("orders".created_at) >= TO_TIMESTAMP_NTZ(?)) AND (("orders".created_at) < TO_TIMESTAMP_NTZ(?))
GROUP BY 1, 2
ORDER BY "created_at.month" ASC NULLS LAST, "region" ASC NULLS LAST
LIMIT 1001) AS "b";
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]

BEGIN;
-- params: []

SELECT COUNT(*) AS "rows", MAX("__source_max_time") AS "source_max_time" FROM "ROLLUPS"."r0123456789_0011223344556677_orders__monthly__build";
-- params: []

DELETE FROM "ROLLUPS"."r0123456789_0011223344556677_orders__monthly" WHERE "created_at__month" >= CAST(? AS TIMESTAMP_NTZ) AND "created_at__month" < CAST(? AS TIMESTAMP_NTZ);
-- params: ["2024-01-01 00:00:00.000","2025-01-01 00:00:00.000"]

INSERT INTO "ROLLUPS"."r0123456789_0011223344556677_orders__monthly" ("region", "created_at__month", "revenue", "avg_amount__sum", "avg_amount__count", "order_count", "__source_max_time") SELECT "b"."region", CAST("b"."created_at.month" AS TIMESTAMP_NTZ), "b"."revenue", "b"."avg_amount__sum", "b"."avg_amount__count", "b"."order_count", "b"."__source_max_time" FROM "ROLLUPS"."r0123456789_0011223344556677_orders__monthly__build" AS "b";
-- params: []

COMMIT;
-- params: []
