// Admits a request carrying an API key: resolves the key and, where the route is rate-limited, counts
// the request. For a key seen before, both happen in ONE shared-state round trip: the count is made
// against the cached key's budget and the identity generation is read back with it, which confirms
// the cached key (or sends us to the store when the generation moved). See key-resolver.ts. The same
// trip reads the workspace's model and connection generations, which the principal carries for the
// rest of the request (request-generations.ts): a query then costs no other round trip to confirm its
// cached model and connection. A key not seen before costs two: the generation, then the count.
//
// A well-formed key is judged by the key alone: admitted on its own budget, or refused as invalid
// (unknown, revoked, expired), and only then does the refusal spend the client address's budget (the
// guard does that). The address's budget never stands between a valid key and its lookup: after a
// restart no key is cached yet, and a neighbour flooding bad keys from the same address (a NAT, a
// proxy) would otherwise lock out every working client behind it. What bounds a flood of random
// well-formed keys is the cost of each: a SHA-256 and one read of the unique secret_hash index, once
// per hash (an unknown hash is remembered apart from keys found, so the flood cannot push admitted keys
// out of the cache); past the address's budget the answers are 429s. Guessing gains nothing from the
// rate: a key holds 256 random bits.
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../identity/principal.js';
import { requestGenerations, withGenerations } from '../shared-state/request-generations.js';
import { hashToken } from '../identity/tokens.js';
import type { Services } from '../services.js';
import type { WindowCount } from '../shared-state/shared-state.js';
import { activePrincipal, keyFromHeader } from './auth.js';
import { countRequest, type Spender } from './rate-limit.js';
import type { KeyAuth, RateLimitPolicyName } from './route-policy.js';

export interface Admission {
  principal: Principal;
  /** The counted window, when the route is rate-limited. */
  window?: WindowCount;
}

/** Who spends a request's budgets: an OAuth grant spends per-key budgets (questions) as a key of its own would. */
export function spenderOf(principal: Principal): Spender {
  const keyId = principal.key?.id ?? (principal.oauth ? `oauth:${principal.oauth.grantId}` : undefined);
  return { keyId, userId: principal.user.id, workspaceId: principal.workspace.id, keyLimit: principal.key?.rateLimit };
}

export async function admitKey(
  request: FastifyRequest,
  auth: KeyAuth,
  rateLimit: RateLimitPolicyName | undefined,
  { keyResolver, shared }: Pick<Services, 'keyResolver' | 'shared'>,
): Promise<Admission> {
  const hash = hashToken(keyFromHeader(request, auth));
  // Only a key last seen active takes the one-round-trip path: a revoked or expired key must not keep
  // spending a budget (for surface C, its whole workspace's) with every refused request.
  const cached = keyResolver.peekActive(hash);
  if (rateLimit && cached) {
    const { row } = cached;
    const window = await countRequest(shared, rateLimit, { keyId: row.key_id, workspaceId: row.workspace_id, keyLimit: row.rate_limit }, requestGenerations(row.workspace_id));
    // A key found revoked here has spent one unit of its (now useless) budget: harmless.
    const principal = activePrincipal(await keyResolver.confirm(hash, cached, window.generations[0]!));
    return { principal: withGenerations(principal, row.workspace_id, window.generations), window };
  }
  // A key not seen active here is looked up, whatever its address has spent (see above).
  const principal = activePrincipal(await keyResolver.resolve(hash));
  if (!rateLimit) return { principal };
  const window = await countRequest(shared, rateLimit, spenderOf(principal), requestGenerations(principal.workspace.id));
  return { principal: withGenerations(principal, principal.workspace.id, window.generations), window };
}

