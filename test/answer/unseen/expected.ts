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
    };

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

async function expectedOf(connection: DuckDBConnection, expect: Expected): Promise<ExpectedResult> {
  if ('value' in expect) {
    const rows = await run(connection, expect.value);
    if (rows.length !== 1 || rows[0]!.length !== 1) throw new Error(`expected one row of one column, got ${rows.length} rows: ${expect.value}`);
    return { kind: 'value', value: toNumber(rows[0]![0]) };
  }
  if ('rows' in expect) return { kind: 'rows', rows: resultRows(await run(connection, expect.rows)) };
  const limit = LIMIT.exec(expect.ranked);
  if (!limit) throw new Error(`a ranked expectation ends with LIMIT n: ${expect.ranked}`);
  const rows = resultRows(await run(connection, expect.ranked));
  const n = Number(limit[1]);
  const oneMore = resultRows(await run(connection, expect.ranked.replace(LIMIT, `LIMIT ${n + 1}`)));
  return { kind: 'ranked', rows, firstLeftOut: oneMore.length > n ? oneMore[n]!.value : null };
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
