// Turns an API key value into the principal it acts for. Lookups are cached in memory, tagged with the
// identity generation (see generations.ts), so a revocation or a role change is seen on the very next
// request while a steady stream of requests costs no database round trip.
import type { Clock } from '../clock.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { ApiKeysRepo, ResolvedKeyRow } from '../store/api-keys.js';
import { IDENTITY_GENERATION } from './generations.js';
import { principalOf, type Principal } from './principal.js';
import { hashToken } from './tokens.js';

export type KeyResolution =
  | { status: 'active'; principal: Principal }
  | { status: 'unknown' | 'revoked' | 'expired' };

interface CacheEntry {
  generation: number;
  row: ResolvedKeyRow | undefined;
}

const MAX_ENTRIES = 10_000;

export class KeyResolver {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: ApiKeysRepo,
    private readonly shared: SharedState,
    private readonly clock: Clock,
  ) {}

  async resolve(value: string): Promise<KeyResolution> {
    const hash = hashToken(value);
    const row = await this.lookup(hash);
    if (!row) return { status: 'unknown' };
    if (row.revoked_at) return { status: 'revoked' };
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now().getTime()) return { status: 'expired' };
    return {
      status: 'active',
      principal: principalOf(row, 'key', {
        key: { id: row.key_id, surface: row.surface, scopes: row.scopes, rateLimit: row.rate_limit },
      }),
    };
  }

  private async lookup(hash: string): Promise<ResolvedKeyRow | undefined> {
    // Read the generation before the row: a change that lands in between bumps it again, so at worst
    // the next request reloads once more; it can never keep a stale row.
    const generation = await this.shared.generation(IDENTITY_GENERATION);
    const cached = this.cache.get(hash);
    // An unknown hash stays unknown: new keys are fresh 256-bit secrets, never a hash seen before.
    if (cached && (cached.generation === generation || cached.row === undefined)) return cached.row;

    const row = await this.keys.findByHash(hash);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, { generation, row });
    return row;
  }
}
