// One pooled Warehouse per connection key. A changed config (new password, host…) closes the old pool
// and opens a new one, so that edits to a connection take effect on the next run.
import { createHash } from 'node:crypto';
import { openWarehouse } from './open.js';
import type { PoolOptions } from './pool-options.js';
import type { ConnectionConfig, Warehouse } from './types.js';

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

  /** Closes and forgets the Warehouse of `key`, if any (for example when a connection is deleted). */
  async remove(key: string): Promise<void> {
    const existing = this.entries.get(key);
    this.entries.delete(key);
    await existing?.warehouse.close();
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
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}
