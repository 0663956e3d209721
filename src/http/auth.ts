// Resolves the principal of a request from its API key (surfaces A, B, C) or session cookie (console,
// D). Every refusal says what was wrong (missing, malformed, wrong kind, unknown, revoked, expired)
// but never which part of a secret was wrong.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, BadRequestError, UnauthenticatedError } from '../core/errors.js';
import { keyInUrl } from '../identity/credential-shapes.js';
import { KEY_FORMATS, surfaceOfKey } from '../identity/key-formats.js';
import { isOauthSecret } from '../identity/oauth/token-formats.js';
import type { KeyResolution } from '../identity/key-resolver.js';
import type { Principal } from '../identity/principal.js';
import type { SessionService } from '../identity/session-service.js';
import type { KeySurface } from '../store/schema.js';
import type { KeyAuth } from './route-policy.js';

export const SESSION_COOKIE = 'svc_session';

const SURFACE_OF_AUTH: Record<KeyAuth, KeySurface> = {
  'question-key': 'question',
  'workspace-key': 'workspace',
  'structured-key': 'structured',
};

/**
 * A credential in the URL is refused (400) even beside a good header: proxies, browser history and
 * server logs keep URLs, so the client must be told at once, not find out from a leak.
 */
export function refuseCredentialInUrl(request: FastifyRequest): void {
  const inUrl = keyInUrl(request.url);
  if (inUrl) {
    throw new BadRequestError(
      `API keys are accepted only in the Authorization header ('Authorization: Bearer <key>'), never in the URL, ` +
        `which proxies, browsers and logs keep: remove ${inUrl}. If it held a real key, revoke that key and create a new one.`,
      'key_in_url',
    );
  }
}

const BEARER = /^Bearer +(\S+)\s*$/i;

/** The credential of `Authorization: Bearer <value>`, or undefined without one. */
export function bearerValue(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

/** The key value from `Authorization: Bearer …`, checked against the format the route takes. */
export function keyFromHeader(request: FastifyRequest, auth: KeyAuth): string {
  refuseCredentialInUrl(request);
  const wanted = SURFACE_OF_AUTH[auth];
  const expected = `${KEY_FORMATS[wanted].label} (${KEY_FORMATS[wanted].example})`;
  const header = request.headers.authorization;
  if (!header) {
    throw new UnauthenticatedError(`Missing API key: send 'Authorization: Bearer <key>' with a ${expected}`, 'missing_key');
  }
  const value = bearerValue(request);
  if (!value) {
    throw new UnauthenticatedError("The Authorization header must use the Bearer scheme: 'Authorization: Bearer <key>'", 'invalid_auth_scheme');
  }
  const surface = surfaceOfKey(value);
  if (!surface && isOauthSecret('access', value)) {
    throw new UnauthenticatedError(`Wrong kind of credential: an OAuth access token is for the MCP endpoint (/mcp); this route takes a ${expected}`, 'wrong_key_type');
  }
  if (!surface) throw new UnauthenticatedError(`Malformed API key: this route takes a ${expected}`, 'malformed_key');
  if (surface !== wanted) {
    throw new UnauthenticatedError(`Wrong kind of API key: this route takes a ${expected}, not a ${KEY_FORMATS[surface].label}`, 'wrong_key_type');
  }
  return value;
}

/** The principal of an active key; a 401 saying why for any other. */
export function activePrincipal(resolution: KeyResolution): Principal {
  switch (resolution.status) {
    case 'active':
      return resolution.principal;
    case 'revoked':
      throw new UnauthenticatedError('This API key has been revoked', 'key_revoked');
    case 'expired':
      throw new UnauthenticatedError('This API key has expired', 'key_expired');
    case 'unknown':
      throw new UnauthenticatedError('Invalid API key', 'invalid_key');
  }
}

export async function authenticateSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionService,
): Promise<Principal> {
  if (/^Bearer\s/i.test(request.headers.authorization ?? '')) {
    throw new UnauthenticatedError('This route takes a signed-in session, not an API key: sign in to the console', 'session_required');
  }
  // Cookies are parsed here, on session routes only, rather than for every request.
  const token = request.headers.cookie ? request.server.parseCookie(request.headers.cookie)[SESSION_COOKIE] : undefined;
  if (!token) throw new UnauthenticatedError('Sign in first: this route needs a console session', 'session_required');
  refuseCrossSiteWrite(request);

  const principal = await sessions.resolve(token);
  if (!principal) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    throw new UnauthenticatedError('Your session has expired or was signed out; sign in again', 'session_expired');
  }
  return principal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated writes: a cross-site form can send a cookie but cannot send
 * `Content-Type: application/json` without a CORS preflight (which we never grant), and a browser
 * always names the page's origin in `Origin`, which must then be this host.
 */
export function refuseCrossSiteWrite(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AppError(415, 'unsupported_media_type', 'Console writes must be sent with Content-Type: application/json');
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost !== request.host) {
      throw new AppError(403, 'cross_site_refused', 'Cross-site request refused: the Origin header does not match this host');
    }
  }
}
