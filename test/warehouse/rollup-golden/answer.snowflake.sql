SELECT CAST(DATE_TRUNC('YEAR', "r"."created_at__month") AS TIMESTAMP_NTZ) AS "created_at.year", CAST(SUM("r"."revenue") AS NUMBER(38,0)) AS "revenue", CAST(CAST(SUM("r"."avg_amount__sum") AS NUMBER(38,2)) AS DOUBLE PRECISION) / NULLIF(CAST(COALESCE(SUM("r"."avg_amount__count"), 0) AS NUMBER(38,0)), 0) AS "avg_amount"
FROM "ROLLUPS"."r0123456789_0011223344556677_orders__monthly" AS "r"
WHERE ("r"."created_at__month" >= TO_TIMESTAMP_NTZ(?)) AND ("r"."region" = ?)
GROUP BY 1
ORDER BY "created_at.year" ASC NULLS LAST
LIMIT 5000;
-- params: ["2024-01-01 00:00:00.000","north"]
