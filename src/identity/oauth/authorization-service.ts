// The front half of the authorization server: clients register themselves (RFC 7591), an authorization
// request is checked (client, redirect URI, PKCE S256, scope, resource), and a signed-in member's
// consent turns into a one-use code sent back to the client's redirect URI. Framework-free: the routes
// read HTTP, this decides.
import type { Clock } from '../../clock.js';
import type { OauthClientRow, OauthRepo } from '../../store/oauth-repo.js';
import type { Role } from '../../store/schema.js';
import { isStructuredScope } from '../scopes.js';
import { randomUrlToken } from '../tokens.js';
import { OauthError } from './oauth-error.js';
import {
  CODE_CHALLENGE,
  CODE_LIFETIME_MS,
  grantableScopes,
  parseScope,
  proposedScopes,
  redirectUriProblem,
  redirectUriRegistered,
  resourceOf,
} from './oauth-policy.js';
import { issueOauthSecret } from './token-formats.js';

export interface ClientRegistration {
  client_name?: string | undefined;
  redirect_uris: string[];
  grant_types?: string[] | undefined;
  response_types?: string[] | undefined;
  token_endpoint_auth_method?: string | undefined;
}

/** The parameters of GET /oauth/authorize, carried on to the consent page and back. */
export interface AuthorizationRequest {
  response_type?: string | undefined;
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  scope?: string | undefined;
  state?: string | undefined;
  resource?: string | undefined;
}

/** A request whose client and redirect URI are known good: any other fault can be told to the client. */
export interface CheckedRequest {
  client: OauthClientRow;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scopes: string[] | undefined;
  resource: string;
}

/** Who consents: a signed-in member. */
export interface ConsentingMember {
  workspace: { id: string };
  user: { id: string };
  role: Role;
}

export interface ConsentView {
  client_name: string;
  redirect_host: string;
  resource: string;
  /** Every scope the member's role allows, and whether it starts ticked. */
  scopes: Array<{ name: string; proposed: boolean }>;
}

/** Refusals of a request with a known client and redirect URI go back to that URI (RFC 6749 4.1.2.1). */
export class RedirectableError extends OauthError {
  constructor(
    readonly request: CheckedRequest,
    error: OauthError,
  ) {
    super(error.oauthCode, error.message);
  }
}

export class AuthorizationService {
  constructor(
    private readonly repo: OauthRepo,
    private readonly clock: Clock,
  ) {}

  async register(input: ClientRegistration): Promise<Record<string, unknown>> {
    if (input.redirect_uris.length === 0) throw new OauthError('invalid_redirect_uri', 'redirect_uris must list at least one URI');
    for (const uri of input.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OauthError('invalid_redirect_uri', `${problem}: ${uri.slice(0, 200)}`);
    }
    const method = input.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') {
      throw new OauthError('invalid_client_metadata', `token_endpoint_auth_method must be none: clients here are public and prove themselves with PKCE`);
    }
    const unsupportedGrant = (input.grant_types ?? []).find((g) => g !== 'authorization_code' && g !== 'refresh_token');
    if (unsupportedGrant) throw new OauthError('invalid_client_metadata', `grant type ${unsupportedGrant} is not supported: use authorization_code and refresh_token`);
    const unsupportedResponse = (input.response_types ?? []).find((r) => r !== 'code');
    if (unsupportedResponse) throw new OauthError('invalid_client_metadata', `response type ${unsupportedResponse} is not supported: use code`);

