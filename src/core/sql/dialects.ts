// The explicit registry of dialects, one per warehouse engine.
import type { WarehouseEngine } from '../warehouse/types.js';
import type { Dialect } from './dialect.js';
import { DuckDbDialect } from './dialects/duckdb.js';
import { MySqlDialect } from './dialects/mysql.js';
import { PostgresDialect } from './dialects/postgres.js';
import { SnowflakeDialect } from './dialects/snowflake.js';

export const DIALECTS: Readonly<Record<WarehouseEngine, Dialect>> = {
  postgres: new PostgresDialect(),
  mysql: new MySqlDialect(),
  duckdb: new DuckDbDialect(),
  snowflake: new SnowflakeDialect(),
};
