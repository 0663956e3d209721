// One RollupStore per workspace, opened on first use and kept: DuckDB allows one writer per file, so
// every build and read of a workspace's rollups in this process goes through the same open store.
// Closed together when the services close.
import { existsSync } from 'node:fs';
import { rollupStorePath, RollupStore } from './rollup-store.js';

export class RollupStores {
  private readonly open = new Map<string, Promise<RollupStore>>();

  constructor(private readonly dataDir: string) {}

  /** The workspace's rollup store, opened (and its file created) on first use. */
  forWorkspace(workspaceId: string): Promise<RollupStore> {
    let store = this.open.get(workspaceId);
    if (!store) {
      store = RollupStore.open(rollupStorePath(this.dataDir, workspaceId));
      this.open.set(workspaceId, store);
      // A failed open is retried by the next use.
      store.catch(() => this.open.delete(workspaceId));
    }
    return store;
  }

  /** The workspace's rollup store if this instance has its file (it built a rollup of it); never creates one. */
  async ifPresent(workspaceId: string): Promise<RollupStore | undefined> {
    if (!this.open.has(workspaceId) && !existsSync(rollupStorePath(this.dataDir, workspaceId))) return undefined;
    return this.forWorkspace(workspaceId);
  }

  async close(): Promise<void> {
    const stores = [...this.open.values()];
    this.open.clear();
    for (const store of await Promise.allSettled(stores)) if (store.status === 'fulfilled') store.value.close();
  }
}