    const now = this.clock.now();
    const client = await this.repo.insertClient({
      id: `svc_client_${randomUrlToken(16)}`,
      name: input.client_name?.trim() || 'Unnamed application',
      redirectUris: [...new Set(input.redirect_uris)],
      now,
    });
    return {
      client_id: client.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: client.client_name,
      redirect_uris: client.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async knowsClient(clientId: string): Promise<boolean> {
    return (await this.repo.client(clientId)) !== undefined;
  }

  /**
   * Checks an authorization request. An unknown client or a redirect URI it did not register is an
   * OauthError to show the user (never a redirect: it could send a code anywhere); any other fault is a
   * RedirectableError, to be told to the client at its redirect URI.
   */
  async check(request: AuthorizationRequest, issuer: string): Promise<CheckedRequest> {
    const client = request.client_id ? await this.repo.client(request.client_id) : undefined;
    if (!client) throw new OauthError('invalid_client', request.client_id ? 'Unknown client_id: the application must register first' : 'client_id is missing');
    if (!request.redirect_uri) throw new OauthError('invalid_request', 'redirect_uri is missing');
    if (!redirectUriRegistered(client.redirect_uris, request.redirect_uri)) {
      throw new OauthError('invalid_request', 'redirect_uri is not one the application registered');
    }
    const resource = resourceOf(issuer);
    const checked: CheckedRequest = {
      client,
      redirectUri: request.redirect_uri,
      state: request.state,
      codeChallenge: request.code_challenge ?? '',
      scopes: parseScope(request.scope),
      resource,
    };
    const refuse = (error: OauthError) => new RedirectableError(checked, error);
    if (request.response_type !== 'code') throw refuse(new OauthError('unsupported_response_type', 'response_type must be code'));
    if (!request.code_challenge) throw refuse(new OauthError('invalid_request', 'code_challenge is missing: PKCE is required'));
    if (request.code_challenge_method !== 'S256') {
      throw refuse(new OauthError('invalid_request', 'code_challenge_method must be S256; plain is not accepted'));
    }
    if (!CODE_CHALLENGE.test(request.code_challenge)) throw refuse(new OauthError('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters)'));
    const unknown = checked.scopes?.find((scope) => !isStructuredScope(scope));
    if (unknown) throw refuse(new OauthError('invalid_scope', `Unknown scope ${unknown.slice(0, 60)}`));
    // Without a resource the token is for the one resource there is; a client naming another is told so.
    if (request.resource !== undefined && request.resource !== resource) {
      throw refuse(new OauthError('invalid_target', `resource must be ${resource}`));
    }
    return checked;
  }

  /** What the consent page shows of a checked request, for this member. */
  consentView(request: CheckedRequest, member: ConsentingMember): ConsentView {
    const proposed = new Set(proposedScopes(request.scopes, member.role));
    return {
      client_name: request.client.client_name,
      redirect_host: new URL(request.redirectUri).host,
      resource: request.resource,
      scopes: grantableScopes(member.role).map((name) => ({ name, proposed: proposed.has(name) })),
    };
  }

  /** The member's answer: where the browser goes next, with a code (approved) or access_denied. */
  async decide(request: CheckedRequest, member: ConsentingMember, decision: { approve: boolean; scopes: string[] }, issuer: string): Promise<string> {
    if (!decision.approve) return redirectWith(request, issuer, { error: 'access_denied', error_description: 'The member declined' });
    const scopes = [...new Set(decision.scopes)];
    if (scopes.length === 0) throw new OauthError('invalid_scope', 'Choose at least one scope');
    const allowed = new Set<string>(grantableScopes(member.role));
    const beyond = scopes.find((scope) => !allowed.has(scope));
    if (beyond) throw new OauthError('invalid_scope', `The scope ${beyond.slice(0, 60)} is not one your role (${member.role}) may grant`, 403);
    const code = issueOauthSecret('code');
    const now = this.clock.now();
    await this.repo.insertGrant({
      clientId: request.client.id,
      workspaceId: member.workspace.id,
      userId: member.user.id,
      scopes,
      resource: request.resource,
      redirectUri: request.redirectUri,
      codeHash: code.hash,
      codeChallenge: request.codeChallenge,
      codeExpiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
      now,
    });
    return redirectWith(request, issuer, { code: code.value });
  }
}

/** The client's redirect URI with the answer, its state and our issuer (RFC 9207) added to its query. */
export function redirectWith(request: Pick<CheckedRequest, 'redirectUri' | 'state'>, issuer: string, params: Record<string, string>): string {
  const url = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
