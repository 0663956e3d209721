SELECT DATE_TRUNC('year', "r"."created_at__month") AS "created_at.year", CAST(SUM("r"."revenue") AS BIGINT) AS "revenue", CAST(CAST(SUM("r"."avg_amount__sum") AS NUMERIC) AS DOUBLE PRECISION) / NULLIF(CAST(COALESCE(SUM("r"."avg_amount__count"), 0) AS BIGINT), 0) AS "avg_amount"
FROM "rollups"."r0123456789_0011223344556677_orders__monthly" AS "r"
WHERE ("r"."created_at__month" >= CAST($1 AS TIMESTAMP)) AND ("r"."region" = $2)
GROUP BY 1
ORDER BY "created_at.year" ASC NULLS LAST
LIMIT 5000;
-- params: ["2024-01-01 00:00:00.000","north"]
