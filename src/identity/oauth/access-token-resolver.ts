// Turns an OAuth access token into who it acts for: the member who consented (their role, data-key
// attributes and workspace, as they are now) with the scopes they consented to that their role still
// allows. The one entry point for a resource server (the MCP endpoint): `resolveAccessToken`.
//
// Lookups are cached as API keys' are (../key-resolver.ts): an entry is trusted only under the
// identity generation it was read with, and for a few seconds at most, so a revocation, a role change
// or a member's removal is seen on the next call on every instance, while a steady stream of calls
// costs no store read.
import type { Clock } from '../../clock.js';
import type { SharedState } from '../../shared-state/shared-state.js';
import type { OauthRepo, ResolvedTokenRow } from '../../store/oauth-repo.js';
import { IDENTITY_GENERATION } from '../generations.js';
import { KEY_CACHE_MAX_AGE_MS, KEY_CACHE_MAX_ENTRIES, remember } from '../key-resolver.js';
import type { LastUsedRecorder } from '../last-used.js';
import { principalOf, type Principal } from '../principal.js';
import { hashToken } from '../tokens.js';
import { effectiveScopes } from './oauth-policy.js';
import { isOauthSecret } from './token-formats.js';

export type AccessTokenResolution =
  | { status: 'active'; principal: Principal; scopes: string[]; grantId: string }
  | { status: AccessTokenRefusal };

/**
 * Why a token acts for nobody: not one of our access tokens at all, not known, revoked (or its grant
 * was), expired, or issued for another resource than the one asking.
 */
export type AccessTokenRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'wrong_audience';

interface CachedToken {
  readonly generation: number;
  readonly row: ResolvedTokenRow;
  readonly loadedAtMs: number;
}

export class AccessTokenResolver {
  private readonly cache = new Map<string, CachedToken>();
  private readonly unknown = new Set<string>();

  constructor(
    private readonly repo: Pick<OauthRepo, 'findToken'>,
    private readonly shared: SharedState,
    private readonly clock: Clock,
    private readonly lastUsed: LastUsedRecorder,
  ) {}

  /** The principal and scopes of an access token issued for `resource`, or why it has none. */
  async resolveAccessToken(value: string, { resource }: { resource: string }): Promise<AccessTokenResolution> {
    if (!isOauthSecret('access', value)) return { status: 'malformed' };
    const hash = hashToken(value);
    // New tokens are fresh 256-bit secrets: a hash seen unknown stays unknown.
    if (this.unknown.has(hash)) return { status: 'unknown' };
    // The generation is read before the row: a change landing in between bumps it again.
    const generation = await this.shared.generation(IDENTITY_GENERATION);
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(hash);
    const fresh = cached && cached.generation === generation && nowMs - cached.loadedAtMs < KEY_CACHE_MAX_AGE_MS;
    const row = fresh ? cached.row : await this.load(hash, generation, nowMs);
    if (!row || row.kind !== 'access') return { status: 'unknown' };
    if (row.revoked_at) return { status: 'revoked' };
    if (row.expires_at.getTime() <= nowMs) return { status: 'expired' };
    if (row.resource !== resource) return { status: 'wrong_audience' };
    this.lastUsed.touch(row.grant_id, new Date(nowMs));
    const scopes = effectiveScopes(row.scopes, row.role);
    const principal = principalOf(row, 'oauth', { oauth: { grantId: row.grant_id, clientId: row.client_id, scopes } });
    return { status: 'active', principal, scopes, grantId: row.grant_id };
  }

  private async load(hash: string, generation: number, nowMs: number): Promise<ResolvedTokenRow | undefined> {
    const row = await this.repo.findToken(hash);
    if (row) {
      remember(this.cache, hash, KEY_CACHE_MAX_ENTRIES);
      this.cache.set(hash, { generation, row, loadedAtMs: nowMs });
    } else {
      // Deleted since it was cached (its member left the workspace): unknown from now on.
      this.cache.delete(hash);
      remember(this.unknown, hash, KEY_CACHE_MAX_ENTRIES);
      this.unknown.add(hash);
    }
    return row;
  }
}
