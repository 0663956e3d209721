// Renders the SQL tree to one engine's text plus bound parameters. The default renderer speaks the
// common ground (ANSI with PostgreSQL leanings); each dialect overrides the few hooks where engines
// differ: quoting, placeholders, time zones, date truncation and parts, null ordering, LIKE.
import type { WarehouseEngine } from '../warehouse/types.js';
import type { DatePart, Expr, FromItem, OrderItem, Select, Union } from './ast.js';
import type { Granularity } from '../semantic/model.js';

export interface RenderedSql {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Collects parameters in order of appearance while rendering; an inline sink collects none, and each
 * value is written into the text as a literal instead (see Dialect.renderRunnable).
 */
export class ParamSink {
  readonly values: unknown[] = [];
  constructor(readonly inline = false) {}
  add(value: unknown): number {
    this.values.push(value);
    return this.values.length;
  }
}

/** Text quoted for engines that read a backslash as an escape: both the backslash and the quote are doubled. */
export function backslashEscaped(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export abstract class Dialect {
  abstract readonly engine: WarehouseEngine;
  /** `NULLS LAST` is understood (else it is emulated). */
  protected readonly supportsNullsLast: boolean = true;

  render(select: Select): RenderedSql {
    const sink = new ParamSink();
    const sql = this.select(select, sink);
    return { sql, params: sink.values };
  }

  /**
   * The same statement with each bound value written as a literal of this engine, so the text runs on
   * its own (in the SQL editor, from the history) and gives the rows the bound run gives. Rendered from
   * the tree, each value at its own node: never by replacing placeholders in the text.
   */
  renderRunnable(select: Select): string {
    return this.select(select, new ParamSink(true));
  }

  // ---- hooks ---------------------------------------------------------------------------------

  quoteIdentifier(name: string): string {
    return `"${name.replaceAll('"', '""')}"`;
  }

  protected placeholder(index: number): string {
    return `$${index}`;
  }

  /** A value as a literal of this engine: text quoted by its rules, numbers and booleans as they are. */
  literal(value: unknown): string {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'boolean') return this.booleanLiteral(value);
    if (typeof value === 'bigint') return value < 0n ? `(${value})` : String(value);
    if (typeof value === 'number') {
      // Filters refuse non-finite numbers before anything is compiled; a literal could not say them.
      if (!Number.isFinite(value)) throw new Error(`${value} has no SQL literal`);
      // Parenthesised when negative, so that no operator before it can make "--" (a comment).
      return value < 0 || Object.is(value, -0) ? `(${value})` : String(value);
    }
    return this.stringLiteral(typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value));
  }

  /** Standard SQL: a quote is written twice, a backslash is an ordinary character. */
  protected stringLiteral(text: string): string {
    return `'${text.replaceAll("'", "''")}'`;
  }

  /** A bound value: a placeholder (its value goes to the parameters), or a literal in runnable text. */
  private bind(value: unknown, sink: ParamSink): string {
    return sink.inline ? this.literal(value) : this.placeholder(sink.add(value));
  }

  /** A placeholder whose type the engine infers from what it meets; a dialect may type it (PostgreSQL). */
  protected valueParam(placeholder: string, _value: unknown): string {
    return placeholder;
  }

  protected timestampParam(placeholder: string): string {
    return `CAST(${placeholder} AS TIMESTAMP)`;
  }

  /** Converts a time-zone-less UTC timestamp into the wall time of `timezone` (bound as a parameter). */
  protected abstract toTimeZone(expr: string, timezone: string): string;

  // `expr` renders the operand each time it is called: a dialect that needs the operand twice calls it
  // twice, so that a `?` placeholder inside is bound twice (a `$n` could be repeated, a `?` cannot).
  protected truncate(granularity: Granularity, expr: () => string): string {
    return `DATE_TRUNC('${granularity}', ${expr()})`;
  }

  protected abstract datePart(part: DatePart, expr: () => string): string;

  protected like(expr: string, pattern: string, negate: boolean): string {
    return `${expr} ${negate ? 'NOT ILIKE' : 'ILIKE'} ${pattern} ESCAPE '!'`;
  }

  protected nullSafeEq(left: string, right: string): string {
    return `${left} IS NOT DISTINCT FROM ${right}`;
  }

  /**
   * A safe quotient: the numerator as a double, so that no engine divides integers as integers
   * (PostgreSQL would say 1 / 2 = 0), over NULLIF(denominator, 0), so that a zero denominator gives NULL
   * instead of an error (PostgreSQL, DuckDB, Snowflake) or a warning (MySQL).
   */
  protected divide(numerator: string, denominator: string): string {
    return `CAST(${numerator} AS DOUBLE PRECISION) / NULLIF(${denominator}, 0)`;
  }

  protected booleanLiteral(value: boolean): string {
    return value ? 'TRUE' : 'FALSE';
  }

  protected limit(count: number): string {
    return `LIMIT ${Math.trunc(count)}`;
  }

  // ---- rendering -----------------------------------------------------------------------------

