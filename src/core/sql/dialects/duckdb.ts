import type { DatePart } from '../ast.js';
import { Dialect } from '../dialect.js';

const PARTS: Record<DatePart, string> = {
  hour_of_day: 'hour',
  day_of_week: 'isodow',
  day_of_month: 'dayofmonth',
  day_of_year: 'dayofyear',
  week_of_year: 'weekofyear',
  month_of_year: 'month',
  quarter_of_year: 'quarter',
};

export class DuckDbDialect extends Dialect {
  readonly engine = 'duckdb' as const;

  protected toTimeZone(expr: string, timezone: string): string {
    // timezone('UTC', timestamp) reads the wall time as UTC; timezone(tz, timestamptz) gives wall time in tz.
    return `timezone(${timezone}, timezone('UTC', CAST(${expr} AS TIMESTAMP)))`;
  }

  protected override truncate(granularity: Parameters<Dialect['truncate']>[0], expr: () => string): string {
    // DuckDB returns a DATE when truncating a DATE; a timestamp keeps results alike across engines.
    return `CAST(DATE_TRUNC('${granularity}', ${expr()}) AS TIMESTAMP)`;
  }

  protected datePart(part: DatePart, expr: () => string): string {
    return `CAST(${PARTS[part]}(${expr()}) AS INTEGER)`;
  }
}
