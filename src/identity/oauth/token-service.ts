// The token endpoint's work (RFC 6749 with OAuth 2.1's rules) and revocation (RFC 7009). A code is used
// once, within a minute, by the client it was issued to, with the same redirect URI and the PKCE
// verifier of its challenge. Refresh tokens rotate: each use spends the token and issues a new pair;
// a spent token presented again means two parties hold it, so the whole grant is revoked (RFC 9700
// 4.14.2). Every revocation bumps the identity generation, which makes every instance drop what it
// cached of the grant's tokens on the next call.
import type { Clock } from '../../clock.js';
import type { SharedState } from '../../shared-state/shared-state.js';
import type { OauthRepo, ResolvedTokenRow } from '../../store/oauth-repo.js';
import { IDENTITY_GENERATION } from '../generations.js';
import { hashToken } from '../tokens.js';
import { OauthError } from './oauth-error.js';
import { ACCESS_TOKEN_LIFETIME_MS, effectiveScopes, parseScope, pkceVerifies, REFRESH_TOKEN_LIFETIME_MS, resourceOf } from './oauth-policy.js';
import { isOauthSecret, issueOauthSecret } from './token-formats.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface CodeExchange {
  clientId: string;
  code: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  resource: string | undefined;
}

export interface RefreshExchange {
  clientId: string;
  refreshToken: string;
  scope: string | undefined;
  resource: string | undefined;
}

export class TokenService {
  constructor(
    private readonly repo: OauthRepo,
    private readonly shared: SharedState,
    private readonly clock: Clock,
  ) {}

  async exchangeCode(input: CodeExchange, issuer: string): Promise<TokenResponse> {
    const grant = isOauthSecret('code', input.code) ? await this.repo.grantByCode(hashToken(input.code)) : undefined;
    if (!grant || grant.revoked_at) throw new OauthError('invalid_grant', 'The authorization code is invalid');
    if (grant.code_used_at) {
      // A code presented twice may have been intercepted: what was issued for it is withdrawn.
      await this.revokeGrant(grant.id);
      throw new OauthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are revoked');
    }
    const now = this.clock.now();
    if (grant.code_expires_at.getTime() <= now.getTime()) throw new OauthError('invalid_grant', 'The authorization code has expired');
    if (grant.client_id !== input.clientId) throw new OauthError('invalid_grant', 'The authorization code was issued to another client');
    if (input.redirectUri !== grant.redirect_uri) throw new OauthError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (!input.codeVerifier) throw new OauthError('invalid_request', 'code_verifier is missing: PKCE is required');
    if (!pkceVerifies(input.codeVerifier, grant.code_challenge)) throw new OauthError('invalid_grant', 'code_verifier does not match the code_challenge');
    this.checkResource(input.resource, issuer);
    if (!(await this.repo.claimCode(grant.id, now))) {
      await this.revokeGrant(grant.id);
      throw new OauthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are revoked');
    }
    return this.issuePair(grant.id, grant.scopes, undefined);
  }

  async refresh(input: RefreshExchange, issuer: string): Promise<TokenResponse> {
    const row = isOauthSecret('refresh', input.refreshToken) ? await this.repo.findToken(hashToken(input.refreshToken)) : undefined;
    if (!row || row.kind !== 'refresh' || row.revoked_at) throw new OauthError('invalid_grant', 'The refresh token is invalid or revoked');
    if (row.client_id !== input.clientId) throw new OauthError('invalid_grant', 'The refresh token was issued to another client');
    if (row.used_at) {
      await this.revokeGrant(row.grant_id);
      throw new OauthError('invalid_grant', 'The refresh token was already used; the grant is revoked, sign in again');
    }
    const now = this.clock.now();
    if (row.expires_at.getTime() <= now.getTime()) throw new OauthError('invalid_grant', 'The refresh token has expired');
    this.checkResource(input.resource, issuer);
    const requested = parseScope(input.scope);
    // Narrowing on refresh is not offered: a client wanting fewer scopes asks for a new consent.
    if (requested && !sameSet(requested, row.scopes)) {
      throw new OauthError('invalid_scope', 'scope on refresh must be left out or equal the granted scopes');
    }
    if (!(await this.repo.claimToken(row.token_id, now))) {
      await this.revokeGrant(row.grant_id);
      throw new OauthError('invalid_grant', 'The refresh token was already used; the grant is revoked, sign in again');
    }
    return this.issuePair(row.grant_id, row.scopes, row);
  }

  /**
   * RFC 7009: revoking either token of a grant revokes the grant, and with it every token issued under
   * it. An unknown or malformed token is not an error (the client's aim, no valid token, holds).
   */
  async revoke(input: { clientId: string; token: string }): Promise<void> {
    const kind = isOauthSecret('access', input.token) || isOauthSecret('refresh', input.token);
    const row = kind ? await this.repo.findToken(hashToken(input.token)) : undefined;
    if (!row) return;
    if (row.client_id !== input.clientId) throw new OauthError('unauthorized_client', 'The token was issued to another client');
    await this.revokeGrant(row.grant_id);
  }

  async revokeGrant(grantId: string): Promise<void> {
    await this.repo.revokeGrant(grantId, this.clock.now());
    await this.shared.bump(IDENTITY_GENERATION);
  }

  private checkResource(resource: string | undefined, issuer: string): void {
    if (resource !== undefined && resource !== resourceOf(issuer)) {
      throw new OauthError('invalid_target', `resource must be ${resourceOf(issuer)}`);
    }
  }

  /** A new access and refresh token for the grant; the scope reported is what the member's role allows now. */
  private async issuePair(grantId: string, scopes: string[], member: Pick<ResolvedTokenRow, 'role'> | undefined): Promise<TokenResponse> {
    const now = this.clock.now();
    const access = issueOauthSecret('access');
    const refresh = issueOauthSecret('refresh');
    await this.repo.insertToken({ grantId, kind: 'access', tokenHash: access.hash, now, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_MS) });
    await this.repo.insertToken({ grantId, kind: 'refresh', tokenHash: refresh.hash, now, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS) });
    return {
      access_token: access.value,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      refresh_token: refresh.value,
      scope: (member ? effectiveScopes(scopes, member.role) : scopes).join(' '),
    };
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === new Set(b).size && a.every((x) => b.includes(x));
}
