// An OAuth client for tests, over real HTTP: registers, builds a PKCE pair, follows the authorization
// endpoint to the consent page, answers consent as a signed-in member (the page's own call), and
// exchanges codes and refresh tokens at the token endpoint.
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './app.js';

export const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Listens on loopback and answers the base URL (the issuer). */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

export function form(base: string, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

export async function register(base: string, body: object = { client_name: 'Agent', redirect_uris: [REDIRECT_URI] }): Promise<Response> {
  return fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function registeredClient(base: string, name = 'Agent'): Promise<string> {
  const response = await register(base, { client_name: name, redirect_uris: [REDIRECT_URI] });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function authorizationParams(base: string, clientId: string, pkce: Pkce, extra: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: `${base}/mcp`,
    ...extra,
  };
}

/** GET /oauth/authorize without following its redirect. */
export function authorize(base: string, params: Record<string, string>): Promise<Response> {
  return fetch(`${base}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
}

/** The member's answer, as the consent page sends it; answers the redirect_to. */
export async function consent(base: string, cookie: string, request: Record<string, string>, approve: boolean, scopes: string[]): Promise<Response> {
  return fetch(`${base}/api/oauth/consent`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ request, approve, scopes }),
  });
}

/** Registration, authorization and consent: a code and the verifier it needs. */
export async function codeFor(base: string, cookie: string, scopes: string[], clientId?: string): Promise<{ clientId: string; code: string; pkce: Pkce }> {
  const client = clientId ?? (await registeredClient(base));
  const pkce = pkcePair();
  const params = authorizationParams(base, client, pkce);
  const approved = await consent(base, cookie, params, true, scopes);
  if (approved.status !== 200) throw new Error(`consent failed: ${approved.status} ${await approved.text()}`);
  const redirect = new URL(((await approved.json()) as { redirect_to: string }).redirect_to);
  return { clientId: client, code: redirect.searchParams.get('code')!, pkce };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

export function exchange(base: string, clientId: string, code: string, verifier: string, extra: Record<string, string> = {}): Promise<Response> {
  return form(base, '/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT_URI, resource: `${base}/mcp`, ...extra });
}

export function refresh(base: string, clientId: string, refreshToken: string): Promise<Response> {
  return form(base, '/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
}

/** The whole flow up to a token pair for the member whose session `cookie` is. */
export async function tokensFor(base: string, cookie: string, scopes: string[], client?: string): Promise<Tokens & { clientId: string }> {
  const { clientId, code, pkce } = await codeFor(base, cookie, scopes, client);
  const response = await exchange(base, clientId, code, pkce.verifier);
  if (response.status !== 200) throw new Error(`token exchange failed: ${response.status} ${await response.text()}`);
  return { ...((await response.json()) as Tokens), clientId };
}
