// Hostile input at the edge, on both metadata stores: NUL and lone surrogates refused once with a 400
// naming the field (they were 500s wherever a field reached the store), raw SQL with NUL still
// refused and recorded in the history, bodies nested too deep refused before validation (they
// overflowed the stack), and/or filters limited by the query schema, router errors in the error shape.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../src/core/cml/index.js';
import { MAX_FILTER_DEPTH } from '../src/core/semantic/query.js';
import { setUpDemo } from '../src/demo-setup.js';
import { MAX_JSON_DEPTH } from '../src/http/input-guard.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const withPostgres = await hasService('postgres');

interface Request {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  as: 'none' | 'session' | 'question' | 'workspace' | 'structured';
  payload?: unknown;
  /** A body sent as written (for escapes JSON.stringify would not produce). */
  raw?: string;
}

function nested(depth: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}
const fieldFilter = { field: 'status', operator: 'equals', value: 'completed' };
const andGroups = (depth: number) => nested(depth, (inner) => ({ and: [inner] }), fieldFilter);
/** Groups alternating not, or and and: each counts as a level. */
const mixedGroups = (depth: number) => {
  const wraps = [(inner: unknown) => ({ not: inner }), (inner: unknown) => ({ or: [inner] }), (inner: unknown) => ({ and: [inner] })];
  let value: unknown = fieldFilter;
  for (let i = 0; i < depth; i++) value = wraps[i % wraps.length]!(value);
  return value;
};

