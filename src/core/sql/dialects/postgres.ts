import type { DatePart } from '../ast.js';
import { backslashEscaped, Dialect } from '../dialect.js';

const PARTS: Record<DatePart, string> = {
  hour_of_day: 'HOUR',
  day_of_week: 'ISODOW',
  day_of_month: 'DAY',
  day_of_year: 'DOY',
  week_of_year: 'WEEK',
  month_of_year: 'MONTH',
  quarter_of_year: 'QUARTER',
};

export class PostgresDialect extends Dialect {
  readonly engine = 'postgres' as const;

  /**
   * A backslash is an ordinary character only under standard_conforming_strings (the default, but a
   * server setting): text holding one is written as an escape string, which reads the same either way.
   */
  protected override stringLiteral(text: string): string {
    if (!text.includes('\\')) return super.stringLiteral(text);
    return `E${backslashEscaped(text)}`;
  }

  /**
   * PostgreSQL types an untyped parameter as what it meets: beside an integer column or a SUM of one,
   * 3.5 (or 3000000000 beside an int4) would be an error ("invalid input syntax for type integer")
   * where the comparison should simply hold or not. Such a number goes as NUMERIC, which any number
   * type compares with; a small whole number stays untyped, so the column's own type (and its index) serves.
   */
  protected override valueParam(placeholder: string, value: unknown): string {
    const fitsInteger = typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647;
    return typeof value === 'number' && !fitsInteger ? `CAST(${placeholder} AS NUMERIC)` : placeholder;
  }

  protected toTimeZone(expr: string, timezone: string): string {
    // timestamp AT TIME ZONE 'UTC' → timestamptz; timestamptz AT TIME ZONE tz → wall time there.
    return `((${expr}) AT TIME ZONE 'UTC' AT TIME ZONE ${timezone})`;
  }

  protected datePart(part: DatePart, expr: () => string): string {
    return `CAST(EXTRACT(${PARTS[part]} FROM ${expr()}) AS INTEGER)`;
  }
}
