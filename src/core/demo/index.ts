// The demo commerce dataset: a seeded generator and loaders for DuckDB, PostgreSQL and MySQL/MariaDB.
export { DEFAULT_DEMO_ORDERS, DEFAULT_DEMO_SEED, generateDemo } from './generate.js';
export { formatCents, formatUtcTimestamp } from './format.js';
export { loadDuckDb } from './load-duckdb.js';
export { loadMysql, type MysqlLoadOptions } from './load-mysql.js';
export { loadPostgres } from './load-postgres.js';
export { summariseDemo, type DemoTotals } from './totals.js';
export * from './types.js';
export { CHANNELS, ORDER_STATUSES, REGIONS, SEGMENTS } from './vocabulary.js';
