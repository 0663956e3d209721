// How a request to the MCP endpoint proves whom it acts for: the one place its credentials are
// resolved. Today that is a structured API key (`Authorization: Bearer svc_api_…`), admitted exactly as
// on surface C (the key's member, role, data keys and scopes; C's workspace budget counted). An OAuth
// access token will resolve here to a principal with its consented scopes; nothing after the guard
// needs to know which kind of credential it was.
import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { admitKey, type Admission } from './key-admission.js';
import type { RateLimitPolicyName } from './route-policy.js';

export function admitAgent(
  request: FastifyRequest,
  rateLimit: RateLimitPolicyName | undefined,
  services: Pick<Services, 'keyResolver' | 'shared'>,
): Promise<Admission> {
  return admitKey(request, 'structured-key', rateLimit, services);
}

/** Where the 401 of the MCP endpoint sends a client to learn how to get a credential (RFC 9728). */
export function resourceMetadataUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/.well-known/oauth-protected-resource`;
}
