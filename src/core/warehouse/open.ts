// Picks the driver for a connection config. Snowflake's SDK is heavy, so it is imported only when a
// Snowflake connection is actually used.
import { DuckDbWarehouse } from './duckdb.js';
import { MysqlWarehouse } from './mysql.js';
import { PostgresWarehouse } from './postgres.js';
import type { PoolOptions } from './pool-options.js';
import { SnowflakeWarehouse } from './snowflake.js';
import type { ConnectionConfig, Warehouse } from './types.js';

/** Opens a warehouse; connections are made lazily, on the first run. */
export function openWarehouse(config: ConnectionConfig, options: PoolOptions = {}): Warehouse {
  switch (config.engine) {
    case 'postgres':
      return new PostgresWarehouse(config, options);
    case 'mysql':
      return new MysqlWarehouse(config, options);
    case 'duckdb':
      return new DuckDbWarehouse(config, options);
    case 'snowflake':
      return new SnowflakeWarehouse(config, options);
  }
}
