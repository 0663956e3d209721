// The discovery documents: protected-resource metadata (RFC 9728) for the MCP endpoint, and this
// authorization server's metadata (RFC 8414). Both are built from the issuer, the base URL the client
// reached us at, so that what they name is reachable the same way.
import { ALL_STRUCTURED_SCOPES } from '../scopes.js';
import { MCP_RESOURCE_PATH, resourceOf } from './oauth-policy.js';

export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

export function protectedResourceMetadata(issuer: string) {
  return {
    resource: resourceOf(issuer),
    authorization_servers: [issuer],
    scopes_supported: ALL_STRUCTURED_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Analytics MCP server',
  };
}

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${issuer}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${issuer}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: ALL_STRUCTURED_SCOPES,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * The WWW-Authenticate value of a 401 from the MCP endpoint (RFC 9728 section 5.1): where a client
 * finds out how to get a token.
 */
export function bearerChallenge(issuer: string): string {
  return `Bearer resource_metadata="${issuer}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}"`;
}
