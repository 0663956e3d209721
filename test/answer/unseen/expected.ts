// Runs the hand-written expected SQL straight on the domain's DuckDB file, with DuckDB's own client:
// the answers under test never pass through the product's compiler, planner or warehouse driver.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Expected } from './types.js';

/** A key cell: text, or null for the NULL group. Numbers and dates are read as text. */
export type Key = string | null;

export interface ResultRow {
  readonly keys: readonly Key[];
  readonly value: number | null;
}

export type ExpectedResult =
  | { readonly kind: 'value'; readonly value: number | null }
  | { readonly kind: 'rows'; readonly rows: readonly ResultRow[] }
  | {
      readonly kind: 'ranked';
      readonly rows: readonly ResultRow[];
      /** The number of the first group left out by the LIMIT (null when none is): a tie with the last member would make the set ill-posed. */
      readonly firstLeftOut: number | null;
    }
  | { readonly kind: 'compared'; readonly current: number | null; readonly comparison: number | null }
  | { readonly kind: 'shares'; readonly rows: readonly ResultRow[] };

export function toNumber(cell: unknown): number | null {
  if (cell === null || cell === undefined) return null;
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'bigint') return Number(cell);
  if (typeof cell === 'string' && cell.trim() !== '' && Number.isFinite(Number(cell))) return Number(cell);
  return Number.NaN;
}

/** Dates and timestamps as their day ('2024-03-01'), so a month bucket reads the same on both sides. */
export function toKey(cell: unknown): Key {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  const text = String(cell);
  return /^\d{4}-\d{2}-\d{2}([ T]|$)/.test(text) ? text.slice(0, 10) : text;
}

const LIMIT = /\bLIMIT (\d+)\s*$/i;

const resultRows = (rows: readonly unknown[][]): ResultRow[] => rows.map((row) => ({ keys: row.slice(0, -1).map(toKey), value: toNumber(row.at(-1)) }));

async function run(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  try {
    return (await connection.runAndReadAll(sql)).getRowsJS();
  } catch (error) {
    throw new Error(`expected SQL failed: ${sql}\n${(error as Error).message}`);
  }
}

async function oneNumber(connection: DuckDBConnection, sql: string): Promise<number | null> {
  const rows = await run(connection, sql);
  if (rows.length !== 1 || rows[0]!.length !== 1) throw new Error(`expected one row of one column, got ${rows.length} rows: ${sql}`);
  return toNumber(rows[0]![0]);
}

async function expectedOf(connection: DuckDBConnection, expect: Expected): Promise<ExpectedResult> {
  if ('value' in expect) return { kind: 'value', value: await oneNumber(connection, expect.value) };
  if ('compared' in expect) {
    const { current, comparison } = expect.compared;
    return { kind: 'compared', current: await oneNumber(connection, current), comparison: await oneNumber(connection, comparison) };
  }
  if ('rows' in expect) return { kind: 'rows', rows: resultRows(await run(connection, expect.rows)) };
  if ('shares' in expect) return { kind: 'shares', rows: resultRows(await run(connection, expect.shares)) };
  const limit = LIMIT.exec(expect.ranked);
  if (!limit) throw new Error(`a ranked expectation ends with LIMIT n: ${expect.ranked}`);
  const rows = resultRows(await run(connection, expect.ranked));
  const n = Number(limit[1]);
  const oneMore = resultRows(await run(connection, expect.ranked.replace(LIMIT, `LIMIT ${n + 1}`)));
  return { kind: 'ranked', rows, firstLeftOut: oneMore.length > n ? oneMore[n]!.value : null };
}

const isNumber = (value: number | null): boolean => value !== null && !Number.isNaN(value);

/**
 * Why an expected answer is not well posed, or undefined when it is: every number present, a
 * breakdown with groups, a share a fraction, and no tie at a top-N's cut-off (which would make two
 * different sets of groups equally right).
 */
export function expectedProblem(expected: ExpectedResult): string | undefined {
  switch (expected.kind) {
    case 'value':
      return isNumber(expected.value) ? undefined : 'no number';
    case 'compared':
      return isNumber(expected.current) && isNumber(expected.comparison) ? undefined : 'a period without a number';
    default: {
      if (expected.rows.length === 0) return 'no rows';
      if (!expected.rows.every((row) => isNumber(row.value))) return 'a group without a number';
      if (expected.kind === 'shares' && !expected.rows.every((row) => row.value! >= 0 && row.value! <= 1)) return 'a share outside 0 to 1';
      if (expected.kind !== 'ranked') return undefined;
      if (!expected.rows.every((row) => row.keys.every((key) => key !== null))) return 'a NULL group ranked';
      return expected.firstLeftOut === expected.rows.at(-1)!.value ? 'a tie at the cut-off' : undefined;
    }
  }
}

/** Every expected answer of a set, in order; the file is opened and closed here. */
export async function evaluateExpected(path: string, expectations: readonly Expected[]): Promise<ExpectedResult[]> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const results: ExpectedResult[] = [];
      for (const expect of expectations) results.push(await expectedOf(connection, expect));
      return results;
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
