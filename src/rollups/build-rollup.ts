// Builds a rollup's stored table, or one time partition of it, from its source: the build SELECT
// (rollup-build-sql.ts, the governed compiler's) runs on the source warehouse and its groups are
// appended to the workspace's rollup file batch by batch as the source sends them, replacing the
// partition's rows atomically (rollup-store.ts). From a driver that cannot stream, one run of at most
// `maxRows` groups is read: a build whose result exceeds it fails rather than store part of it.
import { DIALECTS } from '../core/sql/dialects.js';
import { rollupBuildStatement, type WallRange } from '../core/semantic/rollup-build-sql.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { rollupTableName, storedColumnType } from '../core/semantic/rollup-table.js';
import type { CompiledQuery } from '../core/semantic/compile.js';
import type { RowBatch, Warehouse } from '../core/warehouse/types.js';
import type { RollupStore } from './rollup-store.js';

export interface BuildRollupInput {
  readonly model: SemanticModel;
  readonly rollup: Rollup;
  /** The warehouse of the rollup's node. */
  readonly source: Warehouse;
  readonly store: RollupStore;
  readonly now: Date;
  /** One partition (wall times of the rollup's zone, on partition boundaries) to replace; absent: the whole table. */
  readonly partition?: WallRange;
  /** Groups one build may hold at most (a driver that cannot stream holds them all in memory). */
  readonly maxRows: number;
  readonly timeoutMs: number;
  /** Rows appended between flushes, from a driver that cannot stream (a streamed batch is the driver's). */
  readonly batchRows?: number;
  readonly signal?: AbortSignal;
}

export interface BuiltRollup {
  readonly table: string;
  /** Rows (groups) stored. */
  readonly rows: number;
  /** The latest time value among the source rows read, as the source holds it; null without time or rows. */
  readonly sourceMaxTime: string | null;
}

const DEFAULT_BATCH_ROWS = 2048;

export async function buildRollup(input: BuildRollupInput): Promise<BuiltRollup> {
  const { model, rollup, source, store, partition } = input;
  if (partition && !rollup.time) throw new Error(`Rollup ${rollup.name} has no time dimension to partition by`);
  // One row past the limit, so that a build holding more groups than allowed is told from one holding exactly as many.
  const statement = rollupBuildStatement(model, rollup, { dialect: DIALECTS[source.engine], now: input.now, maxRows: input.maxRows + 1, ...(partition ? { partition } : {}) });
  const batches = readBatches(source, statement.compiled, input)[Symbol.asyncIterator]();
  try {
    // Every read yields a first batch, empty or not: its columns' types are the stored columns'.
    const first = await batches.next();
    if (first.done) throw new Error(`The build of rollup ${rollup.name} read no columns`);
    const columns = statement.columns.map((column, i) => ({ name: column.name, type: storedColumnType(column, first.value.columns[i]?.type ?? 'VARCHAR') }));
    const table = rollupTableName(model, rollup);
    const timeColumn = rollup.columns.find((c) => c.kind === 'time')?.name;
    const target = partition && timeColumn ? { timeColumn, range: partition } : undefined;
    const latest = { value: null as string | null };
    const rows = await store.replace(table, columns, target, rest(first.value, batches, input, columns.length, latest));
    return { table, rows, sourceMaxTime: latest.value };
  } finally {
    await batches.return?.(undefined);
  }
}

/**
 * The build's rows batch by batch: streamed where the driver can (memory holds one batch whatever the
 * size of the result), else one run of at most `maxRows` rows, cut in batches of `batchRows`.
 */
async function* readBatches(source: Warehouse, compiled: CompiledQuery, input: BuildRollupInput): AsyncGenerator<RowBatch> {
  const options = { timeoutMs: input.timeoutMs, ...(compiled.timezone !== 'UTC' ? { timeZone: compiled.timezone } : {}), ...(input.signal ? { signal: input.signal } : {}) };
  if (source.stream) {
    yield* source.stream(compiled.sql, compiled.params, options);
    return;
  }
  const result = await source.run(compiled.sql, compiled.params, { ...options, maxRows: input.maxRows });
  if (result.truncated) throw tooManyGroups(input);
  const keys = result.columns.map((c) => c.name);
  const size = input.batchRows ?? DEFAULT_BATCH_ROWS;
  for (let start = 0; start === 0 || start < result.rows.length; start += size) {
    yield { columns: result.columns, rows: result.rows.slice(start, start + size).map((row) => keys.map((key) => row[key] ?? null)) };
  }
}

/** The rows of every batch, the first one already read; a build past `maxRows` groups fails (its transaction is rolled back). */
async function* rest(first: RowBatch, batches: AsyncIterator<RowBatch>, input: BuildRollupInput, stored: number, latest: { value: string | null }): AsyncGenerator<RowBatch['rows']> {
  let read = 0;
  for (let next: IteratorResult<RowBatch> = { done: false, value: first }; !next.done; next = await batches.next()) {
    const { rows } = next.value;
    read += rows.length;
    if (read > input.maxRows) throw tooManyGroups(input);
    if (rows[0]?.length === stored) {
      yield rows;
      continue;
    }
    // The column after the stored ones is each group's latest source time (SOURCE_MAX_TIME): the
    // drivers write times so that their text orders as they do.
    for (const row of rows) {
      const time = row[stored];
      if (typeof time === 'string' && (latest.value === null || time > latest.value)) latest.value = time;
    }
    yield rows.map((row) => row.slice(0, stored));
  }
}

function tooManyGroups(input: BuildRollupInput): Error {
  return new Error(`Rollup ${input.rollup.name} has more than ${input.maxRows} groups in one build; give it a partition (or a finer one) so each build holds fewer`);
}
