// Where a rollup's rows live, behind one interface: the workspace's embedded DuckDB file
// (rollup-store.ts), or tables in the `rollup_schema` of the node's own connection, in its warehouse
// (warehouse-rollup-store.ts). rollup-stores.ts hands out the one a node's connection calls for; builds,
// answers, the clean-up of a deploy and the overview use whichever it is.
import type { RunResult, WarehouseEngine } from '../core/warehouse/types.js';
import type { PartitionTarget } from './rollup-store.js';

export interface RollupStorage {
  readonly kind: 'embedded' | 'warehouse';
  /** The engine its tables are read with: the dialect a rollup's answer statement is written in. */
  readonly engine: WarehouseEngine;
  /** The schema its tables are in, when the answer statement names one. */
  readonly schema?: string;
  /**
   * The name a rollup's table (rollupTableName, its build records' name) has in this storage: itself in
   * the workspace's own file; with the workspace in it in a warehouse schema other workspaces may share.
   */
  stored(table: string): string;
  /** Column types of a rollup's stored table, by column name, or undefined when it was never built. */
  columnTypes(table: string): Promise<ReadonlyMap<string, string> | undefined>;
  /** Runs an answer statement (written for `engine`), read-only, at most `maxRows` rows kept. */
  query(sql: string, params: readonly unknown[], maxRows: number): Promise<RunResult>;
  /** Deletes one time range of a rollup's table (partitions that left a moving build range). */
  clear(table: string, target: PartitionTarget): Promise<void>;
  /** Drops a rollup's table, if stored. */
  drop(table: string): Promise<void>;
  /** Drops the workspace's stored tables whose rollup (by rollupTableName) is not in `keep`; what it dropped. */
  dropOthers(keep: ReadonlySet<string>): Promise<string[]>;
  /** Bytes a rollup's stored table takes, where the engine says cheaply; null otherwise. */
  tableBytes(table: string): Promise<number | null>;
}
