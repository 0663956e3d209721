// The authorization server's parts, wired over one store: createServices exposes them as `oauth`.
import type { Clock } from '../../clock.js';
import type { SharedState } from '../../shared-state/shared-state.js';
import type { Store } from '../../store/db.js';
import { oauthRepo } from '../../store/oauth-repo.js';
import { LastUsedRecorder } from '../last-used.js';
import { AccessTokenResolver } from './access-token-resolver.js';
import { AuthorizationService } from './authorization-service.js';
import { GrantService } from './grant-service.js';
import { TokenService } from './token-service.js';

export function createOauthServices(store: Store, shared: SharedState, clock: Clock, onBackgroundError?: (error: unknown) => void) {
  const repo = oauthRepo(store.db);
  /** Last use of each grant's access tokens, written in batches as keys' are. */
  const lastUsed = new LastUsedRecorder(repo, 10_000, onBackgroundError);
  const tokens = new TokenService(repo, shared, clock);
  return {
    authorization: new AuthorizationService(repo, clock),
    tokens,
    grants: new GrantService(repo, tokens, clock, lastUsed),
    /** What a resource server (the MCP endpoint) calls: `oauth.access.resolveAccessToken(value, { resource })`. */
    access: new AccessTokenResolver(repo, shared, clock, lastUsed),
    lastUsed,
  };
}

export type OauthServices = ReturnType<typeof createOauthServices>;
