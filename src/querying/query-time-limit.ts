/**
 * Time limit of one query on a warehouse: raw SQL and every governed run (structured queries, questions,
 * scenes, mosaics, signals). Leases that guard a query (a signal run's) must outlast it.
 */
export const WAREHOUSE_QUERY_TIMEOUT_MS = 30_000;
