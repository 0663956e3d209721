// The rules of this authorization server that are not a matter of storage: lifetimes, which redirect
// URIs a client may register, PKCE S256, and which scopes a member may grant.
import { sha256 } from '../../crypto/digest.js';
import type { Role } from '../../store/schema.js';
import { roleAtLeast } from '../roles.js';
import { DEFAULT_STRUCTURED_SCOPES, STRUCTURED_SCOPES, type StructuredScope } from '../scopes.js';

/** An authorization code is exchanged by the client straight after the redirect: a minute is plenty. */
export const CODE_LIFETIME_MS = 60_000;
/** Access tokens are short-lived: a stolen one is worth an hour at most. */
export const ACCESS_TOKEN_LIFETIME_MS = 3_600_000;
/** Refresh tokens rotate on every use; an unused one lapses after 30 days. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000;

/** The path of the one protected resource, the MCP endpoint, below the service's base URL. */
export const MCP_RESOURCE_PATH = '/mcp';

export const resourceOf = (issuer: string) => `${issuer}${MCP_RESOURCE_PATH}`;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can. HTTPS anywhere, plain HTTP only on
 * the loopback interface (a native app's local listener, RFC 8252): a code sent over plain HTTP across a
 * network could be read on the way. No fragment (RFC 6749 3.1.2), no credentials in the URI.
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri.slice(0, 100)} is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return 'a redirect URI must not have a fragment';
  if (url.username || url.password) return 'a redirect URI must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'a redirect URI must use https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}

/**
 * Whether a redirect URI of an authorization request is one the client registered: exactly, except that
 * on a loopback address over plain HTTP any port will do (RFC 8252 section 7.3: a native app's listener
 * takes whichever port is free when it starts).
 */
export function redirectUriRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopbackWithoutPort(requested);
  return asked !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === asked);
}

function loopbackWithoutPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  url.port = '';
  return url.toString();
}

/** RFC 7636: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** The S256 challenge is a base64url SHA-256: 43 characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function pkceVerifies(verifier: string, challenge: string): boolean {
  return CODE_VERIFIER.test(verifier) && sha256(verifier, 'base64url') === challenge;
}

/** The scopes a member of this role may grant, in the order the scope list gives them. */
export function grantableScopes(role: Role): StructuredScope[] {
  return (Object.keys(STRUCTURED_SCOPES) as StructuredScope[]).filter((scope) => roleAtLeast(role, STRUCTURED_SCOPES[scope]));
}

/**
 * What a grant's scopes allow now: those its member's current role still allows. A lowered role takes
 * effect on the next call; a scope no longer in the list grants nothing.
 */
export function effectiveScopes(consented: readonly string[], role: Role): string[] {
  const allowed = new Set<string>(grantableScopes(role));
  return consented.filter((scope) => allowed.has(scope));
}

/** Scopes ticked when the consent page opens: those asked for, else the read-only defaults; never more than the role allows. */
export function proposedScopes(requested: readonly string[] | undefined, role: Role): string[] {
  const wanted = requested && requested.length > 0 ? requested : DEFAULT_STRUCTURED_SCOPES;
  return effectiveScopes(wanted, role);
}

/** The scope parameter (space-separated, RFC 6749 3.3) as a list without repeats. */
export function parseScope(scope: string | undefined): string[] | undefined {
  if (scope === undefined || scope.trim() === '') return undefined;
  return [...new Set(scope.trim().split(/ +/))];
}
