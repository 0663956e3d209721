// Builds a rollup's stored table, or one time partition of it, from its source: the build SELECT
// (rollup-build-sql.ts, the governed compiler's) runs on the source warehouse and its groups are
// appended to the workspace's rollup file in batches, replacing the partition's rows atomically
// (rollup-store.ts). A build whose result exceeds `maxRows` fails rather than store part of it: a
// bigger rollup is built partition by partition.
import { DIALECTS } from '../core/sql/dialects.js';
import { rollupBuildStatement, type WallRange } from '../core/semantic/rollup-build-sql.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { rollupTableName, storedColumnType } from '../core/semantic/rollup-table.js';
import type { Warehouse, WarehouseRow, WarehouseValue } from '../core/warehouse/types.js';
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
  /** Groups one build may read at most. */
  readonly maxRows: number;
  readonly timeoutMs: number;
  /** Rows appended between flushes. */
  readonly batchRows?: number;
  readonly signal?: AbortSignal;
}

export interface BuiltRollup {
  readonly table: string;
  readonly rows: number;
}

const DEFAULT_BATCH_ROWS = 2048;

export async function buildRollup(input: BuildRollupInput): Promise<BuiltRollup> {
  const { model, rollup, source, store, partition } = input;
  if (partition && !rollup.time) throw new Error(`Rollup ${rollup.name} has no time dimension to partition by`);
  const statement = rollupBuildStatement(model, rollup, { dialect: DIALECTS[source.engine], now: input.now, maxRows: input.maxRows, ...(partition ? { partition } : {}) });
  const { compiled } = statement;
  const result = await source.run(compiled.sql, compiled.params, {
    maxRows: input.maxRows,
    timeoutMs: input.timeoutMs,
    ...(compiled.timezone !== 'UTC' ? { timeZone: compiled.timezone } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  if (result.truncated) {
    throw new Error(`Rollup ${rollup.name} has more than ${input.maxRows} groups in one build; give it a partition (or a finer one) so each build holds fewer`);
  }
  const keys = compiled.columns.map((c) => c.key);
  const columns = statement.columns.map((column, i) => ({ name: column.name, type: storedColumnType(column, result.columns[i]?.type ?? 'VARCHAR') }));
  const table = rollupTableName(model, rollup);
  const timeColumn = rollup.columns.find((c) => c.kind === 'time')?.name;
  const target = partition && timeColumn ? { timeColumn, range: partition } : undefined;
  const rows = await store.replace(table, columns, target, batchesOf(result.rows, keys, input.batchRows ?? DEFAULT_BATCH_ROWS));
  return { table, rows };
}

/** The rows as value arrays in the stored columns' order, `size` at a time. */
async function* batchesOf(rows: readonly WarehouseRow[], keys: readonly string[], size: number): AsyncGenerator<WarehouseValue[][]> {
  for (let start = 0; start < rows.length; start += size) {
    yield rows.slice(start, start + size).map((row) => keys.map((key) => row[key] ?? null));
  }
}
