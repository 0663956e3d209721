// Fuzzes every operation of the served OpenAPI document with the credentials its security names, so
// requests get past authentication: bodies, query strings and path parameters generated from the
// route's own schemas, valid-looking or hostile. Whatever arrives, the answer is never a 5xx, every
// 4xx carries {"error": string, "code"?: string}, and every status answered is one the document lists
// for that operation. Seeded: FUZZ_SEED=<n> reproduces a run, FUZZ_RUNS=<n> changes its length.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp } from './helpers/app.js';
import { HOSTILE_STRINGS, hostileVariant, validish, type Components, type KnownValues, type Schema } from './helpers/openapi-arbitraries.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_010);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-fuzz-'));
const t = await startTestApp({ env: { TRUST_PROXY: 'true', SVC_DATA_DIR: dataDir } });
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ws = await seedWorkspace(t.services);
const lum = ws.members.luminary;
await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 300 });
const warehouseId = (await t.services.connections.list(ws.id)).find((c) => c.name === 'warehouse')!.id;
const UNLIMITED = { rateLimit: 1_000_000 };
const credentials: Record<string, Record<string, string>> = {
  questionKey: { authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'question', UNLIMITED)).value}` },
  workspaceKey: { authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'workspace', UNLIMITED)).value}`, 'x-forwarded-proto': 'https' },
  structuredKey: {
    authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read', 'models:write', 'content:read', 'users:read', 'users:write'] })).value}`,
  },
  session: { cookie: await signIn(t.app, lum.email) },
};
// The console's writes (keys, connections) run in a workspace of their own: a connection the fuzzer
// creates to nowhere must not be one the editor's routes then try to reach.
const scratch = await seedWorkspace(t.services);
const scratchSession = { cookie: await signIn(t.app, scratch.members.luminary.email) };
const spare = await t.services.connections.create(scratch.id, { name: 'spare', engine: 'postgres', settings: { host: '127.0.0.1', port: 9, database: 'x', user: 'x' } });
const spareKeys = await Promise.all([1, 2, 3].map(() => createKey(t.services, scratch, 'viewer', 'question')));
// Signing out ends a session: that operation gets one of its own.
const signOutSession = { cookie: await signIn(t.app, lum.email) };

// Values the seeded workspace has, so that generated requests reach real data, by where they go.
const knownInPath: KnownValues = {
  slug: ['demo'],
  name: ['orders', 'warehouse'],
  node_id: ['orders'],
  reveal_name: ['sales'],
  user_id: [ws.members.viewer.id, lum.id],
  id: [spare.id, ...spareKeys.map((k) => k.id)],
};
const knownInBody: KnownValues = {
  connection_id: [warehouseId],
  connection: ['warehouse'],
  node: ['orders'],
  reveal: ['sales'],
  measures: [['revenue'], ['order_count'], ['orders']],
  filters: [[{ field: 'status', operator: 'equals', value: 'completed' }], [{ or: [{ field: 'channel', operator: 'in', value: ['web'] }] }]],
  dimensions: [['orders.status'], ['created_at.month']],
  sql: ['SELECT 1 AS one', 'SELECT status, COUNT(*) AS n FROM shop.orders GROUP BY 1'],
  // Never `demo`: a deploy that happened to be valid would replace the model the other operations use.
  project: ['fuzz'],
  path: ['fuzz.cml'],
  content: ['', '# an empty model file\n'],
  // Connection names (created in the scratch workspace) that pass the name rule.
  name: ['fuzz-conn', 'analytics'],
  email: [ws.members.viewer.email],
  question: ['revenue last week', 'orders by status last month'],
};

const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Components };
};
const components = document.components.schemas;

interface Operation {
  method: string;
  template: string;
  operation: Schema;
}

const operations: Operation[] = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

/** Raw path segments, sent as they are: the router decodes them. */
const HOSTILE_SEGMENTS = ['%00', 'demo%00', '..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%', '%E0%A4%A', '%ED%A0%80', '%F0%9F%92%A5', 'x'.repeat(300), '%20', '%0A'];

function encodeSegment(value: unknown): string {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as its (invalid) UTF-8 bytes
  }
}

function pathArbitrary(op: Operation): fc.Arbitrary<string> {
  const params = ((op.operation.parameters ?? []) as Parameter[]).filter((p) => p.in === 'path');
  const values = params.map((p) =>
    fc.oneof(
      { arbitrary: validish(p.schema, components, knownInPath, p.name).map(encodeSegment), weight: 3 },
      { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 2 },
      { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeSegment), weight: 1 },
    ),
  );
  return fc.tuple(...values).map((segments) => params.reduce((url, p, i) => url.replace(`{${p.name}}`, segments[i]!), op.template));
}

