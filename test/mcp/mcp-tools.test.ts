// The MCP server driven by the SDK's own Client, over Streamable HTTP and over stdio (`svc mcp`
// forwarding to the running test server), on both metadata stores: every tool answers; `query` answers
// what C's /v1/query answers for the same body and principal; two members whose data keys differ get
// different numbers through query, run_scene and ask, each their own; a key sees only the tools its
// scopes allow; a revoked key fails at its next call; every run is recorded as the agent's with its key.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { hashPassword } from '../../src/identity/passwords.js';
import { PASSWORD, consoleCall, consoleRequest, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { demoAppOn, METADATA_STORES } from '../helpers/demo-on-stores.js';
import { connectClient, structured, toolError, type Channel } from './mcp-client.js';

const ALL_SCOPES = ['query', 'models:read', 'content:read', 'ask', 'sql'];
const ALL_TOOLS = ['list_reveals', 'get_metrics', 'list_nodes', 'get_node', 'search_values', 'query', 'explain_query', 'ask', 'list_scenes', 'run_scene', 'run_sql'];

interface Member {
  id: string;
  key: string;
  keyId: string;
}

describe.each(METADATA_STORES)('on $store', (store) => {
  const { it, app } = demoAppOn(store, 400);
  let t: TestApp;
  let ws: SeededWorkspace;
  let url: string;
  let sceneId: string;
  const members: Record<'luminary' | 'alice' | 'bob', Member> = {} as never;

  const keyFor = async (userId: string, role: 'luminary' | 'tracer' | 'editor' | 'viewer', scopes: string[]) => {
    const created = await t.services.keys.create({ workspace: { id: ws.id, plan: ws.plan }, user: { id: userId }, role }, { name: 'agent', surface: 'structured', scopes });
    return { key: created.value, keyId: created.key.id };
  };
  const viaC = async (key: string, body: object) => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' }, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: Record<string, unknown>[]; sql: string; metadata: Record<string, unknown> };
  };

  beforeAll(async () => {
    if (!store.available) return;
    const demo = app();
    t = demo.t;
    ws = demo.ws;
    const lum = ws.members.luminary;
    members.luminary = { id: lum.id, ...(await keyFor(lum.id, 'luminary', ALL_SCOPES)) };
    // Two tracers whose data keys show them one region each.
    const regions = (await viaC(members.luminary.key, { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], sorts: [{ field: 'ship_region', direction: 'asc' }] })).data;
    for (const [who, row] of [['alice', regions[0]], ['bob', regions[1]]] as const) {
      const user = await t.services.members.createUser({ email: `${who}-${ws.id.slice(0, 8)}@example.com`, name: who, passwordHash: await hashPassword(PASSWORD) });
      await t.services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'tracer' });
      await t.services.tenancy.patchAttributes(ws.id, user.id, { region: String(row!.ship_region) });
      members[who] = { id: user.id, ...(await keyFor(user.id, 'tracer', ALL_SCOPES)) };
    }
    // A scene in a vault both tracers may view.
    const vault = (await consoleCall(t, demo.cookie, 'POST', '/api/vaults', { name: 'Team' })).json().vault.id as string;
    for (const who of ['alice', 'bob'] as const) {
      const added = await consoleRequest(t.app, demo.cookie, 'PUT', `/api/vaults/${vault}/members/${members[who].id}`, { access: 'view' });
      expect(added.statusCode, added.body).toBe(200);
    }
    const created = await consoleCall(t, demo.cookie, 'POST', '/api/scenes', { name: 'Orders by channel', vault, node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'channel', direction: 'asc' }] });
    expect(created.statusCode, created.body).toBe(201);
    sceneId = created.json().scene.id;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `${address}/mcp`;
  }, 120_000);

  // Over stdio each client starts `svc mcp`, a process of its own: seconds, not milliseconds. The bridge
  // forwards messages and never touches the store, so it is driven on one store; HTTP on both.
  const channels: Channel[] = store.postgres ? ['http'] : ['http', 'stdio'];
  describe.each(channels)('over %s', { timeout: 90_000 }, (channel) => {
    // One client per key for the whole channel: over stdio each is a `svc mcp` process, seconds to start.
    // A client that must see its key revoked connects on its own (below).
    const clients = new Map<string, Promise<Client>>();
    afterAll(async () => {
      for (const client of clients.values()) await (await client).close();
    });
    const withClient = async <T>(key: string, work: (client: Client) => Promise<T>): Promise<T> => {
      if (!clients.has(key)) clients.set(key, connectClient(channel, url, key));
      return work(await clients.get(key)!);
    };

    it('lists every tool for a key with every scope, each read-only with an output schema', async () => {
      const tools = await withClient(members.luminary.key, async (c) => (await c.listTools()).tools);
      expect(tools.map((tool) => tool.name)).toEqual(ALL_TOOLS);
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        expect(tool.outputSchema?.type, tool.name).toBe('object');
      }
    });

    it('answers the catalog tools as the REST API does', async () => {
      await withClient(members.luminary.key, async (c) => {
        const reveals = await structured<{ reveals: { name: string }[] }>(c, 'list_reveals');
        const rest = (await t.app.inject({ method: 'GET', url: '/v1/nodes', headers: { authorization: `Bearer ${members.luminary.key}` } })).json();
        expect(reveals.reveals.map((r) => r.name)).toContain('sales');
        const metrics = await structured<{ reveal: string; metrics: { name: string; unit: string }[] }>(c, 'get_metrics', { reveal: 'sales' });
        expect(metrics.reveal).toBe('sales');
        expect(metrics.metrics.map((m) => m.name)).toContain('revenue');
        expect(await structured(c, 'list_nodes')).toEqual(rest);
        const node = await structured<{ node: { id: string; measures: { id: string; unit: unknown; format: unknown }[]; joins: unknown[] } }>(c, 'get_node', { node: 'orders' });
        expect(node.node.id).toBe('orders');
        expect(node.node.measures.map((m) => m.id)).toContain('order_count');
        expect(node.node.joins.length).toBeGreaterThan(0);
        expect((await toolError(c, 'get_metrics', { reveal: 'nope' })).code).toBe('unknown_reveal');
      });
    });

    it('searches values among the rows the caller may see', async () => {
      const regionOf = async (who: 'alice' | 'bob') => (await viaC(members[who].key, { node: 'orders', dimensions: ['ship_region'] })).data.map((r) => r.ship_region);
      const alice = await withClient(members.alice.key, (c) => structured<{ values: unknown[] }>(c, 'search_values', { node: 'orders', field: 'ship_region', text: '' }));
      expect(alice.values).toEqual(await regionOf('alice'));
      expect(alice.values).not.toContain((await regionOf('bob'))[0]);
    });

    it('answers query exactly as C /v1/query for the same body and principal, with provenance', async () => {
      const body = { node: 'orders', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'channel', direction: 'asc' }], limit: 50 };
      for (const who of ['alice', 'bob'] as const) {
        const rest = await viaC(members[who].key, body);
        const mcp = await withClient(members[who].key, (c) => structured<{ data: unknown[]; sql: string; metadata: Record<string, unknown>; truncated: boolean; provenance: { model_version: number; cache: string; freshness: string } }>(c, 'query', body));
        expect(mcp.data).toEqual(rest.data);
        expect(mcp.sql).toBe(rest.sql);
        expect(mcp.metadata.node).toBe(rest.metadata.node);
        expect(mcp.metadata.row_count).toBe(rest.metadata.row_count);
        expect(mcp.truncated).toBe(false);
        expect(mcp.provenance.model_version).toBeGreaterThan(0);
        expect(mcp.provenance.freshness).toBe(mcp.metadata.ran_at);
      }
      const [alice, bob] = await Promise.all((['alice', 'bob'] as const).map((who) => viaC(members[who].key, body)));
      expect(alice!.data).not.toEqual(bob!.data);
    });

    it('caps rows for agents and says so', async () => {
      const capped = await withClient(members.luminary.key, (c) => structured<{ data: unknown[]; truncated: boolean }>(c, 'query', { node: 'orders', dimensions: ['created_at.day'], limit: 3 }));
      expect(capped.data).toHaveLength(3);
      expect(capped.truncated).toBe(true);
      const refused = await withClient(members.luminary.key, async (c) => c.callTool({ name: 'query', arguments: { node: 'orders', limit: 5001 } }).then(() => 'answered', (error: Error) => error.message));
      expect(refused).toMatch(/arguments\.limit/);
    });

    it('gives the REST error, with did-you-mean, as a tool error', async () => {
      const error = await withClient(members.luminary.key, (c) => toolError(c, 'query', { node: 'orders', measures: ['order_cnt'] }));
      const rest = await t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${members.luminary.key}` }, payload: { node: 'orders', measures: ['order_cnt'] } });
      expect(rest.statusCode).toBe(400);
      expect(error).toEqual(rest.json());
      expect(error.error).toMatch(/order_count/);
    });

    it('explains a query without running it', async () => {
      const explained = await withClient(members.alice.key, (c) => structured<{ sql: string; connection: string; engine: string; node: string }>(c, 'explain_query', { node: 'orders', measures: ['order_count'] }));
      expect(explained.node).toBe('orders');
      expect(explained.sql).toMatch(/select/i);
      expect(explained.connection.length).toBeGreaterThan(0);
    });

    it('runs a scene and asks a question with each member’s data keys', async () => {
      const answers: unknown[] = [];
      for (const who of ['alice', 'bob'] as const) {
        const rest = await viaC(members[who].key, { node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'channel', direction: 'asc' }] });
        await withClient(members[who].key, async (c) => {
          const scenes = await structured<{ scenes: { id: string }[] }>(c, 'list_scenes');
          expect(scenes.scenes.map((s) => s.id)).toContain(sceneId);
          const run = await structured<{ data: unknown[]; provenance: { cache: string } }>(c, 'run_scene', { scene_id: sceneId });
          expect(run.data).toEqual(rest.data);
          expect(run.provenance.cache).toBe('off');
          const asked = await structured<{ data: { rows: unknown[] }; provenance: { source: string } }>(c, 'ask', { question: 'How many orders by channel?' });
          expect(asked.provenance.source).toBe('semantic layer');
          answers.push(asked.data.rows);
        });
      }
      expect(answers[0]).not.toEqual(answers[1]);
    });

    it('runs read-only SQL through the guard', async () => {
      await withClient(members.alice.key, async (c) => {
        const run = await structured<{ rows: unknown[]; row_count: number }>(c, 'run_sql', { connection: 'warehouse', sql: 'SELECT 1 AS one' });
        expect(run.row_count).toBe(1);
        const refused = await toolError(c, 'run_sql', { connection: 'warehouse', sql: 'DELETE FROM shop.orders' });
        expect(refused.code).toBe('read_only_violation');
      });
    });

    it('shows a key only the tools its scopes allow, and refuses the others by name', async () => {
      const narrow = await keyFor(ws.members.viewer.id, 'viewer', ['models:read']);
      await withClient(narrow.key, async (c) => {
        expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(['list_reveals', 'get_metrics', 'list_nodes', 'get_node', 'search_values']);
        const refused = await toolError(c, 'query', { node: 'orders', measures: ['order_count'] });
        expect(refused.code).toBe('scope_required');
        expect(refused.error).toMatch(/query scope/);
      });
    });

    it('fails at the next call once the key is revoked', async () => {
      const revocable = await keyFor(members.alice.id, 'tracer', ['models:read']);
      const client = await connectClient(channel, url, revocable.key);
      try {
        await structured(client, 'list_nodes');
        await t.services.keys.revoke({ workspace: { id: ws.id, plan: ws.plan }, user: { id: members.alice.id }, role: 'tracer' }, revocable.keyId);
        const after = await client.callTool({ name: 'list_nodes', arguments: {} }).then((r) => JSON.stringify((r as CallToolResult).content), (error: Error) => `refused: ${error.message}`);
        expect(after).toMatch(/refused: .*revoked/);
      } finally {
        await client.close().catch(() => undefined);
      }
    });
  });

  it('records every run as the agent’s, with its key, under source api (scene runs under scene)', async () => {
    await t.services.rawSql.flush();
    const rows = await t.store.db.selectFrom('query_history').select(['surface', 'origin', 'key_id', 'user_id']).where('workspace_id', '=', ws.id).where('surface', '=', 'mcp').execute();
    const origins = new Set(rows.map((r) => r.origin.replace(/:.*/, ':')));
    expect([...origins].sort()).toEqual(['question', 'scene:', 'sql', 'structured']);
    for (const row of rows) {
      const owner = Object.values(members).find((m) => m.id === row.user_id);
      expect(owner, JSON.stringify(row)).toBeDefined();
      expect(row.key_id).toBe(owner!.keyId);
    }
  });
});
