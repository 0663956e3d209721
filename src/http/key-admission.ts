// Admits a request carrying an API key: resolves the key and, where the route is rate-limited, counts
// the request. For a key seen before, both happen in ONE shared-state round trip: the count is made
// against the cached key's budget and the identity generation is read back with it, which confirms
// the cached key (or sends us to the store when the generation moved). See key-resolver.ts. A key not
// seen before costs two: the address's budget of refusals (read with the generation), then the count.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDENTITY_GENERATION } from '../identity/generations.js';
import type { Principal } from '../identity/principal.js';
import { hashToken } from '../identity/tokens.js';
import type { Services } from '../services.js';
import type { WindowCount } from '../shared-state/shared-state.js';
import { activePrincipal, keyFromHeader } from './auth.js';
import { checkUnauthenticated, countRequest, type Spender } from './rate-limit.js';
import type { KeyAuth, RateLimitPolicyName } from './route-policy.js';

export interface Admission {
  principal: Principal;
  /** The counted window, when the route is rate-limited. */
  window?: WindowCount;
}

export function spenderOf(principal: Principal): Spender {
  return { keyId: principal.key?.id, userId: principal.user.id, workspaceId: principal.workspace.id, keyLimit: principal.key?.rateLimit };
}

export async function admitKey(
  request: FastifyRequest,
  reply: FastifyReply,
  auth: KeyAuth,
  rateLimit: RateLimitPolicyName | undefined,
  { keyResolver, shared, clock }: Pick<Services, 'keyResolver' | 'shared' | 'clock'>,
): Promise<Admission> {
  const hash = hashToken(keyFromHeader(request, auth));
  // Only a key last seen active takes the one-round-trip path: a revoked or expired key must not keep
  // spending a budget (for surface C, its whole workspace's) with every refused request.
  const cached = keyResolver.peekActive(hash);
  if (rateLimit && cached?.row) {
    const { row } = cached;
    const window = await countRequest(shared, rateLimit, { keyId: row.key_id, workspaceId: row.workspace_id, keyLimit: row.rate_limit }, IDENTITY_GENERATION);
    // A key found revoked here has spent one unit of its (now useless) budget: harmless.
    const principal = activePrincipal(await keyResolver.confirm(hash, cached, window.generation));
    return { principal, window };
  }
  // A key not seen active here goes to the store, unless its address has spent its budget of refused
  // requests; the identity generation the lookup needs comes back in the same round trip.
  const generation = await checkUnauthenticated(shared, reply, request.ip, clock.now().getTime(), IDENTITY_GENERATION);
  const principal = activePrincipal(await keyResolver.resolve(hash, generation));
  return rateLimit ? { principal, window: await countRequest(shared, rateLimit, spenderOf(principal)) } : { principal };
}
