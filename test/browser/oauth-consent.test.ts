// An agent's authorization in a real browser: the authorization endpoint leads to the console's consent
// page, a member not signed in signs in first and comes back to it, chooses scopes among those their
// role allows, and approves (the browser lands on the agent's redirect URI with a code the agent
// exchanges) or denies. The keys page then lists the application, and revoking it there ends its access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../helpers/http-client.js';
import { PASSWORD } from '../helpers/app.js';
import { authorizationParams, pkcePair, REDIRECT_URI, type Pkce } from '../helpers/oauth-flow.js';
import { cspViolations, hasChromium, startConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('OAuth consent in Chromium', () => {
  let h: ConsoleHarness;
  let clientId: string;
  /** The access token the approved authorization yielded. */
  let accessToken = '';
  /** Every URL the browser was sent to at the agent's redirect URI. */
  const landed: URL[] = [];

  beforeAll(async () => {
    h = await startConsole();
    const registered = await request(`${h.base}/oauth/register`, {
      method: 'POST',
      ca: h.cert,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Research agent', redirect_uris: [REDIRECT_URI] }),
    });
    expect(registered.status).toBe(201);
    clientId = (JSON.parse(registered.body) as { client_id: string }).client_id;
    // The agent's local listener: the browser's arrival there is all it needs to see.
    await h.context.route(`${new URL(REDIRECT_URI).origin}/**`, async (route) => {
      landed.push(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You may close this window.' });
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const startAuthorization = async (page: Page, pkce: Pkce, scope: string) => {
    const params = authorizationParams(h.base, clientId, pkce, { scope });
    await page.goto(`${h.base}/oauth/authorize?${new URLSearchParams(params)}`);
  };

  const tokenExchange = (code: string, pkce: Pkce) =>
    request(`${h.base}/oauth/token`, {
      method: 'POST',
      ca: h.cert,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, code_verifier: pkce.verifier, redirect_uri: REDIRECT_URI, resource: `${h.base}/mcp` }).toString(),
    });

  it('signs the member in first, then shows the consent with the scopes their role allows; approving sends a code to the agent', async () => {
    const { page } = h;
    const pkce = pkcePair();
    await startAuthorization(page, pkce, 'query models:write');
    // Not signed in: the sign-in form, at the consent page's own address.
    expect(new URL(page.url()).pathname).toBe('/oauth/consent');
    await page.getByLabel('E-mail').fill(h.ws.members.editor.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Authorize an application' }).waitFor();
    const request = page.getByRole('region', { name: 'Authorization request' });
    expect(await request.locator('.client-name').textContent()).toBe('Research agent');
    expect(await request.locator('.redirect-host').textContent()).toBe('127.0.0.1:53682');
    // An editor may grant the viewer's and editor's scopes, not a luminary's.
    const offered = await request.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).labels![0]!.textContent));
    expect(offered).toEqual(['query', 'models:read', 'content:read', 'models:write', 'content:write', 'ask', 'sql']);
    expect(await request.getByLabel('query').isChecked()).toBe(true);
    expect(await request.getByLabel('models:write').isChecked()).toBe(true);
    expect(await request.getByLabel('content:read').isChecked()).toBe(false);
    await h.screenshot('oauth-consent');

    // The member grants less than asked, and something else.
    await request.getByLabel('models:write').uncheck();
    await request.getByLabel('content:read').check();
    await request.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.origin === new URL(REDIRECT_URI).origin);

    const back = landed.at(-1)!;
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('iss')).toBe(h.base);
    const exchanged = await tokenExchange(back.searchParams.get('code')!, pkce);
    expect(exchanged.status).toBe(200);
    const tokens = JSON.parse(exchanged.body) as { access_token: string; scope: string };
    expect(tokens.scope).toBe('query content:read');
    accessToken = tokens.access_token;
    const resolved = await h.t.services.oauth.access.resolveAccessToken(tokens.access_token, { resource: `${h.base}/mcp` });
    expect(resolved).toMatchObject({ status: 'active', scopes: ['query', 'content:read'], principal: { user: { id: h.ws.members.editor.id }, role: 'editor' } });
    expect(cspViolations(h)).toEqual([]);
  });

  it('denying sends access_denied to the agent and issues nothing', async () => {
    const { page } = h;
    const before = landed.length;
    await startAuthorization(page, pkcePair(), 'query');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.origin === new URL(REDIRECT_URI).origin);
    expect(landed.length).toBe(before + 1);
    const back = landed.at(-1)!;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('lists the application on the keys page; revoking it there refuses its token at the next call', async () => {
    const { page } = h;
    const granted = await h.t.store.db.selectFrom('oauth_grants').select('id').where('client_id', '=', clientId).where('code_used_at', 'is not', null).execute();
    expect(granted).toHaveLength(1);
    await page.goto(`${h.base}/keys`);
    const section = page.getByRole('region', { name: 'Authorized applications' });
    const row = section.getByRole('row', { name: /Research agent/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('query, content:read');
    await h.screenshot('oauth-authorized-applications');
    await row.getByRole('button', { name: 'Revoke Research agent' }).click();
    await section.getByRole('group', { name: 'Confirm revoking Research agent' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await section.getByText('Research agent no longer has access.').waitFor();
    // The list is read again after the notice shows: wait for the row to say so.
    await section.getByRole('row', { name: /Research agent/ }).getByText('revoked', { exact: true }).waitFor();
    const resolved = await h.t.services.oauth.access.resolveAccessToken(accessToken, { resource: `${h.base}/mcp` });
    expect(resolved.status).toBe('revoked');
    expect(cspViolations(h)).toEqual([]);
  });
});
