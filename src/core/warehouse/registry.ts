// One pooled Warehouse per connection key. A changed config (new password, host…) closes the old pool
// and opens a new one, so that edits to a connection take effect on the next run.
import { hash } from 'node:crypto';
import { openWarehouse } from './open.js';
import type { PoolOptions } from './pool-options.js';
import type { ConnectionConfig, PoolStats, Warehouse, WarehouseEngine } from './types.js';

export interface RegistryOptions extends PoolOptions {
  /** How a Warehouse is opened; openWarehouse unless a caller needs otherwise. */
  readonly open?: (config: ConnectionConfig, options: PoolOptions) => Warehouse;
}

interface Entry {
  readonly fingerprint: string;
  readonly warehouse: Warehouse;
}

export class WarehouseRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly open: NonNullable<RegistryOptions['open']>;

  constructor(private readonly options: RegistryOptions = {}) {
    this.open = options.open ?? openWarehouse;
  }

  /** The Warehouse for `key`: the same one while `config` is unchanged, a fresh one after a change. */
  get(key: string, config: ConnectionConfig): Warehouse {
    const fingerprint = fingerprintOf(config);
    const existing = this.entries.get(key);
    if (existing?.fingerprint === fingerprint) return existing.warehouse;
    // Runs still using the old pool finish on their borrowed connections before it ends.
    if (existing) void existing.warehouse.close().catch(() => undefined);
    const warehouse = this.open(config, { maxConnections: this.options.maxConnections });
    this.entries.set(key, { fingerprint, warehouse });
    return warehouse;
  }

  /** Whether `warehouse` is still the one kept for `key` (not closed, not replaced). */
  holds(key: string, warehouse: Warehouse): boolean {
    return this.entries.get(key)?.warehouse === warehouse;
  }

  /** Closes and forgets the Warehouse of `key`, if any (for example when a connection is deleted). */
  async remove(key: string): Promise<void> {
    const existing = this.entries.get(key);
    this.entries.delete(key);
    await existing?.warehouse.close();
  }

  /** The pools of the open warehouses, summed by engine (engines whose driver counts its pool). */
  poolStats(): Map<WarehouseEngine, PoolStats> {
    const byEngine = new Map<WarehouseEngine, PoolStats>();
    for (const { warehouse } of this.entries.values()) {
      const stats = warehouse.poolStats?.();
      if (!stats) continue;
      const sum = byEngine.get(warehouse.engine) ?? { total: 0, idle: 0, waiting: 0 };
      byEngine.set(warehouse.engine, { total: sum.total + stats.total, idle: sum.idle + stats.idle, waiting: sum.waiting + stats.waiting });
    }
    return byEngine;
  }

  async closeAll(): Promise<void> {
    const warehouses = [...this.entries.values()].map((e) => e.warehouse);
    this.entries.clear();
    await Promise.allSettled(warehouses.map((w) => w.close()));
  }
}

/** A digest of the config (key order ignored), so the registry keeps no second copy of a password. */
function fingerprintOf(config: ConnectionConfig): string {
  const entries = Object.entries(config).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hash('sha256', JSON.stringify(entries), 'hex');
}
