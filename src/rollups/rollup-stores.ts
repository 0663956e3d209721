// One open RollupStore per workspace, for the process's life: DuckDB lets one instance own a file, so
// builds and answers of a workspace share it. Closed at shutdown (closeServices).
import { existsSync } from 'node:fs';
import { RollupStore, rollupStorePath } from './rollup-store.js';

export class RollupStores {
  private readonly open = new Map<string, Promise<RollupStore>>();

  constructor(private readonly dataDir: string) {}

  /** The workspace's store, opened (and its file created) on first use. */
  of(workspaceId: string): Promise<RollupStore> {
    let store = this.open.get(workspaceId);
    if (!store) {
      store = RollupStore.open(rollupStorePath(this.dataDir, workspaceId));
      // A failed open is not kept: the next use tries again.
      store.catch(() => this.open.delete(workspaceId));
      this.open.set(workspaceId, store);
    }
    return store;
  }

  /** The workspace's store when it has a file (nothing was ever built otherwise): answering never creates one. */
  async existing(workspaceId: string): Promise<RollupStore | undefined> {
    if (!this.open.has(workspaceId) && !existsSync(rollupStorePath(this.dataDir, workspaceId))) return undefined;
    return this.of(workspaceId);
  }

  async close(): Promise<void> {
    const stores = [...this.open.values()];
    this.open.clear();
    for (const store of await Promise.allSettled(stores)) if (store.status === 'fulfilled') store.value.close();
  }
}
