// OAuth access tokens at /mcp, through the SDK's own client: a token acts as the member who consented,
// with their data keys and only the tools of the scopes they consented to; `query` answers what C's
// query answers that member; a revoked token, a token for another resource and a refresh token fail at
// the next call; a question asked with a token spends that grant's own hourly budget. Both stores.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect } from 'vitest';
import { hashPassword } from '../../src/identity/passwords.js';
import { PASSWORD, consoleCall, signIn, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { demoAppOn, METADATA_STORES } from '../helpers/demo-on-stores.js';
import { form, tokensFor } from '../helpers/oauth-flow.js';
import { connectClient, structured, toolError } from './mcp-client.js';

const QUERY = { node: 'orders', measures: ['order_count'], dimensions: ['ship_region'], sorts: [{ field: 'ship_region', direction: 'asc' }] };

describe.each(METADATA_STORES)('OAuth tokens at /mcp on $store', (store) => {
  const { it, app } = demoAppOn(store, 400);
  let t: TestApp;
  let ws: SeededWorkspace;
  let base: string;
  const cookies: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

  /** What C's query (the console's /api/query, the same governed path) answers the member of `cookie`. */
  const viaC = async (cookie: string) => {
    const response = await consoleCall(t, cookie, 'POST', '/api/query', QUERY);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: Array<Record<string, unknown>> };
  };
  const mcpCall = (token: string, body: object) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
    });

  beforeAll(async () => {
    if (!store.available) return;
    const demo = app();
    t = demo.t;
    ws = demo.ws;
    const regions = (await viaC(demo.cookie)).data;
    // Two editors whose data keys show them one region each.
    for (const [who, row] of [['alice', regions[0]], ['bob', regions[1]]] as const) {
      const email = `${who}-oauth-${ws.id.slice(0, 8)}@example.com`;
      const user = await t.services.members.createUser({ email, name: who, passwordHash: await hashPassword(PASSWORD) });
      await t.services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'editor' });
      await t.services.tenancy.patchAttributes(ws.id, user.id, { region: String(row!.ship_region) });
      cookies[who] = await signIn(t.app, email);
    }
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address;
  }, 120_000);

  it('acts as the member who consented: their data keys, the same numbers as their C query', async () => {
    for (const who of ['alice', 'bob'] as const) {
      const tokens = await tokensFor(base, cookies[who], ['query', 'models:read']);
      const client = await connectClient('http', `${base}/mcp`, tokens.access_token);
      try {
        const answer = await structured<{ data: unknown[]; provenance: { cache: string } }>(client, 'query', QUERY);
        const mine = (await viaC(cookies[who])).data;
        expect(mine).toHaveLength(1);
        expect(answer.data).toEqual(mine);
      } finally {
        await client.close();
      }
    }
    const alice = await tokensFor(base, cookies.alice, ['query']);
    const bob = await tokensFor(base, cookies.bob, ['query']);
    const read = async (token: string) => {
      const client = await connectClient('http', `${base}/mcp`, token);
      try {
        return (await structured<{ data: unknown[] }>(client, 'query', QUERY)).data;
      } finally {
        await client.close();
      }
    };
    expect(await read(alice.access_token)).not.toEqual(await read(bob.access_token));
  });

  it('offers only the tools of the consented scopes, and refuses the others by name', async () => {
    const tokens = await tokensFor(base, cookies.alice, ['models:read']);
    const client = await connectClient('http', `${base}/mcp`, tokens.access_token);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['get_metrics', 'get_node', 'list_nodes', 'list_reveals', 'search_values']);
      expect((await toolError(client, 'query', QUERY)).code).toBe('scope_required');
    } finally {
      await client.close();
    }
  });

  it('a revoked token fails at its next call; a refresh token is no access token', async () => {
    const tokens = await tokensFor(base, cookies.alice, ['query']);
    const client = await connectClient('http', `${base}/mcp`, tokens.access_token);
    try {
      expect(((await client.callTool({ name: 'query', arguments: QUERY })) as CallToolResult).isError).toBeFalsy();
      const revoked = await form(base, '/oauth/revoke', { token: tokens.refresh_token, client_id: tokens.clientId });
      expect(revoked.status).toBe(200);
      await expect(client.callTool({ name: 'query', arguments: QUERY })).rejects.toThrow();
    } finally {
      await client.close();
    }
    const after = await mcpCall(tokens.access_token, { method: 'tools/list' });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('token_revoked');
    expect(after.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);

    const fresh = await tokensFor(base, cookies.alice, ['query']);
    const withRefresh = await mcpCall(fresh.refresh_token, { method: 'tools/list' });
    expect(withRefresh.status).toBe(401);
  });

  it('a token is bound to the resource it was issued for', async () => {
    // The same service reached under another name is another resource (RFC 8707): localhost, not 127.0.0.1.
    const tokens = await tokensFor(base, cookies.alice, ['query']);
    const elsewhere = base.replace('127.0.0.1', 'localhost');
    const response = await fetch(`${elsewhere}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('wrong_audience');
  });

  it("a question spends the grant's own hourly budget, not the workspace's or another grant's", async () => {
    const first = await tokensFor(base, cookies.alice, ['ask']);
    const second = await tokensFor(base, cookies.alice, ['ask']);
    const ask = async (token: string) => {
      const client = await connectClient('http', `${base}/mcp`, token);
      try {
        return (await client.callTool({ name: 'ask', arguments: { question: 'How many orders are there?' } })) as CallToolResult;
      } finally {
        await client.close();
      }
    };
    expect((await ask(first.access_token)).isError).toBeFalsy();
    const counted = await t.services.shared.hit(`question:key:oauth:${await grantOf(first.access_token)}`, 3_600_000);
    // The probe above is itself a hit: the grant had spent one question before it.
    expect(counted.count).toBe(2);
    const other = await t.services.shared.hit(`question:key:oauth:${await grantOf(second.access_token)}`, 3_600_000);
    expect(other.count).toBe(1);
  });

  const grantOf = async (token: string) => {
    const resolved = await t.services.oauth.access.resolveAccessToken(token, { resource: `${base}/mcp` });
    if (resolved.status !== 'active') throw new Error(`token not active: ${resolved.status}`);
    return resolved.grantId;
  };
});
