// The value indexes of every workspace, one per data-key scope (value-scope.ts). The unrestricted scope
// and the scope of an asker with no attributes are built in the background when a model is deployed;
// other scopes on their first question. Indexes are refreshed on a timer and when found stale
// (stale-while-revalidate: a question never waits for a refresh when an older index exists). A failed
// build is reported and retried; the question is then planned without values, never failed. Memory is
// bounded by a least-recently-used limit on scopes and on values held, and a new model version drops
// the old version's indexes.
import type { CatalogIndex } from '../core/answer/catalog-index.js';
import type { ValueLookup, ValueStore } from '../core/answer/value-index.js';
import type { Reveal } from '../core/semantic/model.js';
import { MODEL_CONNECTION, type ConnectionService } from '../connections/connection-service.js';
import type { LiveModel } from '../modeling/model-service.js';
import type { Clock } from '../clock.js';
import { readScope, scopeAttributes, scopeKey, scopePlans, unrestrictedAttributes, type ScopePlan } from './value-scope.js';

export interface ValueCatalogOptions {
  /** Distinct values read per dimension at most. */
  readonly perDimension: number;
  /** An index older than this is rebuilt. */
  readonly refreshMs: number;
  /** Scopes kept in memory at most. */
  readonly maxScopes: number;
  /** Values kept in memory at most, over all scopes (the scope in use is kept even if larger). */
  readonly maxValues: number;
  readonly queryTimeoutMs: number;
  readonly onError: (error: unknown, context: string) => void;
}

export const DEFAULT_VALUE_OPTIONS = { perDimension: 50_000, refreshMs: 15 * 60_000, maxScopes: 200, maxValues: 5_000_000, queryTimeoutMs: 30_000 };

interface Scope {
  readonly key: string;
  readonly workspace: string;
  readonly version: number;
  readonly live: LiveModel;
  readonly index: CatalogIndex;
  readonly plan: ScopePlan;
  readonly attributes: Readonly<Record<string, string>>;
  stores?: ReadonlyMap<string, ValueStore>;
  size: number;
  builtAt: number;
  building?: Promise<void>;
}

const NOTHING: ReadonlyMap<string, ValueStore> = new Map();

