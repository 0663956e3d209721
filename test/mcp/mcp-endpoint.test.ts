// The /mcp endpoint as HTTP sees it: credentials (401 with the resource metadata link, revoked and
// wrong-kind keys), the DNS-rebinding defence (Host and Origin), the stateless transport (GET and
// DELETE answer 405), the shared hooks (request ids, C's workspace rate limit), the question budget an
// `ask` spends, protocol errors for malformed calls, and the size of the tool list an agent reads.
import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { countRequest } from '../../src/http/rate-limit.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-endpoint-'));
let t: TestApp;
let ws: SeededWorkspace;
let key: string;

const ACCEPT = 'application/json, text/event-stream';
const rpc = (method: string, params: object = {}, id = 1) => ({ jsonrpc: '2.0', id, method, params });
const post = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: ACCEPT, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }, payload: JSON.stringify(payload) });

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 100 });
  key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read', 'content:read', 'ask', 'sql'] })).value;
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('credentials', () => {
  it('answers 401 without a key, pointing to the protected resource metadata', async () => {
    const response = await post(rpc('tools/list'), { authorization: '' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer resource_metadata="http://localhost:80/.well-known/oauth-protected-resource/mcp"');
    expect(response.json().code).toBe('missing_key');
  });

  it('answers 401 to a revoked key and to a key of another kind', async () => {
    const revoked = await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['models:read'] });
    await t.services.keys.revoke({ workspace: { id: ws.id, plan: ws.plan }, user: { id: ws.members.viewer.id }, role: 'viewer' }, revoked.id);
    const refused = await post(rpc('tools/list'), { authorization: `Bearer ${revoked.value}` });
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'key_revoked']);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer resource_metadata=/);
    const question = await createKey(t.services, ws, 'viewer', 'question');
    const wrong = await post(rpc('tools/list'), { authorization: `Bearer ${question.value}` });
    expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'wrong_key_type']);
  });
});

describe('DNS rebinding', () => {
  it('refuses a Host or an Origin that is not this service, before looking at any key', async () => {
    const host = await post(rpc('tools/list'), { host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect([host.statusCode, host.json().code]).toEqual([403, 'host_not_allowed']);
    const origin = await post(rpc('tools/list'), { origin: 'http://evil.example.com' });
    expect([origin.statusCode, origin.json().code]).toEqual([403, 'origin_not_allowed']);
    const local = await post(rpc('tools/list'), { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' });
    expect(local.statusCode, local.body).toBe(200);
  });

  it('admits a host the operator lists', async () => {
    const listed = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_MCP_ALLOWED_HOSTS: 'analytics.example.com' }, store: t.store });
    try {
      const response = await listed.app.inject({ method: 'POST', url: '/mcp', headers: { host: 'analytics.example.com', 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${key}` }, payload: JSON.stringify(rpc('ping')) });
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      await listed.close();
    }
  });
});

describe('transport', () => {
  it('is stateless: no session id, and GET and DELETE answer 405', async () => {
    const init = await post(rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } }));
    expect(init.statusCode).toBe(200);
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.headers['x-request-id']).toBeDefined();
    expect(init.headers['x-ratelimit-limit']).toBe('1000');
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/mcp', headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
      expect([response.statusCode, response.headers.allow]).toEqual([405, 'POST']);
    }
  });

  it('spends C’s workspace budget with every message', async () => {
    const first = Number((await post(rpc('ping'))).headers['x-ratelimit-remaining']);
    const second = Number((await post(rpc('ping'))).headers['x-ratelimit-remaining']);
    expect(second).toBe(first - 1);
  });

  it('answers a malformed call with a protocol error, and an unknown tool too', async () => {
    const bad = (await post(rpc('tools/call', { name: 'query', arguments: { node: 42 } }))).json();
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toMatch(/arguments\.node/);
    const unknown = (await post(rpc('tools/call', { name: 'drop_tables', arguments: {} }))).json();
    expect(unknown.error.code).toBe(-32602);
  });
});

describe('the question budget', () => {
  it('spends the key’s hourly question budget (100) with every ask, and refuses past it', async () => {
    const limited = await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['ask'] });
    // 99 questions asked already this hour (as surface A counts them): one is left.
    for (let i = 0; i < 99; i++) await countRequest(t.services.shared, 'question', { keyId: limited.id, workspaceId: ws.id, keyLimit: null });
    const ask = () => post(rpc('tools/call', { name: 'ask', arguments: { question: 'How many orders?' } }), { authorization: `Bearer ${limited.value}` });
    expect((await ask()).json().result.isError).toBeUndefined();
    const refused = (await ask()).json().result;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text)).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/100 requests per hour for this key/) });
  });
});

describe('resources and prompts', () => {
  it('lists and reads the model’s CML files and each reveal’s metric definitions', async () => {
    const { resources } = (await post(rpc('resources/list'))).json().result as { resources: { uri: string }[] };
    const cml = resources.find((r) => r.uri.startsWith('cml:///') && r.uri.endsWith('orders.cml'));
    expect(cml, JSON.stringify(resources)).toBeDefined();
    const file = (await post(rpc('resources/read', { uri: cml!.uri }))).json().result.contents[0];
    expect(file.text).toMatch(/node orders \{/);
    const metrics = (await post(rpc('resources/read', { uri: 'reveal:///sales/metrics' }))).json().result.contents[0];
    expect(JSON.parse(metrics.text)).toMatchObject({ reveal: 'sales', metrics: expect.arrayContaining([expect.objectContaining({ name: 'revenue' })]) });
    const missing = (await post(rpc('resources/read', { uri: 'reveal:///nope/metrics' }))).json();
    expect(missing.error.code).toBe(-32002);
  });

  it('offers the analyst prompt: governed metrics first, provenance quoted, fallbacks said', async () => {
    const { prompts } = (await post(rpc('prompts/list'))).json().result as { prompts: { name: string }[] };
    expect(prompts.map((p) => p.name)).toEqual(['analyst']);
    const prompt = (await post(rpc('prompts/get', { name: 'analyst', arguments: { question: 'Revenue by channel?' } }))).json().result;
    const text = prompt.messages[0].content.text as string;
    expect(text).toMatch(/governed metrics first/i);
    expect(text).toMatch(/provenance/);
    expect(text).toMatch(/fall back/);
    expect(text).toMatch(/Question: Revenue by channel\?/);
  });
});

describe('the tool list', () => {
  it('fits in 2,000 tokens for a key that sees every tool', async () => {
    const listed = (await post(rpc('tools/list'))).json().result;
    expect(listed.tools).toHaveLength(11);
    const text = JSON.stringify(listed);
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const tokens = getEncoding(encoding).encode(text).length;
      expect(tokens, `${encoding}: ${tokens} tokens`).toBeLessThanOrEqual(2000);
    }
  });
});
