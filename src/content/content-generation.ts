// A generation number per workspace's content, moved by every write that can change what a scene
// lookup answers (a scene's definition or status, a vault's members, a vault's deletion), on any
// instance. Scene runs read scenes on every call; the lookup is kept in memory under this generation,
// so a run costs no store round trip until someone changes something.
import type { SharedState } from '../shared-state/shared-state.js';

const MAX_ENTRIES = 10_000;

export class ContentGeneration {
  private readonly entries = new Map<string, { generation: number; value: unknown }>();

  constructor(private readonly shared: SharedState) {}

  private name(workspaceId: string): string {
    return `content:${workspaceId}`;
  }

  /** Forget every cached lookup of the workspace, on every instance. */
  async bump(workspaceId: string): Promise<void> {
    await this.shared.bump(this.name(workspaceId));
  }

  /** `load()`'s value, reused until the workspace's content generation moves. */
  async cached<T>(workspaceId: string, key: string, load: () => Promise<T>): Promise<T> {
    const generation = await this.shared.generation(this.name(workspaceId));
    const entryKey = `${workspaceId}:${key}`;
    const hit = this.entries.get(entryKey);
    if (hit && hit.generation === generation) return hit.value as T;
    const value = await load();
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(entryKey, { generation, value });
    return value;
  }
}
