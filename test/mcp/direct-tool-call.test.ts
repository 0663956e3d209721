// A lone tools/call is answered without the SDK's transport (src/mcp/direct-tool-call.ts); the same call
// with a `_meta` in its params is not (the direct path takes only the plain shape) and goes through the
// SDK. Both must answer the same: status, content type and JSON, for results, tool errors and protocol
// errors alike. And what the direct path declines (other headers, batches, odd shapes) is the SDK's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../../src/demo-setup.js';
import { directToolCallOf } from '../../src/mcp/direct-tool-call.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-direct-'));
let t: TestApp;
let key: string;
let viewerKey: string;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  const ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 100 });
  key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read', 'content:read', 'ask', 'sql'] })).value;
  viewerKey = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['models:read'] })).value;
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(name: string, args: unknown, options: { viaSdk: boolean; as?: string }) {
  const params = { name, ...(args === undefined ? {} : { arguments: args }), ...(options.viaSdk ? { _meta: {} } : {}) };
  const response = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...HEADERS, authorization: `Bearer ${options.as ?? key}` }, payload: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }) });
  return { status: response.statusCode, type: String(response.headers['content-type']).split(';')[0], body: response.json() as unknown };
}

describe('a lone tools/call, directly and through the SDK', () => {
  const CASES: Array<[string, string, unknown, string?]> = [
    ['a query (a cache hit both times)', 'query', { node: 'orders', dimensions: ['status'], measures: ['order_count'] }],
    ['the catalog', 'list_nodes', undefined],
    ['a node', 'get_node', { node: 'orders' }],
    ['a query with an unknown field (a tool error with did-you-mean)', 'query', { node: 'orders', measures: ['order_cnt'] }],
    ['arguments that do not validate (a protocol error)', 'query', { node: 42 }],
    ['an unknown tool (a protocol error)', 'no_such_tool', {}],
    ['a tool the key lacks the scope for (a tool error)', 'query', { node: 'orders', measures: ['order_count'] }, 'viewer'],
    ['SQL the guard refuses', 'run_sql', { connection: 'warehouse', sql: 'DELETE FROM shop.orders' }],
  ];

  it.each(CASES)('answers the same: %s', async (_what, name, args, who) => {
    const as = who === 'viewer' ? viewerKey : key;
    // Once first, so that a query's answer is cached for both calls compared.
    await call(name, args, { viaSdk: true, as });
    const sdk = await call(name, args, { viaSdk: true, as });
    const direct = await call(name, args, { viaSdk: false, as });
    expect(direct).toEqual(sdk);
  });
});

describe('what the direct path leaves to the SDK', () => {
  const plain = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_nodes' } };
  it('takes a plain lone call under the headers the transport requires', () => {
    expect(directToolCallOf(HEADERS, plain)).toEqual({ id: 1, name: 'list_nodes', args: undefined });
    expect(directToolCallOf({ ...HEADERS, 'mcp-protocol-version': '2025-11-25' }, plain)).toBeDefined();
  });

  it.each([
    ['Accept without text/event-stream', { ...HEADERS, accept: 'application/json' }, plain],
    ['a Content-Type other than JSON', { ...HEADERS, 'content-type': 'text/plain' }, plain],
    ['an unsupported protocol version', { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, plain],
    ['a batch', HEADERS, [plain]],
    ['a notification (no id)', HEADERS, { jsonrpc: '2.0', method: 'tools/call', params: { name: 'list_nodes' } }],
    ['another method', HEADERS, { ...plain, method: 'tools/list' }],
    ['a fractional id', HEADERS, { ...plain, id: 1.5 }],
    ['arguments that are not an object', HEADERS, { ...plain, params: { name: 'list_nodes', arguments: [1] } }],
    ['_meta in the params', HEADERS, { ...plain, params: { name: 'list_nodes', _meta: {} } }],
    ['another field in the message', HEADERS, { ...plain, extra: true }],
  ])('declines %s', (_what, headers, body) => {
    expect(directToolCallOf(headers, body)).toBeUndefined();
  });
});
