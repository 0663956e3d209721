// Pure mapping from a Snowflake connection config to the SDK's connection options and to the
// session settings every run starts with. Kept apart from the driver so it is testable offline.
import type { ConnectionOptions } from 'snowflake-sdk';
import type { ConnectionConfig } from './types.js';

export type SnowflakeConfig = Extract<ConnectionConfig, { engine: 'snowflake' }>;

export function snowflakeConnectionOptions(config: SnowflakeConfig): ConnectionOptions {
  return {
    account: config.account,
    username: config.username,
    password: config.password,
    warehouse: config.warehouse,
    database: config.database,
    schema: config.schema,
    role: config.role,
    application: 'analytics-warehouse',
    // Numbers and dates arrive as text, formatted by the session settings below: no float rounding,
    // no JS Date in the process's local time zone.
    fetchAsString: ['Number', 'Date', 'JSON'],
    rowMode: 'array',
    clientSessionKeepAlive: false,
  };
}

/**
 * `ALTER SESSION` run before every statement. Snowflake has no read-only transaction: one statement
 * per call, a time limit, and autocommit off so that DML a too-powerful role might run is rolled back
 * (DDL still commits on its own: the role must only be granted SELECT/USAGE).
 */
export function snowflakeSessionSql(timeoutMs: number): string {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return [
    'ALTER SESSION SET',
    'MULTI_STATEMENT_COUNT = 1,',
    `STATEMENT_TIMEOUT_IN_SECONDS = ${seconds},`,
    'AUTOCOMMIT = FALSE,',
    "TIMEZONE = 'UTC',",
    // ISO weeks (Monday first) for DATE_TRUNC('WEEK'), whatever the account's default.
    'WEEK_START = 1,',
    "DATE_OUTPUT_FORMAT = 'YYYY-MM-DD',",
    `TIMESTAMP_NTZ_OUTPUT_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.FF3',`,
    `TIMESTAMP_LTZ_OUTPUT_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.FF3TZH:TZM',`,
    `TIMESTAMP_TZ_OUTPUT_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.FF3TZH:TZM',`,
    'STRICT_JSON_OUTPUT = TRUE',
  ].join(' ');
}
