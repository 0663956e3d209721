// OAuth 2.1 for remote agents over real HTTP, on both metadata stores: discovery, registration, the
// authorization endpoint and consent, PKCE (S256 only), the token endpoint with one-use codes and
// rotating refresh tokens, revocation, and what an access token resolves to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_LIFETIME_MS, CODE_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS } from '../src/identity/oauth/oauth-policy.js';
import { hashToken } from '../src/identity/tokens.js';
import { pruneExpired } from '../src/jobs/retention.js';
import { consoleCall, PASSWORD, seedWorkspace, signIn, type SeededWorkspace } from './helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from './helpers/metadata-stores.js';
import { PROBES } from './helpers/probe-routes.js';
import {
  authorizationParams,
  authorize,
  codeFor,
  consent,
  exchange,
  form,
  pkcePair,
  REDIRECT_URI,
  refresh,
  register,
  registeredClient,
  tokensFor,
  listen,
} from './helpers/oauth-flow.js';

describe.each(METADATA_STORES)('OAuth on $name', (store) => {
  let t: StoreTestApp;
  let base: string;
  let ws: SeededWorkspace;
  let other: SeededWorkspace;
  let viewer: string;
  let luminary: string;
  /** One registered client for the flows (registration is rate-limited per address, as for a real agent). */
  let agent: string;

  beforeAll(async () => {
    // A trusted proxy: the rate-limit test speaks from an address of its own (X-Forwarded-For).
    t = await store.start({ env: { TRUST_PROXY: 'true' } });
    base = await listen(t);
    ws = await seedWorkspace(t.services);
    other = await seedWorkspace(t.services);
    await t.services.tenancy.patchAttributes(ws.id, ws.members.viewer.id, { region: 'EMEA' });
    viewer = await signIn(t.app, ws.members.viewer.email);
    luminary = await signIn(t.app, ws.members.luminary.email);
    agent = await registeredClient(base);
  });
  afterAll(() => t?.close());

  const resolve = (token: string, resource = `${base}/mcp`) => t.services.oauth.access.resolveAccessToken(token, { resource });

  describe('discovery', () => {
    it('names the MCP resource and this authorization server, at both protected-resource paths', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const document = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
        expect(document).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'] });
        expect(document.scopes_supported).toContain('query');
      }
    });

    it('lists the endpoints, S256 only, public clients only', async () => {
      const document = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(document).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
    });
  });

  describe('registration', () => {
    it('registers a public client with https or loopback redirect URIs', async () => {
      const response = await register(base, { client_name: 'Desk agent', redirect_uris: ['https://agent.example.com/cb', 'http://localhost:8123/cb', 'http://[::1]:9/cb'] });
      expect(response.status).toBe(201);
      const client = (await response.json()) as Record<string, unknown>;
      expect(client).toMatchObject({ client_name: 'Desk agent', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
      expect(client.client_id).toMatch(/^svc_client_/);
    });

    it.each([
      [{ redirect_uris: ['http://agent.example.com/cb'] }, 'invalid_redirect_uri', /https, or http on a loopback address/],
      [{ redirect_uris: ['https://agent.example.com/cb#frag'] }, 'invalid_redirect_uri', /fragment/],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri', /not an absolute URL/],
      [{ redirect_uris: [] }, 'invalid_redirect_uri', /at least one/],
      [{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata', /must be none/],
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata', /client_credentials is not supported/],
      [{ client_name: 'x' }, 'invalid_request', /redirect_uris/],
    ])('refuses %j in OAuth’s error shape', async (body, error, description) => {
      const response = await register(base, body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: string; error_description: string };
      expect(answer.error).toBe(error);
      expect(answer.error_description).toMatch(description);
    });
  });

  describe('authorization endpoint', () => {
    it('hands a valid request to the console consent page, with its parameters', async () => {
      const clientId = await registeredClient(base);
      const params = authorizationParams(base, clientId, pkcePair(), { scope: 'query models:read' });
      const response = await authorize(base, params);
      expect(response.status).toBe(302);
      const next = new URL(response.headers.get('location')!, base);
      expect(next.pathname).toBe('/oauth/consent');
      expect(Object.fromEntries(next.searchParams)).toEqual(params);
    });

    it('refuses plain PKCE, a missing challenge, another resource and an unknown scope at the redirect URI, with the state', async () => {
      const clientId = await registeredClient(base);
      const pkce = pkcePair();
      const cases: Array<[Record<string, string>, string, RegExp]> = [
        [{ code_challenge_method: 'plain', code_challenge: pkce.verifier }, 'invalid_request', /S256; plain is not accepted/],
        [{ code_challenge_method: '' }, 'invalid_request', /S256/],
        [{ code_challenge: '' }, 'invalid_request', /PKCE is required/],
        [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target', /resource must be/],
        [{ scope: 'query drop:tables' }, 'invalid_scope', /Unknown scope drop:tables/],
        [{ response_type: 'token' }, 'unsupported_response_type', /code/],
      ];
      for (const [change, error, description] of cases) {
        const response = await authorize(base, authorizationParams(base, clientId, pkce, change));
        expect(response.status, JSON.stringify(change)).toBe(302);
        const back = new URL(response.headers.get('location')!);
        expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
        expect(back.searchParams.get('error')).toBe(error);
        expect(back.searchParams.get('error_description')).toMatch(description);
        expect(back.searchParams.get('state')).toBe('st-123');
        expect(back.searchParams.get('iss')).toBe(base);
      }
    });

    it('takes a loopback redirect URI on any port (a local listener’s port is whatever was free), and nothing else loosely', async () => {
      const response = await register(base, { client_name: 'Local', redirect_uris: ['http://127.0.0.1/callback', 'https://agent.example/cb'] });
      const clientId = ((await response.json()) as { client_id: string }).client_id;
      const to = async (uri: string) => (await authorize(base, authorizationParams(base, clientId, pkcePair(), { redirect_uri: uri }))).status;
      expect(await to('http://127.0.0.1:61234/callback')).toBe(302);
      expect(await to('http://127.0.0.1:61234/other')).toBe(400);
      expect(await to('http://localhost:61234/callback')).toBe(400);
      expect(await to('https://agent.example:8443/cb')).toBe(400);
      expect(await to('https://agent.example/cb/')).toBe(400);
    });

    it('never redirects to a URI the client did not register, nor for an unknown client', async () => {
      const clientId = await registeredClient(base);
      const foreign = await authorize(base, authorizationParams(base, clientId, pkcePair(), { redirect_uri: 'https://attacker.example/cb' }));
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('location')).toBeNull();
      expect(await foreign.json()).toMatchObject({ code: 'invalid_request', error: 'redirect_uri is not one the application registered' });
      const unknown = await authorize(base, authorizationParams(base, 'svc_client_nobody', pkcePair()));
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ code: 'invalid_client' });
    });
  });

  describe('consent', () => {
    it('shows the client, its redirect host and only the scopes the role may grant, ticked as asked', async () => {
      const clientId = await registeredClient(base, 'Research agent');
      const params = authorizationParams(base, clientId, pkcePair(), { scope: 'query users:read' });
      // Over HTTP, as the page asks: the resource is named after the address the request reached.
      const describe = (cookie: string) => fetch(`${base}/api/oauth/consent?${new URLSearchParams(params)}`, { headers: { cookie } });
      const view = await describe(viewer);
      expect(view.status).toBe(200);
      const body = (await view.json()) as { scopes: unknown };
      expect(body).toMatchObject({ client_name: 'Research agent', redirect_host: '127.0.0.1:53682' });
      expect(body.scopes).toEqual([
        { name: 'query', proposed: true },
        { name: 'models:read', proposed: false },
        { name: 'content:read', proposed: false },
        { name: 'ask', proposed: false },
      ]);
      // `sql` needs the tracer role: never offered to a viewer.
      const lum = (await (await describe(luminary)).json()) as { scopes: Array<{ name: string; proposed: boolean }> };
      expect(lum.scopes.map((s) => s.name)).toContain('users:write');
      expect(lum.scopes.find((s) => s.name === 'users:read')!.proposed).toBe(true);
    });

    it('needs a session, refuses a scope beyond the role and a cross-site write', async () => {
      const clientId = await registeredClient(base);
      const params = authorizationParams(base, clientId, pkcePair());
      const anonymous = await fetch(`${base}/api/oauth/consent?${new URLSearchParams(params)}`);
      expect(anonymous.status).toBe(401);
      const beyond = await consent(base, viewer, params, true, ['query', 'users:write']);
      expect(beyond.status).toBe(403);
      expect(((await beyond.json()) as { error: string }).error).toMatch(/users:write is not one your role \(viewer\) may grant/);
      const crossSite = await fetch(`${base}/api/oauth/consent`, {
        method: 'POST',
        headers: { cookie: viewer, 'content-type': 'application/json', origin: 'https://attacker.example' },
        body: JSON.stringify({ request: params, approve: true, scopes: ['query'] }),
      });
      expect(crossSite.status).toBe(403);
      const asForm = await fetch(`${base}/api/oauth/consent`, { method: 'POST', headers: { cookie: viewer, 'content-type': 'application/x-www-form-urlencoded' }, body: 'approve=true' });
      expect(asForm.status).toBe(415);
      expect(await t.store.db.selectFrom('oauth_grants').select('id').where('client_id', '=', clientId).execute()).toEqual([]);
    });

    it('a denial sends the browser back with access_denied and the state', async () => {
      const clientId = await registeredClient(base);
      const answer = await consent(base, viewer, authorizationParams(base, clientId, pkcePair()), false, []);
      const back = new URL(((await answer.json()) as { redirect_to: string }).redirect_to);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('st-123');
      expect(back.searchParams.has('code')).toBe(false);
    });
  });

  describe('token endpoint', () => {
    it('exchanges a code once, with the right verifier, for a short-lived access token and a refresh token', async () => {
      const { clientId, code, pkce } = await codeFor(base, viewer, ['query', 'models:read'], agent);
      expect(code).toMatch(/^svc_oac_[0-9a-f]{64}$/);
      const wrong = await exchange(base, clientId, code, pkcePair().verifier);
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge' });

      const response = await exchange(base, clientId, code, pkce.verifier);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = (await response.json()) as Record<string, unknown>;
      expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000, scope: 'query models:read' });
      expect(tokens.access_token).toMatch(/^svc_oat_[0-9a-f]{64}$/);
      expect(tokens.refresh_token).toMatch(/^svc_ort_[0-9a-f]{64}$/);
      // Stored hashed only.
      const rows = JSON.stringify(await t.store.db.selectFrom('oauth_tokens').selectAll().execute());
      expect(rows).toContain(hashToken(tokens.access_token as string));
      expect(rows).not.toContain((tokens.access_token as string).slice(8));
      expect(rows).not.toContain((tokens.refresh_token as string).slice(8));

      // A second use of the code fails and withdraws what the first one issued.
      expect((await resolve(tokens.access_token as string)).status).toBe('active');
      const again = await exchange(base, clientId, code, pkce.verifier);
      expect(await again.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
      expect((await resolve(tokens.access_token as string)).status).toBe('revoked');
    });

    it('refuses a verifier sent with the plain method’s value, an expired code, another redirect URI and another client', async () => {
      const plain = await codeFor(base, viewer, ['query'], agent);
      // With S256 only, the challenge itself is not a verifier.
      const asPlain = await exchange(base, plain.clientId, plain.code, plain.pkce.challenge);
      expect(((await asPlain.json()) as { error: string }).error).toBe('invalid_grant');

      const late = await codeFor(base, viewer, ['query'], agent);
      t.clock.advance(CODE_LIFETIME_MS);
      expect(await (await exchange(base, late.clientId, late.code, late.pkce.verifier)).json()).toEqual({ error: 'invalid_grant', error_description: 'The authorization code has expired' });

      const moved = await codeFor(base, viewer, ['query'], agent);
      const elsewhere = await exchange(base, moved.clientId, moved.code, moved.pkce.verifier, { redirect_uri: 'http://127.0.0.1:1/cb' });
      expect(((await elsewhere.json()) as { error_description: string }).error_description).toMatch(/redirect_uri does not match/);

      const stolen = await codeFor(base, viewer, ['query'], agent);
      const thief = await registeredClient(base, 'Thief');
      const byThief = await exchange(base, thief, stolen.code, stolen.pkce.verifier);
      expect(((await byThief.json()) as { error_description: string }).error_description).toMatch(/another client/);
    });

    it('answers malformed requests with OAuth’s errors: no form, unknown grant type, unknown client, a parameter twice', async () => {
      const clientId = await registeredClient(base);
      const asJson = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code' }) });
      expect([asJson.status, ((await asJson.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
      const grantType = await form(base, '/oauth/token', { grant_type: 'password', client_id: clientId });
      expect([grantType.status, ((await grantType.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
      const unknown = await form(base, '/oauth/token', { grant_type: 'refresh_token', client_id: 'svc_client_nobody', refresh_token: 'x' });
      expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
      const twice = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=refresh_token&client_id=${clientId}&refresh_token=a&refresh_token=b`,
      });
      expect([twice.status, ((await twice.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
    });

    it('rotates refresh tokens; a spent one presented again revokes the whole grant', async () => {
      const first = await tokensFor(base, viewer, ['query'], agent);
      const rotated = await refresh(base, first.clientId, first.refresh_token);
      expect(rotated.status).toBe(200);
      const second = (await rotated.json()) as { access_token: string; refresh_token: string };
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await resolve(second.access_token)).status).toBe('active');

      const replay = await refresh(base, first.clientId, first.refresh_token);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used; the grant is revoked/) });
      expect((await resolve(second.access_token)).status).toBe('revoked');
      expect(((await (await refresh(base, first.clientId, second.refresh_token)).json()) as { error: string }).error).toBe('invalid_grant');
    });

    it('rate-limits registration and the token endpoint per client address', async () => {
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const registerFrom = (address: string) =>
        fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...from(address) }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await registerFrom('203.0.113.7')).status);
      expect(statuses.every((s) => s === 201)).toBe(true);
      const refused = await registerFrom('203.0.113.7');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await registerFrom('203.0.113.8')).status).toBe(201);

      const tokenFrom = () =>
        fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...from('203.0.113.9') }, body: 'grant_type=refresh_token' });
      for (let i = 0; i < 60; i++) expect((await tokenFrom()).status).toBe(400);
      expect((await tokenFrom()).status).toBe(429);
    });
  });

  describe('revocation endpoint', () => {
    it('revokes the grant of an access or refresh token; an unknown token is not an error', async () => {
      const byAccess = await tokensFor(base, viewer, ['query'], agent);
      const revoked = await form(base, '/oauth/revoke', { token: byAccess.access_token, client_id: byAccess.clientId, token_type_hint: 'access_token' });
      expect(revoked.status).toBe(200);
      expect((await resolve(byAccess.access_token)).status).toBe('revoked');
      expect(((await (await refresh(base, byAccess.clientId, byAccess.refresh_token)).json()) as { error: string }).error).toBe('invalid_grant');

      const byRefresh = await tokensFor(base, viewer, ['query'], agent);
      expect((await form(base, '/oauth/revoke', { token: byRefresh.refresh_token, client_id: byRefresh.clientId })).status).toBe(200);
      expect((await resolve(byRefresh.access_token)).status).toBe('revoked');

      expect((await form(base, '/oauth/revoke', { token: 'svc_oat_' + '0'.repeat(64), client_id: byRefresh.clientId })).status).toBe(200);
      const another = await tokensFor(base, viewer, ['query'], await registeredClient(base, 'Another agent'));
      const byOther = await form(base, '/oauth/revoke', { token: another.access_token, client_id: byRefresh.clientId });
      expect(((await byOther.json()) as { error: string }).error).toBe('unauthorized_client');
      expect((await resolve(another.access_token)).status).toBe('active');
    });
  });

  describe('resolveAccessToken', () => {
    it('acts as the consenting member: their role, data-key attributes, workspace and consented scopes', async () => {
      const tokens = await tokensFor(base, viewer, ['query', 'content:read'], agent);
      const resolved = await resolve(tokens.access_token);
      if (resolved.status !== 'active') throw new Error(`not active: ${resolved.status}`);
      expect(resolved.scopes).toEqual(['query', 'content:read']);
      expect(resolved.principal).toMatchObject({
        via: 'oauth',
        role: 'viewer',
        attributes: { region: 'EMEA' },
        workspace: { id: ws.id },
        user: { id: ws.members.viewer.id },
        oauth: { grantId: resolved.grantId, clientId: tokens.clientId, scopes: ['query', 'content:read'] },
      });
    });

    it('an access token is no API key: the key surfaces refuse it, saying where it goes', async () => {
      const tokens = await tokensFor(base, viewer, ['query'], agent);
      const response = await fetch(`${base}${PROBES.structured}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'wrong_key_type', error: expect.stringMatching(/OAuth access token is for the MCP endpoint/) });
    });

    it('refuses a token for another resource, an expired one, a malformed one and a refresh token', async () => {
      const tokens = await tokensFor(base, viewer, ['query'], agent);
      expect((await resolve(tokens.access_token, 'https://elsewhere.example/mcp')).status).toBe('wrong_audience');
      expect((await resolve(tokens.refresh_token)).status).toBe('malformed');
      expect((await resolve('svc_sk_' + 'a'.repeat(64))).status).toBe('malformed');
      expect((await resolve('svc_oat_' + 'a'.repeat(64))).status).toBe('unknown');
      t.clock.advance(ACCESS_TOKEN_LIFETIME_MS);
      expect((await resolve(tokens.access_token)).status).toBe('expired');
    });

    it('follows the member: a lowered role narrows the scopes at once, a removed member’s token acts for nobody', async () => {
      const editorCookie = await signIn(t.app, ws.members.editor.email);
      const tokens = await tokensFor(base, editorCookie, ['query', 'models:write'], agent);
      expect(await resolve(tokens.access_token)).toMatchObject({ status: 'active', scopes: ['query', 'models:write'] });
      await t.services.tenancy.setRole(ws.id, ws.members.editor.id, 'viewer');
      expect(await resolve(tokens.access_token)).toMatchObject({ status: 'active', scopes: ['query'], principal: { role: 'viewer' } });
      const refreshed = (await (await refresh(base, tokens.clientId, tokens.refresh_token)).json()) as { scope: string };
      expect(refreshed.scope).toBe('query');
      await t.services.tenancy.removeMember(ws.id, ws.members.editor.id);
      expect((await resolve(tokens.access_token)).status).toBe('unknown');
    });
  });

  describe('a member of two workspaces', () => {
    it('a token acts in the workspace its consent was given in, with that membership’s role and data keys, and no other', async () => {
      // The viewer of ws is also a luminary of `other`, with other attributes there.
      await t.services.members.addMembership({ workspaceId: other.id, userId: ws.members.viewer.id, role: 'luminary', attributes: { region: 'APAC' } });
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ws.members.viewer.email, password: PASSWORD, workspace_id: other.id } });
      const inOther = `svc_session=${login.cookies.find((c) => c.name === 'svc_session')!.value}`;

      const fromOther = await resolve((await tokensFor(base, inOther, ['query', 'users:read'], agent)).access_token);
      expect(fromOther).toMatchObject({ status: 'active', scopes: ['query', 'users:read'], principal: { workspace: { id: other.id }, role: 'luminary', attributes: { region: 'APAC' } } });
      const fromWs = await resolve((await tokensFor(base, viewer, ['query'], agent)).access_token);
      expect(fromWs).toMatchObject({ status: 'active', scopes: ['query'], principal: { workspace: { id: ws.id }, role: 'viewer', attributes: { region: 'EMEA' } } });

      // Leaving `other` ends the token given there, and only that one.
      await t.services.tenancy.removeMember(other.id, ws.members.viewer.id);
      const [a, b] = [fromOther, fromWs].map((r) => (r.status === 'active' ? r.principal.oauth!.grantId : ''));
      expect(await t.store.db.selectFrom('oauth_grants').select('id').where('id', 'in', [a!, b!]).execute()).toEqual([{ id: b }]);
    });
  });

  describe('in the console', () => {
    it('lists authorized applications beside keys, with last use; revoking one refuses its tokens at the next call', async () => {
      const tokens = await tokensFor(base, viewer, ['query'], agent);
      const before = await resolve(tokens.access_token);
      if (before.status !== 'active') throw new Error(before.status);
      await t.services.oauth.lastUsed.flush();
      const listed = (await consoleCall(t, viewer, 'GET', '/api/oauth/grants')).json();
      const grant = listed.grants.find((g: { id: string }) => g.id === before.grantId);
      expect(grant).toMatchObject({ client_name: 'Agent', scopes: ['query'], status: 'active', user_id: ws.members.viewer.id });
      expect(grant.last_used_at).not.toBeNull();
      expect(JSON.stringify(listed)).not.toContain(tokens.access_token);

      // Once no token of it can be used (the refresh token lapsed), the application shows as expired.
      // A month on, the members sign in again.
      t.clock.advance(REFRESH_TOKEN_LIFETIME_MS);
      viewer = await signIn(t.app, ws.members.viewer.email);
      luminary = await signIn(t.app, ws.members.luminary.email);
      const lapsed = (await consoleCall(t, viewer, 'GET', '/api/oauth/grants')).json();
      expect(lapsed.grants.find((g: { id: string }) => g.id === before.grantId).status).toBe('expired');

      const revoked = await consoleCall(t, viewer, 'POST', `/api/oauth/grants/${before.grantId}/revoke`);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().grant.status).toBe('revoked');
      expect((await resolve(tokens.access_token)).status).toBe('revoked');
    });

    it("keeps workspaces apart: another workspace's luminary neither sees nor revokes a grant; a member sees only their own", async () => {
      const tokens = await tokensFor(base, viewer, ['query'], agent);
      const resolved = await resolve(tokens.access_token);
      if (resolved.status !== 'active') throw new Error(resolved.status);
      expect(resolved.principal.workspace.id).toBe(ws.id);

      const outsider = await signIn(t.app, other.members.luminary.email);
      const theirs = (await consoleCall(t, outsider, 'GET', '/api/oauth/grants')).json();
      expect(theirs.grants.map((g: { id: string }) => g.id)).not.toContain(resolved.grantId);
      expect((await consoleCall(t, outsider, 'POST', `/api/oauth/grants/${resolved.grantId}/revoke`)).statusCode).toBe(404);

      const tracer = await signIn(t.app, ws.members.tracer.email);
      expect((await consoleCall(t, tracer, 'GET', '/api/oauth/grants')).json().grants).toEqual([]);
      expect((await consoleCall(t, tracer, 'POST', `/api/oauth/grants/${resolved.grantId}/revoke`)).statusCode).toBe(404);
      const lumList = (await consoleCall(t, luminary, 'GET', '/api/oauth/grants')).json();
      expect(lumList.grants.map((g: { id: string }) => g.id)).toContain(resolved.grantId);
      expect((await resolve(tokens.access_token)).status).toBe('active');
    });
  });

  // Last: it moves the suite's clock a month on.
  describe('retention', () => {
    it('prunes tokens a day past their expiry and consents never exchanged, and keeps the rest', async () => {
      const kept = await tokensFor(base, viewer, ['query'], agent);
      const unexchanged = await codeFor(base, viewer, ['query'], agent);
      const grantOfCode = await t.store.db.selectFrom('oauth_grants').select('id').where('code_hash', '=', hashToken(unexchanged.code)).executeTakeFirstOrThrow();
      t.clock.advance(ACCESS_TOKEN_LIFETIME_MS + 86_400_000);
      const report = await pruneExpired(t.store, t.clock, { eventsDays: 0, deliveriesDays: 0, signalEvaluationsDays: 0, queryHistoryDays: 0, scheduleRunsDays: 0 });
      expect(report.deleted.oauth_grants).toBeGreaterThanOrEqual(1);
      expect(await t.store.db.selectFrom('oauth_grants').select('id').where('id', '=', grantOfCode.id).execute()).toEqual([]);
      // The expired access token is gone; its refresh token lives on, and still works.
      expect((await resolve(kept.access_token)).status).toBe('unknown');
      const refreshed = await refresh(base, agent, kept.refresh_token);
      expect(refreshed.status).toBe(200);
    });
  });
});
