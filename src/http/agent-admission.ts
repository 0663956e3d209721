// How a request to the MCP endpoint proves whom it acts for: the one place its credentials are
// resolved. Either a structured API key (`Authorization: Bearer svc_api_…`), admitted exactly as on
// surface C (the key's member, role, data keys and scopes), or an OAuth access token (`svc_oat_…`)
// issued for this endpoint, which acts as the member who consented with the scopes they consented to
// (identity/oauth/access-token-resolver.ts). Either way C's workspace budget is counted, and nothing
// after the guard needs to know which kind of credential it was (principal.ts: grantedScopes).
import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../core/errors.js';
import type { AccessTokenRefusal } from '../identity/oauth/access-token-resolver.js';
import { bearerChallenge } from '../identity/oauth/metadata.js';
import { resourceOf } from '../identity/oauth/oauth-policy.js';
import { isOauthSecret } from '../identity/oauth/token-formats.js';
import type { Services } from '../services.js';
import { issuerOf } from '../surfaces/oauth/issuer.js';
import { bearerValue, refuseCredentialInUrl } from './auth.js';
import { admitKey, spenderOf, type Admission } from './key-admission.js';
import { countRequest } from './rate-limit.js';
import type { RateLimitPolicyName } from './route-policy.js';

const REFUSALS: Record<AccessTokenRefusal, [message: string, code: string]> = {
  malformed: ['Malformed access token', 'invalid_token'],
  unknown: ['Invalid access token', 'invalid_token'],
  revoked: ['This access token has been revoked', 'token_revoked'],
  expired: ['This access token has expired: refresh it', 'token_expired'],
  wrong_audience: ['This access token was issued for another resource than this MCP endpoint', 'wrong_audience'],
};

export async function admitAgent(
  request: FastifyRequest,
  rateLimit: RateLimitPolicyName | undefined,
  services: Pick<Services, 'keyResolver' | 'shared' | 'oauth'>,
): Promise<Admission> {
  const bearer = bearerValue(request);
  if (!bearer || !isOauthSecret('access', bearer)) return admitKey(request, 'structured-key', rateLimit, services);
  refuseCredentialInUrl(request);
  const resolution = await services.oauth.access.resolveAccessToken(bearer, { resource: resourceOf(issuerOf(request)) });
  if (resolution.status !== 'active') throw new UnauthenticatedError(...REFUSALS[resolution.status]);
  const { principal } = resolution;
  return rateLimit ? { principal, window: await countRequest(services.shared, rateLimit, spenderOf(principal)) } : { principal };
}

/** The WWW-Authenticate value of the MCP endpoint's 401: where a client learns how to get a token (RFC 9728). */
export function mcpChallenge(request: FastifyRequest): string {
  return bearerChallenge(issuerOf(request));
}
