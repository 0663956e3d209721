// Turns an API key value into the principal it acts for. Lookups are cached in memory, tagged with the
// identity generation (see generations.ts): an entry is trusted only while the generation it was read
// under is still current, so a revocation or a role change is seen on the very next request, on every
// instance, while a steady stream of requests costs no database round trip.
//
// Reading the generation is itself a round trip when it lives in Redis, so a caller that already makes
// one (the rate limiter) can read it there and `confirm` a `peek`ed entry instead of calling `resolve`.
//
// Hashes that name no key are kept apart from keys found, each set bounded: a flood of random
// well-formed keys (each one a hash and one indexed read, once) can push out only other unknown hashes,
// never a key this instance has admitted, whose requests then keep costing no store read.
import type { Clock } from '../clock.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { ApiKeysRepo, ResolvedKeyRow } from '../store/api-keys.js';
import { IDENTITY_GENERATION } from './generations.js';
import { principalOf, type Principal } from './principal.js';

export type KeyResolution =
  | { status: 'active'; principal: Principal }
  | { status: 'unknown' | 'revoked' | 'expired' };

export interface CachedKey {
  readonly generation: number;
  readonly row: ResolvedKeyRow;
  readonly loadedAtMs: number;
}

/** How many keys found, and separately how many hashes of no key, an instance remembers. */
export const KEY_CACHE_MAX_ENTRIES = 10_000;
/**
 * However current its generation, a found key is re-read at least this often. With Redis this is only
 * defence in depth (a row edited by hand); without it, it bounds how long another instance, which
 * cannot see this process's generation, may keep a revoked key: see docs/operations.md.
 */
export const KEY_CACHE_MAX_AGE_MS = 10_000;

export class KeyResolver {
  private readonly cache = new Map<string, CachedKey>();
  private readonly unknown = new Set<string>();
  /** Reads in flight, by hash and generation: a burst of requests with a key not cached yet reads it once. */
  private readonly loading = new Map<string, Promise<ResolvedKeyRow | undefined>>();
  private readonly maxEntries: number;

  constructor(
    private readonly keys: Pick<ApiKeysRepo, 'findByHash'>,
    private readonly shared: SharedState,
    private readonly clock: Clock,
    options: { maxEntries?: number } = {},
  ) {
    this.maxEntries = options.maxEntries ?? KEY_CACHE_MAX_ENTRIES;
  }

  /**
   * The cached lookup of a key hash when it was active as last read (possibly stale: `confirm` it);
   * undefined when not cached, or known as unknown, revoked or expired. No I/O.
   */
  peekActive(hash: string): CachedKey | undefined {
    const cached = this.cache.get(hash);
    return cached && this.statusOf(cached.row) === 'active' ? cached : undefined;
  }

  /**
   * Looks the key up against the current generation: `generation` when the caller read it (before this
   * call, in a round trip it made anyway), else read here first.
   */
  async resolve(hash: string, generation?: number): Promise<KeyResolution> {
    if (this.unknown.has(hash)) return { status: 'unknown' };
    // Read the generation before the row: a change that lands in between bumps it again, so at worst
    // the next request reloads once more; it can never keep a stale row.
    const current = generation ?? (await this.shared.generation(IDENTITY_GENERATION));
    return this.confirm(hash, this.cache.get(hash), current);
  }

  /** Checks a peeked entry against a generation the caller read (before this call), reloading if it moved. */
  async confirm(hash: string, cached: CachedKey | undefined, generation: number): Promise<KeyResolution> {
    // An unknown hash stays unknown: new keys are fresh 256-bit secrets, never a hash seen before.
    if (this.unknown.has(hash)) return { status: 'unknown' };
    const fresh = cached && cached.generation === generation && this.clock.now().getTime() - cached.loadedAtMs < KEY_CACHE_MAX_AGE_MS;
    const row = fresh ? cached.row : await this.load(hash, generation);
    return this.classify(row);
  }

  private load(hash: string, generation: number): Promise<ResolvedKeyRow | undefined> {
    const name = `${generation}:${hash}`;
    const inFlight = this.loading.get(name);
    if (inFlight) return inFlight;
    const loaded = this.read(hash, generation).finally(() => this.loading.delete(name));
    this.loading.set(name, loaded);
    return loaded;
  }

  private async read(hash: string, generation: number): Promise<ResolvedKeyRow | undefined> {
    const row = await this.keys.findByHash(hash);
    if (row) {
      remember(this.cache, hash, this.maxEntries);
      this.cache.set(hash, { generation, row, loadedAtMs: this.clock.now().getTime() });
    } else {
      // A key deleted since it was cached (its member left the workspace) is unknown from now on.
      this.cache.delete(hash);
      remember(this.unknown, hash, this.maxEntries);
      this.unknown.add(hash);
    }
    return row;
  }

  private statusOf(row: ResolvedKeyRow | undefined): KeyResolution['status'] {
    if (!row) return 'unknown';
    if (row.revoked_at) return 'revoked';
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now().getTime()) return 'expired';
    return 'active';
  }

  private classify(row: ResolvedKeyRow | undefined): KeyResolution {
    if (!row) return { status: 'unknown' };
    const status = this.statusOf(row);
    if (status !== 'active') return { status };
    return {
      status,
      principal: principalOf(row, 'key', {
        key: { id: row.key_id, surface: row.surface, scopes: row.scopes, rateLimit: row.rate_limit },
      }),
    };
  }
}

/** Makes room for `hash` in a bounded map or set, dropping the entry kept longest. */
export function remember(entries: Map<string, unknown> | Set<string>, hash: string, maxEntries: number): void {
  if (entries.has(hash)) entries.delete(hash);
  else if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
}
