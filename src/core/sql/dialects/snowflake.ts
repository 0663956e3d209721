import type { DatePart } from '../ast.js';
import { backslashEscaped, Dialect } from '../dialect.js';

const PARTS: Record<DatePart, string> = {
  hour_of_day: 'HOUR',
  day_of_week: 'DAYOFWEEKISO',
  day_of_month: 'DAYOFMONTH',
  day_of_year: 'DAYOFYEAR',
  week_of_year: 'WEEKISO',
  month_of_year: 'MONTH',
  quarter_of_year: 'QUARTER',
};

export class SnowflakeDialect extends Dialect {
  readonly engine = 'snowflake' as const;

  /** Snowflake reads a backslash in text as an escape: it is written twice. */
  protected override stringLiteral(text: string): string {
    return backslashEscaped(text);
  }

  protected override placeholder(): string {
    return '?';
  }

  protected override timestampParam(placeholder: string): string {
    return `TO_TIMESTAMP_NTZ(${placeholder})`;
  }

  protected toTimeZone(expr: string, timezone: string): string {
    return `CONVERT_TIMEZONE('UTC', ${timezone}, ${expr})`;
  }

  protected override truncate(granularity: Parameters<Dialect['truncate']>[0], expr: () => string): string {
    // WEEK follows the session's WEEK_START; the driver sets it to 1 (Monday) for ISO weeks.
    return `CAST(DATE_TRUNC('${granularity.toUpperCase()}', ${expr()}) AS TIMESTAMP_NTZ)`;
  }

  protected datePart(part: DatePart, expr: () => string): string {
    return `${PARTS[part]}(${expr()})`;
  }
}