describe.each([
  { store: 'PGlite', postgres: false },
  { store: 'PostgreSQL', postgres: true },
])('on $store', ({ postgres }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-input-'));
  let t: TestApp;
  let drop: (() => Promise<void>) | undefined;
  let ws: SeededWorkspace;
  let warehouseId: string;
  const headers: Record<Request['as'], Record<string, string>> = { none: {}, session: {}, question: {}, workspace: {}, structured: {} };

  beforeAll(async () => {
    if (postgres && !withPostgres) return;
    const database = postgres ? await createTestDatabase() : undefined;
    drop = database?.drop;
    t = await startTestApp({ ...(database ? { databaseUrl: database.url } : {}), env: { TRUST_PROXY: 'true', SVC_DATA_DIR: dataDir } });
    ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 200 });
    warehouseId = (await t.services.connections.list(ws.id)).find((c) => c.name === 'warehouse')!.id;
    headers.session = { cookie: await signIn(t.app, lum.email) };
    headers.question = { authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'question')).value}` };
    headers.workspace = { authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'workspace')).value}`, 'x-forwarded-proto': 'https' };
    const scopes = ['query', 'models:read', 'models:write', 'users:read', 'users:write', 'content:read', 'content:write'];
    headers.structured = { authorization: `Bearer ${(await createKey(t.services, ws, 'luminary', 'structured', { scopes })).value}` };
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function send(request: Request) {
    const body = request.raw ?? (request.payload === undefined ? undefined : JSON.stringify(request.payload));
    return t.app.inject({
      method: request.method,
      url: request.url,
      headers: { ...headers[request.as], ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: body } : {}),
    });
  }

  describe.skipIf(postgres && !withPostgres)('U+0000 and lone surrogates, refused at the edge', () => {
    const lumId = () => ws.members.luminary.id;
    const cases: Array<[string, string, () => Request]> = [
      ['the sign-in e-mail (no credential)', 'body.email', () => ({ method: 'POST', url: '/api/auth/login', as: 'none', payload: { email: 'ada\u0000@example.com', password: 'x' } })],
      ['a key name', 'body.name', () => ({ method: 'POST', url: '/api/keys', as: 'session', payload: { name: 'ci\u0000', surface: 'question' } })],
      [
        'a connection setting',
        'body.settings.host',
        () => ({ method: 'POST', url: '/api/connections', as: 'session', payload: { name: 'pg', engine: 'postgres', settings: { host: 'db\u0000', database: 'd', user: 'u' } } }),
      ],
      ['a user attribute value', 'body.region', () => ({ method: 'PATCH', url: `/v1/users/${lumId()}/attributes`, as: 'structured', payload: { region: 'emea\u0000' } })],
      ['a user attribute name', 'body["re\\u0000gion"]', () => ({ method: 'PATCH', url: `/v1/users/${lumId()}/attributes`, as: 'structured', payload: { 're\u0000gion': 'emea' } })],
      [
        'a deployed file',
        'body.files[0].content',
        () => ({ method: 'POST', url: '/v1/model/deploy', as: 'structured', payload: { project: 'p', files: [{ path: 'a.cml', content: '# a comment \u0000' }] } }),
      ],
      [
        'a deploy message',
        'body.message',
        () => ({ method: 'POST', url: '/v1/model/deploy', as: 'structured', payload: { project: 'p', files: [{ path: 'a.cml', content: '' }], message: 'm\u0000' } }),
      ],
      ['the project slug in the path', 'params.slug', () => ({ method: 'GET', url: '/api/v1/projects/demo%00/nodes', as: 'workspace' })],
      ['a query string', 'querystring.tags', () => ({ method: 'GET', url: '/v1/nodes?tags=a%00b', as: 'structured' })],
      ['a question', 'body.question', () => ({ method: 'POST', url: '/api/v1/ask', as: 'question', payload: { question: 'revenue last week\u0000' } })],
      [
        'the editor’s connection name (only sql is recorded as sent)',
        'body.connection',
        () => ({ method: 'POST', url: '/api/studio/query', as: 'session', payload: { connection: 'ware\u0000house', sql: 'SELECT 1' } }),
      ],
    ];

    it.each(cases)('%s: 400 naming %s', async (_name, field, request) => {
      const response = await send(request());
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body).toMatchObject({ code: 'nul_character', field });
      const named = field.startsWith('body["') ? `the property name ${field.slice(5, -1)} in body` : field;
      expect(body.error).toBe(`Invalid request: ${named} contains the character U+0000 (NUL), which is not accepted`);
    });

    it('nothing of a refused request is stored', async () => {
      await send({ method: 'POST', url: '/api/keys', as: 'session', payload: { name: 'ci\u0000', surface: 'question' } });
      const keys = (await send({ method: 'GET', url: '/api/keys', as: 'session' })).json().keys as Array<{ name: string }>;
      expect(keys.some((k) => k.name.startsWith('ci'))).toBe(false);
    });

    it('a lone surrogate (an escape without its pair) is not Unicode: 400 naming the field', async () => {
      const response = await send({ method: 'PATCH', url: `/v1/users/${lumId()}/attributes`, as: 'structured', raw: '{"region": "emea \\ud800"}' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_unicode', field: 'body.region' });
      // A proper pair is a character like any other.
      const fine = await send({ method: 'PATCH', url: `/v1/users/${lumId()}/attributes`, as: 'structured', raw: '{"team": "\\ud83d\\udca5"}' });
      expect([fine.statusCode, fine.json().user.attributes.team]).toEqual([200, '💥']);
    });
  });

  describe.skipIf(postgres && !withPostgres)('a raw statement with NUL is refused and still recorded', () => {
    it('on surface B (/api/v1/query) and surface D (/api/studio/query), with NUL shown as ␀', async () => {
      const b = await send({ method: 'POST', url: '/api/v1/query', as: 'workspace', payload: { connection_id: warehouseId, sql: "SELECT 'b\u0000' AS x" } });
      const d = await send({ method: 'POST', url: '/api/studio/query', as: 'session', payload: { connection: 'warehouse', sql: "SELECT 'd\u0000' AS x" } });
      for (const response of [b, d]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'read_only_violation', reason: 'contains a NUL character' });
      }
      const runs = (await send({ method: 'GET', url: '/api/studio/history', as: 'session' })).json().runs as Array<Record<string, unknown>>;
      expect(runs.slice(0, 2).map((r) => [r.surface, r.status, r.sql, r.error])).toEqual([
        ['studio', 'refused', "SELECT 'd␀' AS x", 'Only SELECT, WITH and EXPLAIN statements are allowed: contains a NUL character'],
        ['workspace_api', 'refused', "SELECT 'b␀' AS x", 'Only SELECT, WITH and EXPLAIN statements are allowed: contains a NUL character'],
      ]);
    });

    it('an engine message that echoes a NUL is kept, the NUL shown as ␀', async () => {
      const user = ws.members.tracer.id;
      await t.services.history.insert({
        workspaceId: ws.id,
        userId: user,
        connectionId: warehouseId,
        connectionName: 'warehouse',
        source: 'governed-analytics-service',
        surface: 'studio',
        origin: 'sql',
        sql: 'SELECT CAST(v AS INTEGER) FROM t',
        status: 'error',
        error: "Could not convert string 'a\u0000b' to INT32",
        rowCount: null,
        durationMs: 1,
        at: t.clock.now(),
      });
      const [run] = (await t.services.history.pageForUser(ws.id, user, { limit: 1 })).rows;
      expect(run!.error).toBe("Could not convert string 'a␀b' to INT32");
    });
  });

  describe.skipIf(postgres && !withPostgres)('nesting', () => {
    it(`a filter nested 1,000 deep (a 10 KB body) is a 400 naming the limit of ${MAX_JSON_DEPTH}, on /v1/query and /api/studio/query/cml`, async () => {
      const filters = [andGroups(1000)];
      const c = await send({ method: 'POST', url: '/v1/query', as: 'structured', payload: { node: 'orders', measures: ['order_count'], filters } });
      const d = await send({ method: 'POST', url: '/api/studio/query/cml', as: 'session', payload: { reveal: 'sales', measures: ['orders'], filters } });
      for (const response of [c, d]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: `Invalid request: body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit is ${MAX_JSON_DEPTH})`,
          code: 'nesting_too_deep',
          limit: MAX_JSON_DEPTH,
        });
      }
    });

    it.for([
      ['and', andGroups],
      ['and/or/not', mixedGroups],
    ] as const)(`%s groups nest at most ${MAX_FILTER_DEPTH} deep: one more is a 400 that names the limit`, async ([, groups]) => {
      const at = (depth: number) => send({ method: 'POST', url: '/v1/query', as: 'structured', payload: { node: 'orders', measures: ['order_count'], filters: [groups(depth)] } });
      const within = await at(MAX_FILTER_DEPTH);
      expect(within.statusCode).toBe(200);
      const beyond = await at(MAX_FILTER_DEPTH + 1);
      expect(beyond.statusCode).toBe(400);
      expect(beyond.json()).toEqual({ error: `Invalid request: body.filters[0]: and/or/not groups nest at most ${MAX_FILTER_DEPTH} levels deep`, code: 'invalid_request' });
      const cml = await send({ method: 'POST', url: '/api/studio/query/cml', as: 'session', payload: { reveal: 'sales', measures: ['orders'], filters: [groups(MAX_FILTER_DEPTH + 1)], run: false } });
      expect(cml.json()).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(`at most ${MAX_FILTER_DEPTH} levels`) });
    });

    it('deep arrays and objects are refused on every route that takes a body; the limit itself is not', async () => {
      const ABSENT_ID = '00000000-0000-4000-8000-000000000000';
      const document = (await send({ method: 'GET', url: '/openapi.json', as: 'none' })).json() as { paths: Record<string, Record<string, unknown>> };
      const routes = Object.entries(document.paths).flatMap(([template, item]) =>
        Object.keys(item)
          .filter((method) => method !== 'get')
          // An id nothing has: a body at the limit goes on to the handler, which must not remove or change anything.
          .map((method) => ({ method: method.toUpperCase() as Request['method'], url: template.replaceAll(/\{[^}]+\}/g, ABSENT_ID) })),
      );
      expect(routes.length).toBeGreaterThanOrEqual(16);
      const as = (url: string): Request['as'] =>
        url.startsWith('/api/v1/query') ? 'workspace' : url.startsWith('/api/v1') ? 'question' : url.startsWith('/v1') || url === '/mcp' ? 'structured' : url === '/api/auth/login' ? 'none' : 'session';
      const codeOf = (r: { body: string }) => (r.body ? (JSON.parse(r.body) as { code?: string }).code : undefined);
      for (const route of routes.filter((r) => r.url !== '/api/auth/logout')) {
        for (const raw of ['['.repeat(200) + ']'.repeat(200), '{"a":'.repeat(200) + '1' + '}'.repeat(200)]) {
          const response = await send({ ...route, as: as(route.url), raw });
          expect([route.url, response.statusCode, codeOf(response)]).toEqual([route.url, 400, 'nesting_too_deep']);
        }
        const atLimit = await send({ ...route, as: as(route.url), raw: '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH) });
        expect([route.url, codeOf(atLimit)]).not.toEqual([route.url, 'nesting_too_deep']);
      }
      // Signing out ends the session the other requests use: it gets one of its own.
      const signOut = { method: 'POST', url: '/api/auth/logout', headers: { cookie: await signIn(t.app, ws.members.viewer.email), 'content-type': 'application/json' } } as const;
      expect(codeOf(await t.app.inject({ ...signOut, payload: '['.repeat(200) + ']'.repeat(200) }))).toBe('nesting_too_deep');
    });
  });

  describe.skipIf(postgres && !withPostgres)('CML files with NUL (the command line deploys without the HTTP edge)', () => {
    it('a NUL in a comment or a string is a CML001 error at its line and column; nothing is deployed', async () => {
      const content = 'node notes {\n  connection: warehouse\n  table: shop.orders # note \u0000\n  dimension id { type: number  primary_key: true  label: "a\u0000b" }\n}\n';
      const { diagnostics } = compileModel([{ path: 'notes.cml', content }]);
      const lines = content.split('\n');
      expect(diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.line, d.column])).toEqual([
        ['CML001', 3, lines[2]!.indexOf('\u0000') + 1],
        ['CML001', 4, lines[3]!.indexOf('\u0000') + 1],
      ]);
      const by = { workspaceId: ws.id, userId: ws.members.editor.id, email: ws.members.editor.email };
      await expect(t.services.models.deploy(by, 'notes', [{ path: 'notes.cml', content }], {})).rejects.toMatchObject({ status: 422, code: 'cml_invalid' });
      expect((await t.services.models.live(ws.id)).model.nodes.has('notes')).toBe(false);
    });
  });

  describe.skipIf(postgres && !withPostgres)('model files', () => {
    it('the same path twice is a 400 naming the second, on deploy and validate (it was a conflict in the store)', async () => {
      const files = [{ path: 'a.cml', content: '' }, { path: 'a.cml', content: '' }];
      for (const url of ['/v1/model/deploy', '/v1/model/validate']) {
        const response = await send({ method: 'POST', url, as: 'structured', payload: { project: 'twice', files } });
        expect([url, response.statusCode, response.json()]).toEqual([
          url,
          400,
          { error: 'Invalid request: body.files[1].path: "a.cml" appears more than once', code: 'invalid_request' },
        ]);
      }
    });
  });

  describe.skipIf(postgres && !withPostgres)('connection settings the driver would refuse', () => {
    it('a Snowflake account that is not an account identifier is a 400 naming it, not a 502 at first use', async () => {
      const response = await send({
        method: 'POST',
        url: '/api/connections',
        as: 'session',
        payload: { name: 'sf', engine: 'snowflake', settings: { account: 'my account!', username: 'u' } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/body\.settings\.account: must be a Snowflake account identifier/);
    });
  });
});

