// Hands out where a workspace's rollups are stored (rollup-storage.ts), by the connection of their node:
// - a connection with a `rollup_schema` (PostgreSQL, Snowflake): tables of that schema in its warehouse,
//   written through the driver's rollup writer; a store per connection driver, so a saved change to the
//   connection (a new driver) is a new store;
// - any other: the workspace's embedded DuckDB file, one open RollupStore per workspace for the
//   process's life (DuckDB lets one instance own a file), closed at shutdown (closeServices).
import { existsSync } from 'node:fs';
import type { Warehouse } from '../core/warehouse/types.js';
import type { GenerationSnapshot } from '../shared-state/shared-state.js';
import { RollupStore, rollupStorePath } from './rollup-store.js';
import type { RollupStorage } from './rollup-storage.js';
import { WarehouseRollupStore } from './warehouse-rollup-store.js';

/** Either storage: a build needs to know which (the file is filled by the process, a schema in place). */
export type AnyRollupStore = RollupStore | WarehouseRollupStore;

/** What the stores need of the workspace's connections. */
export interface RollupConnections {
  /** A connection of the workspace (internal ones too: a model may name one), its `rollup_schema` and its driver. */
  /** `generations`: the request's admission snapshot, so that the cached connection costs no round trip. */
  named(workspaceId: string, connection: string, generations?: GenerationSnapshot): Promise<{ readonly rollupSchema: string | undefined; readonly warehouse: Warehouse }>;
  /** The names of the workspace's connections that have a `rollup_schema`. */
  withRollupSchema(workspaceId: string): Promise<readonly string[]>;
}

export class RollupStores {
  private readonly open = new Map<string, Promise<RollupStore>>();
  private readonly inWarehouse = new WeakMap<Warehouse, Map<string, WarehouseRollupStore>>();

  constructor(
    private readonly dataDir: string,
    private readonly connections?: RollupConnections,
  ) {}

  /** Where the rollups of `connection`'s nodes are stored (the workspace's file, opened on first use, when no connection is named). */
  of(workspaceId: string): Promise<RollupStore>;
  of(workspaceId: string, connection: string): Promise<AnyRollupStore>;
  async of(workspaceId: string, connection?: string): Promise<AnyRollupStore> {
    const warehouse = connection === undefined ? undefined : await this.warehouseStore(workspaceId, connection);
    return warehouse ?? this.file(workspaceId);
  }

  /** The same, but the workspace's file only when it exists (nothing was ever built otherwise): answering never creates one. */
  async existing(workspaceId: string, connection?: string, generations?: GenerationSnapshot): Promise<AnyRollupStore | undefined> {
    const warehouse = connection === undefined ? undefined : await this.warehouseStore(workspaceId, connection, generations);
    return warehouse ?? this.existingFile(workspaceId);
  }

  /** Every storage the workspace's rollups may be in: its file when it exists, and each connection's schema. */
  async every(workspaceId: string): Promise<RollupStorage[]> {
    const stores: RollupStorage[] = [];
    const file = await this.existingFile(workspaceId);
    if (file) stores.push(file);
    for (const name of (await this.connections?.withRollupSchema(workspaceId)) ?? []) {
      const store = await this.warehouseStore(workspaceId, name);
      if (store) stores.push(store);
    }
    return stores;
  }

  private async warehouseStore(workspaceId: string, connection: string, generations?: GenerationSnapshot): Promise<WarehouseRollupStore | undefined> {
    if (!this.connections) return undefined;
    const { rollupSchema, warehouse } = await this.connections.named(workspaceId, connection, generations);
    if (rollupSchema === undefined || !warehouse.rollupWriter) return undefined;
    let byWorkspace = this.inWarehouse.get(warehouse);
    if (!byWorkspace) this.inWarehouse.set(warehouse, (byWorkspace = new Map()));
    const key = `${workspaceId}\u0000${rollupSchema}`;
    let store = byWorkspace.get(key);
    if (!store) byWorkspace.set(key, (store = new WarehouseRollupStore(workspaceId, rollupSchema, warehouse, warehouse.rollupWriter(rollupSchema))));
    return store;
  }

  private file(workspaceId: string): Promise<RollupStore> {
    let store = this.open.get(workspaceId);
    if (!store) {
      store = RollupStore.open(rollupStorePath(this.dataDir, workspaceId));
      // A failed open is not kept: the next use tries again.
      store.catch(() => this.open.delete(workspaceId));
      this.open.set(workspaceId, store);
    }
    return store;
  }

  private async existingFile(workspaceId: string): Promise<RollupStore | undefined> {
    if (!this.open.has(workspaceId) && !existsSync(rollupStorePath(this.dataDir, workspaceId))) return undefined;
    return this.file(workspaceId);
  }

  async close(): Promise<void> {
    const stores = [...this.open.values()];
    this.open.clear();
    for (const store of await Promise.allSettled(stores)) if (store.status === 'fulfilled') store.value.close();
  }
}
