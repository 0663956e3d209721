import type { SchemaTable, Warehouse } from '../core/warehouse/types.js';
import type { ConnectionView } from './connection-service.js';

/**
 * Connection schemas, kept briefly: the editor and the question API's SQL fallback ask for them often
 * and they rarely change. Keyed by connection and its last update, so an edited connection reloads.
 * The connection's rollup schema is left out: its tables are the service's (rollups of this workspace
 * and of others sharing the schema, every row in them), not data to browse or to write questions on.
 */
export class SchemaCache {
  private readonly entries = new Map<string, { expiresAt: number; tables: Promise<SchemaTable[]> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  tablesOf(connection: ConnectionView, warehouse: Warehouse): Promise<SchemaTable[]> {
    const rollupSchema = connection.settings['rollup_schema'];
    return this.get(`${connection.id}:${connection.updated_at}`, async () => {
      const tables = await warehouse.schema();
      return typeof rollupSchema === 'string' ? tables.filter((table) => table.schema !== rollupSchema) : tables;
    });
  }

  get(key: string, load: () => Promise<SchemaTable[]>): Promise<SchemaTable[]> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.tables;
    for (const [stale, entry] of this.entries) if (entry.expiresAt <= this.now()) this.entries.delete(stale);
    const tables = load();
    this.entries.set(key, { expiresAt: this.now() + this.ttlMs, tables });
    tables.catch(() => this.entries.delete(key)); // failures are not cached
    return tables;
  }
}