  protected select(s: Select, sink: ParamSink): string {
    const parts: string[] = [];
    if (s.with?.length) {
      const ctes = s.with.map((cte) => `${this.quoteIdentifier(cte.name)} AS (${this.selectOrUnion(cte.select, sink)})`);
      parts.push(`WITH ${ctes.join(', ')}`);
    }
    if (s.orderBy?.length && !this.supportsNullsLast) {
      // Emulating NULLS LAST takes an expression over the output columns, which MySQL accepts only
      // as columns of a derived table (not as aliases of aggregates): order the wrapped query.
      const inner = this.select({ ...s, with: [], orderBy: [], limit: undefined }, sink);
      parts.push(`SELECT * FROM (${inner}) AS ${this.quoteIdentifier('ordered')}`);
      parts.push(`ORDER BY ${s.orderBy.flatMap((o) => this.orderItem(o, sink)).join(', ')}`);
      if (s.limit !== undefined) parts.push(this.limit(s.limit));
      return parts.join('\n');
    }
    const items = s.items.map((item) => `${this.expr(item.expr, sink)} AS ${this.quoteIdentifier(item.alias)}`);
    parts.push(`SELECT ${s.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`);
    parts.push(`FROM ${this.from(s.from, sink)}`);
    for (const join of s.joins ?? []) {
      parts.push(`${join.type === 'left' ? 'LEFT JOIN' : 'INNER JOIN'} ${this.from(join.from, sink)} ON ${this.expr(join.on, sink)}`);
    }
    if (s.where) parts.push(`WHERE ${this.expr(s.where, sink)}`);
    if (s.groupBy?.length) parts.push(`GROUP BY ${s.groupBy.map((position) => Math.trunc(position)).join(', ')}`);
    if (s.having) parts.push(`HAVING ${this.expr(s.having, sink)}`);
    if (s.orderBy?.length) parts.push(`ORDER BY ${s.orderBy.flatMap((o) => this.orderItem(o, sink)).join(', ')}`);
    if (s.limit !== undefined) parts.push(this.limit(s.limit));
    return parts.join('\n');
  }

  private selectOrUnion(s: Select | Union, sink: ParamSink): string {
    if ('kind' in s) return s.selects.map((part) => this.select(part, sink)).join('\nUNION\n');
    return this.select(s, sink);
  }

  protected orderItem(item: OrderItem, sink: ParamSink): string[] {
    const expr = this.expr(item.expr, sink);
    const direction = item.direction === 'desc' ? 'DESC' : 'ASC';
    // Nulls last in both directions, the same on every engine, so results agree row for row.
    if (this.supportsNullsLast) return [`${expr} ${direction} NULLS LAST`];
    return [`CASE WHEN ${expr} IS NULL THEN 1 ELSE 0 END`, `${expr} ${direction}`];
  }

  protected from(item: FromItem, sink: ParamSink): string {
    const alias = this.quoteIdentifier(item.alias);
    switch (item.kind) {
      case 'table':
        return `${item.name} AS ${alias}`;
      case 'sql':
        return `(${item.sql}) AS ${alias}`;
      case 'select':
        return `(${this.select(item.select, sink)}) AS ${alias}`;
      case 'cte':
        return `${this.quoteIdentifier(item.name)} AS ${alias}`;
    }
  }

  expr(e: Expr, sink: ParamSink): string {
    switch (e.kind) {
      case 'raw':
        return e.sql;
      case 'seq':
        return e.items.map((item) => this.expr(item, sink)).join('');
      case 'column':
        return e.table ? `${this.quoteIdentifier(e.table)}.${this.quoteIdentifier(e.name)}` : this.quoteIdentifier(e.name);
      case 'param': {
        const placeholder = this.bind(e.value, sink);
        if (e.cast === 'timestamp') return this.timestampParam(placeholder);
        return sink.inline ? placeholder : this.valueParam(placeholder, e.value);
      }
      case 'binary':
        return `${this.expr(e.left, sink)} ${e.op} ${this.expr(e.right, sink)}`;
      case 'logical':
        return e.items.map((item) => `(${this.expr(item, sink)})`).join(e.op === 'and' ? ' AND ' : ' OR ');
      case 'not':
        return `NOT (${this.expr(e.expr, sink)})`;
      case 'in':
        return `${this.expr(e.expr, sink)} ${e.negate ? 'NOT IN' : 'IN'} (${e.values.map((v) => this.expr(v, sink)).join(', ')})`;
      case 'isNull':
        return `${this.expr(e.expr, sink)} IS ${e.negate ? 'NOT NULL' : 'NULL'}`;
      case 'like':
        return this.like(this.expr(e.expr, sink), this.expr(e.pattern, sink), e.negate);
      case 'nullSafeEq':
        return this.nullSafeEq(this.expr(e.left, sink), this.expr(e.right, sink));
      case 'aggregate': {
        const inner = e.expr ? this.expr(e.expr, sink) : '*';
        return `${e.fn.toUpperCase()}(${e.distinct ? 'DISTINCT ' : ''}${inner})`;
      }
      case 'divide':
        return this.divide(this.expr(e.numerator, sink), this.expr(e.denominator, sink));
      case 'case':
        return `CASE WHEN ${this.expr(e.when, sink)} THEN ${this.expr(e.then, sink)} END`;
      case 'toTimeZone':
        return this.toTimeZone(this.expr(e.expr, sink), this.bind(e.timezone, sink));
      case 'truncate':
        return this.truncate(e.granularity, () => this.expr(e.expr, sink));
      case 'datePart':
        return this.datePart(e.part, () => this.expr(e.expr, sink));
      case 'paren':
        return `(${this.expr(e.expr, sink)})`;
      case 'literal':
        return typeof e.value === 'number' ? String(e.value) : this.booleanLiteral(e.value === 'true');
    }
  }
}
