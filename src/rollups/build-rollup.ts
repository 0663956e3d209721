// Builds a rollup's stored table, or one time partition of it, from its source: the build SELECT
// (rollup-build-sql.ts, the governed compiler's) runs on the source warehouse through its stream(), and
// each batch of groups the driver reads goes straight to the rollup file's appender (rollup-store.ts),
// so the source is read no faster than the file is written and memory holds one batch. The partition's
// rows are replaced atomically; a build past `maxRows` groups fails and stores none of its rows.
// A rollup stored in its connection's `rollup_schema` is built inside the warehouse instead: the same
// SELECT feeds an INSERT there (warehouse-rollup-store.ts), and no row passes through the process.
import { DIALECTS } from '../core/sql/dialects.js';
import { rollupBuildStatement, type WallRange } from '../core/semantic/rollup-build-sql.js';
import type { SemanticModel } from '../core/semantic/model.js';
import type { Rollup } from '../core/semantic/rollup-model.js';
import { rollupTableName, storedColumnType } from '../core/semantic/rollup-table.js';
import type { RowSink, Warehouse } from '../core/warehouse/types.js';
import { formatWall } from '../core/semantic/time.js';
import type { CompiledQuery } from '../core/semantic/compile.js';
import type { RollupColumn } from '../core/semantic/rollup-model.js';
import type { RollupWrite } from '../core/warehouse/rollup-writer.js';
import type { PartitionTarget } from './rollup-store.js';
import type { AnyRollupStore } from './rollup-stores.js';
import type { WarehouseRollupStore } from './warehouse-rollup-store.js';

export interface BuildRollupInput {
  readonly model: SemanticModel;
  readonly rollup: Rollup;
  /** The warehouse of the rollup's node. */
  readonly source: Warehouse;
  readonly store: AnyRollupStore;
  readonly now: Date;
  /** One partition (wall times of the rollup's zone, on partition boundaries) to replace; absent: the whole table. */
  readonly partition?: WallRange;
  /** Groups one build may store at most. */
  readonly maxRows: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface BuiltRollup {
  readonly table: string;
  /** Rows (groups) stored. */
  readonly rows: number;
  /** The latest time value among the source rows read, as the source holds it; null without time or rows. */
  readonly sourceMaxTime: string | null;
}

export async function buildRollup(input: BuildRollupInput): Promise<BuiltRollup> {
  const { model, rollup, source, store, partition } = input;
  if (partition && !rollup.time) throw new Error(`Rollup ${rollup.name} has no time dimension to partition by`);
  // One row past the limit, so that a build holding more groups than allowed is told from one holding exactly as many.
  const statement = rollupBuildStatement(model, rollup, { dialect: DIALECTS[source.engine], now: input.now, maxRows: input.maxRows + 1, ...(partition ? { partition } : {}) });
  const { compiled } = statement;
  const table = rollupTableName(model, rollup);
  const timeColumn = rollup.columns.find((c) => c.kind === 'time')?.name;
  const target = partition && timeColumn ? { timeColumn, range: partition } : undefined;
  const latestAt = statement.columns.findIndex((c) => c.kind === 'latest');
  let sourceMaxTime: string | null = null;
  const options = {
    maxRows: input.maxRows,
    timeoutMs: input.timeoutMs,
    ...(compiled.timezone !== 'UTC' ? { timeZone: compiled.timezone } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
  if (store.kind === 'warehouse') return buildInWarehouse(input, store, table, compiled, statement.columns, target);
  const rows = await store.replace(table, target, async (file) => {
    const sink: RowSink = {
      // The source's column types decide the stored columns' (a decimal's scale, a timestamp's zone).
      columns: (columns) => file.columns(statement.columns.map((column, i) => ({ name: column.name, type: storedColumnType(column, columns[i]?.type ?? 'VARCHAR') }))),
      rows: (batch) => {
        // Each group's latest source time is stored too (RollupColumn `latest`); the partition's is the
        // greatest of them: the drivers write times so that their text orders as they do.
        for (const row of latestAt < 0 ? [] : batch) {
          const time = row[latestAt];
          if (typeof time === 'string' && (sourceMaxTime === null || time > sourceMaxTime)) sourceMaxTime = time;
        }
        return file.rows(batch);
      },
    };
    const summary = await source.stream(compiled.sql, compiled.params, options, sink);
    // Thrown inside the replace: its transaction is rolled back, and the groups written go with it.
    if (summary.truncated) throw tooManyGroups(input);
  });
  return { table, rows, sourceMaxTime };
}

async function buildInWarehouse(input: BuildRollupInput, store: WarehouseRollupStore, table: string, compiled: CompiledQuery, columns: readonly RollupColumn[], target: PartitionTarget | undefined): Promise<BuiltRollup> {
  const built = await store.build(table, rollupWrite(table, compiled, columns, target, input.maxRows), { timeoutMs: input.timeoutMs, ...(input.signal ? { signal: input.signal } : {}) });
  // Rolled back by the warehouse: the last good rows stay.
  if (built.truncated) throw tooManyGroups(input);
  return { table, rows: built.rows, sourceMaxTime: built.sourceMaxTime };
}

/**
 * What a warehouse writer stores of a build SELECT: its output keys, one per stored column, in order.
 * Each group's latest source time is one of them (RollupColumn `latest`), stored in the source's own
 * type; the build's latest is the greatest of them.
 */
export function rollupWrite(table: string, compiled: Pick<CompiledQuery, 'sql' | 'params' | 'columns'>, columns: readonly RollupColumn[], target: PartitionTarget | undefined, maxRows: number): RollupWrite {
  const keys = compiled.columns.map((c) => c.key);
  const latestAt = columns.findIndex((c) => c.kind === 'latest');
  return {
    table,
    select: compiled,
    columns: columns.map((column, i) => ({ key: keys[i]!, name: column.name, time: column.kind === 'time' })),
    ...(latestAt >= 0 ? { sourceMaxTimeKey: keys[latestAt]! } : {}),
    ...(target ? { target: { timeColumn: target.timeColumn, start: formatWall(target.range.start), end: formatWall(target.range.end) } } : {}),
    maxRows,
  };
}

function tooManyGroups(input: BuildRollupInput): Error {
  return new Error(`Rollup ${input.rollup.name} has more than ${input.maxRows} groups in one build; give it a partition (or a finer one) so each build holds fewer`);
}