describe('the router and the HTTP parser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('a path parameter past the router limit is a 414 in the error shape, a shorter one reaches the route', async () => {
    const key = (await createKey(t.services, await seedWorkspace(t.services), 'viewer', 'structured')).value;
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    const long = await get(`/v1/nodes/${'x'.repeat(501)}`);
    expect([long.statusCode, long.json()]).toEqual([414, { error: 'A path parameter is longer than 500 characters', code: 'path_parameter_too_long' }]);
    const withinRoute = await get(`/v1/nodes/${'x'.repeat(150)}`);
    expect([withinRoute.statusCode, withinRoute.json().code]).toEqual([404, 'unknown_node']);
    const malformed = await get('/v1/nodes/%E0%A4%A');
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: 'The URL is malformed: a percent-encoded sequence is not valid UTF-8', code: 'malformed_url' }]);
  });

  /** Sends raw bytes to the listening app and returns status line and JSON body of its answer. */
  async function rawExchange(bytes: string): Promise<{ statusLine: string; body: unknown }> {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = reply.split('\r\n\r\n');
    return { statusLine: head.split('\r\n')[0]!, body: JSON.parse(body) };
  }

  it('a header with NUL never reaches a route: the HTTP parser refuses it, answered in the error shape', async () => {
    const answer = await rawExchange('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 1.2.3.4\u0000\r\nContent-Length: 0\r\n\r\n');
    expect(answer).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request', body: { error: expect.any(String), code: 'malformed_http' } });
  });

  it('headers larger than the parser accepts are a 431 in the error shape', async () => {
    const answer = await rawExchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toEqual({ statusLine: 'HTTP/1.1 431 Request Header Fields Too Large', body: { error: expect.any(String), code: 'headers_too_large' } });
  });
});

describe('a request that arrives while the server is closing', () => {
  it('is answered 503 service_unavailable with Retry-After, in the error shape', async () => {
    const t = await startTestApp();
    // A second app over the same services, listening, with a route slow enough to still be running when
    // close() begins: the request sent behind it on the same kept-alive connection arrives while closing.
    const app = await buildApp({
      services: t.services,
      extraRoutes: (child) => {
        child.get('/probe/slow', { config: { auth: 'public' }, schema: { hide: true } }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return { slow: true };
        });
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /probe/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
    socket.destroy();
    await closed;
    await t.close();
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[1]).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toEqual({ error: expect.any(String), code: 'service_unavailable' });
  });
});
