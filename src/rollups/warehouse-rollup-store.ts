// A connection's `rollup_schema`: the rollups of its nodes stored as tables of its own warehouse, which
// every instance of the service reads (the embedded file is one instance's). Builds run inside the
// warehouse through the driver's rollup writer (rollup-writer.ts: INSERT … SELECT, no row through the
// process); answers and catalog reads go through the driver's read-only run(), with the time limit of
// every governed query. Workspaces may share a schema: a table's name starts with a token of its
// workspace, so one never reads, replaces or drops another's (data keys apply when a table is read,
// and a table holds every row).
import { createHash } from 'node:crypto';
import { formatWall } from '../core/semantic/time.js';
import type { RollupWrite, RollupWriter, RollupWriteResult } from '../core/warehouse/rollup-writer.js';
import type { RunResult, Warehouse } from '../core/warehouse/types.js';
import { WAREHOUSE_QUERY_TIMEOUT_MS } from '../querying/query-time-limit.js';
import type { PartitionTarget } from './rollup-store.js';
import type { RollupStorage } from './rollup-storage.js';

/** Longest name PostgreSQL keeps (it truncates longer ones). */
const MAX_NAME = 63;
/** Time limit of a catalog read, a clear and a drop. */
const CATALOG_TIMEOUT_MS = 30_000;

/** The start of every stored name of a workspace's tables: `r` and 10 hex digits of a hash of its id. */
export function workspaceTablePrefix(workspaceId: string): string {
  return `r${createHash('sha256').update(workspaceId).digest('hex').slice(0, 10)}_`;
}

/**
 * A rollup's table in a shared schema: the workspace's prefix, the hash of the definition, then as much
 * of the readable `<node>__<rollup>` as fits (the hashes come first, so a cut never loses them).
 */
export function warehouseTableName(workspaceId: string, table: string): string {
  const cut = table.lastIndexOf('__');
  const hash = table.slice(cut + 2);
  const readable = table.slice(0, Math.max(cut, 0));
  return `${workspaceTablePrefix(workspaceId)}${hash}_${readable}`.slice(0, MAX_NAME).toLowerCase();
}

type WriterEngine = 'postgres' | 'snowflake';

export class WarehouseRollupStore implements RollupStorage {
  readonly kind = 'warehouse' as const;
  readonly engine: WriterEngine;
  /** Column types by stored name: a name carries its definition's hash, so its columns never change. */
  private readonly knownColumns = new Map<string, Map<string, string>>();

  constructor(
    private readonly workspaceId: string,
    readonly schema: string,
    private readonly warehouse: Warehouse,
    private readonly writer: RollupWriter,
    private readonly timeoutMs = WAREHOUSE_QUERY_TIMEOUT_MS,
  ) {
    if (warehouse.engine !== 'postgres' && warehouse.engine !== 'snowflake') throw new Error(`${warehouse.engine} connections keep their rollups in the embedded file`);
    this.engine = warehouse.engine;
  }

  stored(table: string): string {
    return warehouseTableName(this.workspaceId, table);
  }

  /** Replaces the rows `write` names (a partition, or all) in one transaction of the warehouse. */
  async build(table: string, write: Omit<RollupWrite, 'table'>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<RollupWriteResult> {
    const stored = this.stored(table);
    return this.writer.replace({ ...write, table: stored }, options);
  }

  async columnTypes(table: string): Promise<ReadonlyMap<string, string> | undefined> {
    const stored = this.stored(table);
    const known = this.knownColumns.get(stored);
    if (known) return known;
    const sql = `SELECT column_name, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = ${this.placeholder(1)} AND table_name = ${this.placeholder(2)} ORDER BY ordinal_position`;
    const { rows } = await this.catalog(sql, [this.schema, stored]);
    if (rows.length === 0) return undefined;
    const types = new Map(rows.map((row) => [String(value(row, 'column_name')), castType(row)]));
    this.knownColumns.set(stored, types);
    return types;
  }

  query(sql: string, params: readonly unknown[], maxRows: number): Promise<RunResult> {
    return this.warehouse.run(sql, params, { maxRows, timeoutMs: this.timeoutMs });
  }

  async clear(table: string, target: PartitionTarget): Promise<void> {
    const range = { timeColumn: target.timeColumn, start: formatWall(target.range.start), end: formatWall(target.range.end) };
    await this.writer.clear(this.stored(table), range, { timeoutMs: CATALOG_TIMEOUT_MS });
  }

  async drop(table: string): Promise<void> {
    await this.dropStored(this.stored(table));
  }

  async dropOthers(keep: ReadonlySet<string>): Promise<string[]> {
    const kept = new Set([...keep].map((table) => this.stored(table)));
    const prefix = workspaceTablePrefix(this.workspaceId);
    const { rows } = await this.catalog(`SELECT table_name FROM information_schema.tables WHERE table_schema = ${this.placeholder(1)}`, [this.schema]);
    // Only this workspace's tables (other workspaces may share the schema), and never a build's staging table.
    const others = rows.map((row) => String(value(row, 'table_name'))).filter((name) => name.startsWith(prefix) && !name.endsWith('__build') && !kept.has(name));
    for (const name of others) await this.dropStored(name);
    return others.sort();
  }

  async tableBytes(table: string): Promise<number | null> {
    const sql =
      this.engine === 'postgres'
        ? 'SELECT pg_catalog.pg_total_relation_size(c.oid) AS bytes FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2'
        : 'SELECT bytes FROM information_schema.tables WHERE table_schema = ? AND table_name = ?';
    try {
      const bytes = value((await this.catalog(sql, [this.schema, this.stored(table)])).rows[0] ?? {}, 'bytes');
      return bytes === null || bytes === undefined ? null : Number(bytes);
    } catch {
      // A size is a courtesy of the overview: a warehouse that will not say is no failure.
      return null;
    }
  }

  private async dropStored(name: string): Promise<void> {
    this.knownColumns.delete(name);
    await this.writer.drop(name, { timeoutMs: CATALOG_TIMEOUT_MS });
  }

  private catalog(sql: string, params: readonly unknown[]): Promise<RunResult> {
    return this.warehouse.run(sql, params, { maxRows: 100_000, timeoutMs: CATALOG_TIMEOUT_MS });
  }

  private placeholder(n: number): string {
    return this.engine === 'postgres' ? `$${n}` : '?';
  }
}

/** A row's value by column name, whatever case the engine gives names in (Snowflake's are upper case). */
function value(row: Readonly<Record<string, unknown>>, name: string): unknown {
  return name in row ? row[name] : row[name.toUpperCase()];
}

/** The type a re-aggregated column is cast back to: the catalog's, with a decimal's precision and scale. */
function castType(row: Readonly<Record<string, unknown>>): string {
  const type = String(value(row, 'data_type')).toUpperCase();
  const precision = value(row, 'numeric_precision');
  const scale = value(row, 'numeric_scale');
  if (/^(NUMERIC|DECIMAL|NUMBER)$/.test(type) && precision !== null && precision !== undefined && scale !== null && scale !== undefined) return `${type}(${Number(precision)},${Number(scale)})`;
  return type;
}
