// Small pieces every driver's run() shares: result assembly, the client-side watchdog and the
// options check.
import { statementRefused } from './errors.js';
import type { ColumnInfo, RunOptions, RunResult, WarehouseRow, WarehouseValue } from './types.js';

/** Extra time the client-side watchdog allows past the server-side limit before it steps in. */
export const WATCHDOG_SLACK_MS = 1_000;

/** Timeout used by schema() reads, which are internal and may be large. */
export const SCHEMA_RUN_OPTIONS: RunOptions = { maxRows: 100_000, timeoutMs: 30_000 };

export function checkRunOptions(engine: string, options: RunOptions): void {
  if (!Number.isInteger(options.maxRows) || options.maxRows < 0) {
    throw statementRefused(engine, `maxRows must be a non-negative integer (got ${options.maxRows})`);
  }
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw statementRefused(engine, `timeoutMs must be a positive number (got ${options.timeoutMs})`);
  }
}

/** Column names made unique (`a`, `a_2`), so that rows as objects lose no value. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    let unique = count === 1 ? name : `${name}_${count}`;
    while (count > 1 && seen.has(unique)) unique = `${unique}_`;
    if (count > 1) seen.set(unique, 1);
    return unique;
  });
}

/** Builds the result from rows read as arrays; `rows` may hold one row more than maxRows. */
export function buildResult(
  columns: readonly ColumnInfo[],
  rows: readonly (readonly WarehouseValue[])[],
  maxRows: number,
  startedAt: number,
): RunResult {
  const kept = rows.slice(0, maxRows);
  const names = columns.map((column) => column.name);
  const objects: WarehouseRow[] = kept.map((values) => {
    const row: WarehouseRow = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i] ?? null;
    return row;
  });
  return {
    columns,
    rows: objects,
    rowCount: objects.length,
    durationMs: Math.round(performance.now() - startedAt),
    truncated: rows.length > maxRows,
  };
}

/** A timer that fires once; `fired` tells afterwards whether it did. */
export class Watchdog {
  fired = false;
  private readonly timer: NodeJS.Timeout;

  constructor(afterMs: number, onFire: () => void) {
    this.timer = setTimeout(() => {
      this.fired = true;
      onFire();
    }, afterMs);
    // A pending watchdog must not keep the process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