export class ValueCatalog {
  /** In least-recently-used order: the first is evicted first. */
  private readonly scopes = new Map<string, Scope>();
  private readonly versions = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly connections: ConnectionService,
    private readonly clock: Clock,
    private readonly options: ValueCatalogOptions,
  ) {}

  /**
   * The value lookup of each reveal as `attributes` see it. Waits only for a scope's first build; a
   * reveal whose index could not be built gets no lookup (the planner then knows no values).
   */
  async lookups(workspace: string, live: LiveModel, index: CatalogIndex, attributes: Readonly<Record<string, string>>, reveals: readonly Reveal[]): Promise<(reveal: string) => ValueLookup | undefined> {
    this.seeVersion(workspace, live, index);
    const plans = scopePlans(live.model, index);
    const wanted = new Set(reveals.map((reveal) => live.model.nodes.get(reveal.base)?.connection));
    const byBase = new Map<string, ValueStore>();
    await Promise.all(
      plans
        .filter((plan) => wanted.has(plan.connection))
        .map(async (plan) => {
          const stores = await this.stores(this.scope(workspace, live, index, plan, scopeAttributes(plan, attributes)));
          for (const [base, store] of stores) byBase.set(base, store);
        }),
    );
    const baseOf = new Map(reveals.map((reveal) => [reveal.name, reveal.base]));
    return (reveal) => byBase.get(baseOf.get(reveal) ?? '');
  }

  /** After a deploy: drop the old version's indexes and build the common scopes in the background. */
  prepare(workspace: string, live: LiveModel, index: CatalogIndex): void {
    // A deploy's model may finish loading after close(): nothing may start reading a warehouse then.
    if (this.closed) return;
    this.seeVersion(workspace, live, index);
  }

  /** Scopes and values held, over all workspaces or one (for figures and tests). */
  stats(workspace?: string): { scopes: number; built: number; values: number; versions: number[] } {
    let values = 0;
    let scopes = 0;
    let built = 0;
    const versions = new Set<number>();
    for (const scope of this.scopes.values()) {
      if (workspace !== undefined && scope.workspace !== workspace) continue;
      scopes++;
      if (scope.stores) built++;
      values += scope.size;
      versions.add(scope.version);
    }
    return { scopes, built, values, versions: [...versions].sort((a, b) => a - b) };
  }

  /**
   * Stops refreshing and waits for the builds under way: their queries must be over before the
   * caller closes the warehouses they read (an embedded engine closed under a running query can crash).
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.scopes.clear();
    await Promise.allSettled([...this.running, ...(this.ticking ? [this.ticking] : [])]);
  }

  /** A new model version drops the old one's indexes and starts the common scopes of the new one. */
  private seeVersion(workspace: string, live: LiveModel, index: CatalogIndex): void {
    if (this.versions.get(workspace) === live.version) return;
    this.versions.set(workspace, live.version);
    for (const [key, scope] of this.scopes) if (scope.workspace === workspace && scope.version !== live.version) this.scopes.delete(key);
    for (const plan of scopePlans(live.model, index)) {
      for (const attributes of [unrestrictedAttributes(plan), {}]) {
        const scope = this.scope(workspace, live, index, plan, attributes);
        if (!scope.stores && !scope.building) this.build(scope);
      }
    }
  }

  private scope(workspace: string, live: LiveModel, index: CatalogIndex, plan: ScopePlan, attributes: Readonly<Record<string, string>>): Scope {
    const key = scopeKey(workspace, live.version, plan.connection, attributes);
    let scope = this.scopes.get(key);
    if (scope) {
      this.scopes.delete(key); // most recently used goes last
    } else {
      scope = { key, workspace, version: live.version, live, index, plan, attributes, size: 0, builtAt: 0 };
    }
    this.scopes.set(key, scope);
    this.startTimer();
    return scope;
  }

  /** The scope's stores: the current ones at once (refreshing them in the background when stale), or its first build. */
  private async stores(scope: Scope): Promise<ReadonlyMap<string, ValueStore>> {
    if (scope.stores) {
      if (this.stale(scope) && !scope.building) this.build(scope);
      return scope.stores;
    }
    await (scope.building ?? this.build(scope));
    return scope.stores ?? NOTHING;
  }

  private stale(scope: Scope): boolean {
    return Date.now() - scope.builtAt >= this.options.refreshMs;
  }

  private build(scope: Scope): Promise<void> {
    if (this.closed) return Promise.resolve();
    const building = this.read(scope)
      .then((stores) => {
        if (this.closed) return;
        scope.stores = stores;
        scope.size = [...stores.values()].reduce((sum, store) => sum + store.size, 0);
        scope.builtAt = Date.now();
        this.evict(scope);
      })
      .catch((error: unknown) => {
        // Retried by the next question or tick; an older index, if any, keeps serving meanwhile.
        if (!this.closed) this.options.onError(error, `value index of connection "${scope.plan.connection}"`);
      })
      .finally(() => {
        scope.building = undefined;
        this.running.delete(building);
      });
    scope.building = building;
    // Also builds of scopes dropped meanwhile (a new model version): close() waits for every one.
    this.running.add(building);
    return building;
  }

  private async read(scope: Scope): Promise<Map<string, ValueStore>> {
    const { connection, warehouse } = await this.connections.warehouse(scope.workspace, scope.plan.connection, MODEL_CONNECTION);
    return readScope({
      model: scope.live.model,
      plan: scope.plan,
      attributes: scope.attributes,
      connection,
      warehouse,
      now: this.clock.now(),
      perField: this.options.perDimension,
      timeoutMs: this.options.queryTimeoutMs,
      onFieldError: (field, error) => this.options.onError(error, `values of ${field}`),
    });
  }

  /** Least recently used scopes go first, never `keep` (the scope a question is waiting for). */
  private evict(keep: Scope): void {
    let values = this.stats().values;
    for (const [key, scope] of this.scopes) {
      if (this.scopes.size <= this.options.maxScopes && values <= this.options.maxValues) break;
      if (scope === keep) continue;
      this.scopes.delete(key);
      values -= scope.size;
    }
  }

  /** One timer for every scope, unreferenced so it never keeps the process alive. */
  private startTimer(): void {
    if (this.timer || this.closed) return;
    const every = Math.max(1000, Math.min(this.options.refreshMs, 60_000));
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  /** Rebuilds stale scopes one after the other, so a refresh never floods a warehouse. */
  private tick(): void {
    if (this.ticking) return;
    this.ticking = (async () => {
      for (const scope of [...this.scopes.values()]) {
        if (this.closed) return;
        if (!scope.building && this.stale(scope) && this.scopes.get(scope.key) === scope) await this.build(scope);
      }
    })().finally(() => {
      this.ticking = undefined;
    });
  }

  private ticking: Promise<void> | undefined;
}
