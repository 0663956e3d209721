import type { DatePart } from '../ast.js';
import { backslashEscaped, Dialect } from '../dialect.js';
import type { Granularity } from '../../semantic/model.js';

const PARTS: Record<DatePart, (expr: () => string) => string> = {
  hour_of_day: (e) => `HOUR(${e()})`,
  day_of_week: (e) => `(WEEKDAY(${e()}) + 1)`, // ISO: Monday 1 … Sunday 7
  day_of_month: (e) => `DAYOFMONTH(${e()})`,
  day_of_year: (e) => `DAYOFYEAR(${e()})`,
  week_of_year: (e) => `WEEK(${e()}, 3)`, // mode 3: ISO 8601 weeks
  month_of_year: (e) => `MONTH(${e()})`,
  quarter_of_year: (e) => `QUARTER(${e()})`,
};

const TRUNCATE: Record<Granularity, (expr: () => string) => string> = {
  second: (e) => `DATE_FORMAT(${e()}, '%Y-%m-%d %H:%i:%s')`,
  minute: (e) => `DATE_FORMAT(${e()}, '%Y-%m-%d %H:%i:00')`,
  hour: (e) => `DATE_FORMAT(${e()}, '%Y-%m-%d %H:00:00')`,
  day: (e) => `DATE(${e()})`,
  week: (e) => `DATE_SUB(DATE(${e()}), INTERVAL WEEKDAY(${e()}) DAY)`, // back to Monday
  month: (e) => `DATE_FORMAT(${e()}, '%Y-%m-01')`,
  quarter: (e) => `MAKEDATE(YEAR(${e()}), 1) + INTERVAL (QUARTER(${e()}) - 1) QUARTER`,
  year: (e) => `DATE_FORMAT(${e()}, '%Y-01-01')`,
};

/** MySQL and MariaDB. */
export class MySqlDialect extends Dialect {
  readonly engine = 'mysql' as const;
  protected override readonly supportsNullsLast = false;

  override quoteIdentifier(name: string): string {
    return `\`${name.replaceAll('`', '``')}\``;
  }

  /** MySQL and MariaDB read a backslash in text as an escape (the driver keeps NO_BACKSLASH_ESCAPES off): it is written twice. */
  protected override stringLiteral(text: string): string {
    return backslashEscaped(text);
  }

  protected override placeholder(): string {
    return '?';
  }

  protected override timestampParam(placeholder: string): string {
    return `CAST(${placeholder} AS DATETIME(3))`;
  }

  protected toTimeZone(expr: string, timezone: string): string {
    // Named zones need the server's time zone tables (mariadb-tzinfo-to-sql); see docs/operations.md.
    return `CONVERT_TZ(${expr}, '+00:00', ${timezone})`;
  }

  protected override truncate(granularity: Granularity, expr: () => string): string {
    return `CAST(${TRUNCATE[granularity](expr)} AS DATETIME)`;
  }

  protected datePart(part: DatePart, expr: () => string): string {
    return PARTS[part](expr);
  }

  protected override like(expr: string, pattern: string, negate: boolean): string {
    // Case-insensitive like ILIKE elsewhere, but not accent-insensitive as MySQL's default collations
    // are ('Á' LIKE 'a'): lower both sides, then compare bytes.
    return `CAST(LOWER(${expr}) AS BINARY) ${negate ? 'NOT LIKE' : 'LIKE'} CAST(LOWER(${pattern}) AS BINARY) ESCAPE '!'`;
  }

  protected override nullSafeEq(left: string, right: string): string {
    return `${left} <=> ${right}`;
  }

  /** MySQL and MariaDB cast to DOUBLE, not DOUBLE PRECISION (a syntax error there). */
  protected override divide(numerator: string, denominator: string): string {
    return `CAST(${numerator} AS DOUBLE) / NULLIF(${denominator}, 0)`;
  }

  protected override booleanLiteral(value: boolean): string {
    return value ? '1' : '0';
  }
}