function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const params = ((op.operation.parameters ?? []) as Parameter[]).filter((p) => p.in === 'query');
  const pairs = params.map((p) =>
    fc.option(
      fc.oneof(
        validish(p.schema, components, {}, p.name).map((v) => `${p.name}=${encodeSegment(v)}`),
        fc.constantFrom(...HOSTILE_SEGMENTS, ...HOSTILE_STRINGS.slice(0, 8).map(encodeSegment)).map((v) => `${p.name}=${v}`),
      ),
      { nil: '' },
    ),
  );
  const extra = fc.constantFrom('', 'unknown=1', '%00=x', 'limit=1&limit=2', 'a[b]=c', '&&=&');
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const query = [...chosen, more].filter(Boolean).join('&');
    return query ? `?${query}` : '';
  });
}

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string } | { kind: 'none' };

function bodyArbitrary(op: Operation): fc.Arbitrary<Body> {
  const schema = (op.operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema;
  const raw = fc.constantFrom<Body>(
    { kind: 'raw', text: '{"a":', type: 'application/json' },
    { kind: 'raw', text: '{"__proto__":{"polluted":true}}', type: 'application/json' },
    { kind: 'raw', text: 'sql=select+1', type: 'application/x-www-form-urlencoded' },
    { kind: 'raw', text: 'hello', type: 'text/plain' },
    { kind: 'raw', text: '"\\u0000"', type: 'application/json' },
    { kind: 'raw', text: `{"a":"${'\\ud800'}"}`, type: 'application/json' },
    { kind: 'none' },
  );
  if (!schema) return fc.oneof({ arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 4 }, { arbitrary: raw, weight: 1 });
  const json = validish(schema, components, knownInBody)
    .chain(hostileVariant)
    .map((value): Body => ({ kind: 'json', value }));
  return fc.oneof({ arbitrary: json, weight: 9 }, { arbitrary: raw, weight: 1 });
}

/** The service's error shape: `{"error": "<message>", "code"?: "<code>"}`. */
function isServiceError(parsed: { error?: unknown; code?: unknown }): boolean {
  return typeof parsed.error === 'string' && parsed.error !== '' && (parsed.code === undefined || typeof parsed.code === 'string');
}

/** The MCP endpoint's protocol refusals: a JSON-RPC error object with a numeric code and a message, as MCP clients read them. */
function isJsonRpcError(parsed: { error?: unknown }): boolean {
  const error = parsed.error as { code?: unknown; message?: unknown } | undefined;
  return (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof error?.code === 'number' && typeof error.message === 'string' && error.message !== '';
}

function credentialsOf(op: Operation): Record<string, string> {
  if (op.operation.operationId === 'signOut') return signOutSession;
  if (/^\/api\/(keys|connections)/.test(op.template)) return scratchSession;
  const [scheme] = Object.keys(((op.operation.security ?? []) as Array<Record<string, unknown>>)[0] ?? {});
  return scheme ? credentials[scheme]! : {};
}

function seedOf(operationId: string): number {
  let hash = SEED | 0;
  for (const char of operationId) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619);
  return hash;
}

describe(`fuzzing every operation of /openapi.json (seed ${SEED}, ${RUNS} runs each)`, () => {
  it('covers every documented operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(35);
  });

  it.each(operations.map((op) => [`${op.method} ${op.template}`, op] as const))('%s', async (_name, op) => {
    const documented = new Set(Object.keys(op.operation.responses as object));
    // Structured requests share one budget per workspace and minute: each operation starts a new minute.
    t.clock.advance(61_000);
    const request = fc.record({ url: pathArbitrary(op), query: queryArbitrary(op), body: bodyArbitrary(op) });
    await fc.assert(
      fc.asyncProperty(request, async ({ url, query, body }) => {
        const headers: Record<string, string> = { ...credentialsOf(op) };
        let payload: string | undefined;
        if (body.kind === 'json' && body.value !== undefined) {
          payload = JSON.stringify(body.value);
          headers['content-type'] = 'application/json';
        } else if (body.kind === 'raw') {
          payload = body.text;
          headers['content-type'] = body.type;
        }
        const response = await t.app.inject({ method: op.method as 'GET', url: `${url}${query}`, headers, ...(payload !== undefined ? { payload } : {}) });
        const where = `${op.method} ${url}${query} ${payload?.slice(0, 300) ?? ''} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        if (response.statusCode >= 500) throw new Error(`5xx: ${where}`);
        if (response.statusCode >= 400) {
          const parsed = JSON.parse(response.body) as { error?: unknown; code?: unknown };
          if (!isServiceError(parsed) && !(op.template === '/mcp' && isJsonRpcError(parsed))) throw new Error(`error shape: ${where}`);
        }
        if (!documented.has(String(response.statusCode))) throw new Error(`undocumented status: ${where}`);
      }),
      { seed: seedOf(String(op.operation.operationId)), numRuns: RUNS, endOnFailure: false },
    );
  });
});
