// Small pieces every driver's run() shares: result assembly, what stops a run from outside (its time
// limit, its caller's cancel) and the options check.
import { canceled, statementRefused, timedOut, type WarehouseError } from './errors.js';
import type { ColumnInfo, RowSink, RunOptions, RunResult, StreamSummary, WarehouseRow, WarehouseValue } from './types.js';

/** Extra time the client-side watchdog allows past the server-side limit before it steps in. */
export const WATCHDOG_SLACK_MS = 1_000;

/** Timeout used by schema() reads, which are internal and may be large. */
export const SCHEMA_RUN_OPTIONS: RunOptions = { maxRows: 100_000, timeoutMs: 30_000 };

/** Refuses bad limits, and a run whose caller has already cancelled it: nothing of it starts. */
export function checkRunOptions(engine: string, options: RunOptions): void {
  if (!Number.isInteger(options.maxRows) || options.maxRows < 0) {
    throw statementRefused(engine, `maxRows must be a non-negative integer (got ${options.maxRows})`);
  }
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw statementRefused(engine, `timeoutMs must be a positive number (got ${options.timeoutMs})`);
  }
  if (options.signal?.aborted) throw canceled(engine);
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

/**
 * Rows a driver hands over per batch where it chooses the size (PostgreSQL's cursor fetches, MySQL's
 * rows as they arrive): large enough to keep round trips and writes few, small enough to keep a batch
 * a few hundred kilobytes.
 */
export const STREAM_BATCH_ROWS = 500;

/**
 * What run() reads through: a sink that keeps every row it is given (the driver reads at most
 * maxRows + 1, and buildResult cuts the extra row into `truncated`).
 */
export class RowCollector implements RowSink {
  seen: readonly ColumnInfo[] = [];
  readonly kept: (readonly WarehouseValue[])[] = [];

  columns(columns: readonly ColumnInfo[]): void {
    this.seen = columns;
  }

  rows(batch: readonly (readonly WarehouseValue[])[]): void {
    for (const row of batch) this.kept.push(row);
  }
}

/**
 * What stream() reads through: passes the caller's sink at most `maxRows` rows, and takes one row
 * beyond them as proof that the result was truncated (the driver reads maxRows + 1 at most, so reading
 * stops there).
 */
export class CappedSink implements RowSink {
  private seen: readonly ColumnInfo[] = [];
  private delivered = 0;
  private cut = false;

  constructor(
    private readonly sink: RowSink,
    private readonly maxRows: number,
  ) {}

  columns(columns: readonly ColumnInfo[]): void | Promise<void> {
    this.seen = columns;
    return this.sink.columns(columns);
  }

  async rows(batch: readonly (readonly WarehouseValue[])[]): Promise<void> {
    const room = this.maxRows - this.delivered;
    if (batch.length > room) this.cut = true;
    const kept = batch.length > room ? batch.slice(0, room) : batch;
    if (kept.length === 0) return;
    this.delivered += kept.length;
    await this.sink.rows(kept);
  }

  summary(startedAt: number): StreamSummary {
    return { columns: this.seen, rowCount: this.delivered, truncated: this.cut, durationMs: Math.round(performance.now() - startedAt) };
  }
}

/** run() of a driver whose reads all feed a sink: the rows kept, the one beyond maxRows cut into `truncated`. */
export async function runCollected(read: (sink: RowSink) => Promise<void>, maxRows: number): Promise<RunResult> {
  const startedAt = performance.now();
  const collected = new RowCollector();
  await read(collected);
  return buildResult(collected.seen, collected.kept, maxRows, startedAt);
}

/** stream() of a driver whose reads all feed a sink: the caller's sink capped at maxRows. */
export async function streamCapped(read: (sink: RowSink) => Promise<void>, sink: RowSink, maxRows: number): Promise<StreamSummary> {
  const startedAt = performance.now();
  const capped = new CappedSink(sink, maxRows);
  await read(capped);
  return capped.summary(startedAt);
}

export type StopReason = 'timeout' | 'canceled';

/** The error of a run stopped from outside. */
export function stoppedError(engine: string, reason: StopReason, timeoutMs: number): WarehouseError {
  return reason === 'canceled' ? canceled(engine) : timedOut(engine, timeoutMs);
}

/**
 * Stops a run from outside, once: when `afterMs` have passed (the client-side time limit) or when the
 * caller's signal aborts, whichever comes first; `reason` tells afterwards which did. One `stop` for
 * both, so that a driver stops a cancelled statement exactly as one past its time. A signal that
 * aborted before the run got this far (while it waited for a connection) sets `reason` without calling
 * `stop`: nothing runs yet, and the run checks `reason` before it starts its statement.
 */
export class RunStop {
  reason: StopReason | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Waits that end when the run is stopped (see guard). */
  private readonly waits = new Set<() => void>();
  private readonly onAbort = () => this.fire('canceled');

  constructor(
    afterMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly stop: (reason: StopReason) => void,
  ) {
    if (signal?.aborted) {
      this.reason = 'canceled';
      return;
    }
    this.timer = setTimeout(() => this.fire('timeout'), afterMs);
    // A pending limit must not keep the process alive on its own.
    this.timer.unref();
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Throws the stop's error if the run was stopped: for the points between a run's round trips. */
  check(engine: string, timeoutMs: number): void {
    if (this.reason) throw stoppedError(engine, this.reason, timeoutMs);
  }

  /**
   * `sink` with each of its waits cut short by the stop: a statement can be cancelled, but a sink
   * waiting for a client that neither reads nor leaves cannot, and would hold the run (and its
   * connection) past its time limit. A sink that does not wait (run()'s collector) is called as is.
   */
  guard(sink: RowSink, engine: string, timeoutMs: number): RowSink {
    const cut = (work: void | Promise<void>): void | Promise<void> => {
      if (!(work instanceof Promise)) return work;
      return new Promise<void>((resolve, reject) => {
        const stopped = () => reject(stoppedError(engine, this.reason!, timeoutMs));
        // Settles the answer either way; a sink failing after the stop is then already handled here.
        void work.then(resolve, reject).finally(() => this.waits.delete(stopped));
        if (this.reason) stopped();
        else this.waits.add(stopped);
      });
    };
    return { columns: (columns) => cut(sink.columns(columns)), rows: (batch) => cut(sink.rows(batch)) };
  }

  /** The run is over: nothing stops it any more. */
  end(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private fire(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.end();
    this.stop(reason);
    for (const stopped of this.waits) stopped();
  }
}
