import type { SchemaTable } from '../../core/warehouse/types.js';

/** Connection schemas, kept briefly: an editor asks for them often and they rarely change. */
export class SchemaCache {
  private readonly entries = new Map<string, { expiresAt: number; tables: Promise<SchemaTable[]> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string, load: () => Promise<SchemaTable[]>): Promise<SchemaTable[]> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.tables;
    const tables = load();
    this.entries.set(key, { expiresAt: this.now() + this.ttlMs, tables });
    tables.catch(() => this.entries.delete(key)); // failures are not cached
    return tables;
  }
}
