// Every entry point that reads the semantic layer goes through the one governed call
// (GovernedQueryService.query): C's /v1/query and the console's /api/query, a scene run, a mosaic tile,
// a signal's evaluation, the editor's CML builder and a governed answer of /api/v1/ask. For each, the
// rows it answers are the rows that call returned, for the principal who asked, with the provenance the
// call gives (the live model's version, the SQL, the cache state, as of when); every compiled statement
// the warehouse ran was run by that call; and the query history holds exactly those runs, with the
// entry point's surface and origin. Two editors whose data keys show them different regions get
// different rows from each. On both metadata stores: PGlite and, when it answers, PostgreSQL.
import { afterEach, beforeAll, beforeEach, describe, expect, vi, type MockInstance } from 'vitest';
import { DEMO_MODEL_DIR, readModelDir } from '../src/demo-setup.js';
import { hashPassword } from '../src/identity/passwords.js';
import type { GovernedQueryRequest, GovernedQueryResult } from '../src/querying/governed-query.js';
import { PASSWORD, consoleRequest, signIn, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { demoAppOn, METADATA_STORES } from './helpers/demo-on-stores.js';

type Who = 'alice' | 'bob';
interface Person {
  id: string;
  email: string;
  region: string;
  /** Structured key (query and content scopes), question key, console session. */
  structured: string;
  question: string;
  cookie: string;
}
/** A governed call an entry point made: what it asked, and what it got. */
interface Call {
  request: GovernedQueryRequest;
  result: GovernedQueryResult;
}
interface HistoryRun {
  surface: string;
  origin: string;
  sql: string;
  params: unknown[] | null;
  user_email: string | null;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of seven different routes
type Body = any;

interface EntryPoint {
  name: string;
  surface: string;
  origin(): string;
  /** The result cache state a first request gets: C's answers use the cache, nothing else does. */
  cache: 'miss' | 'off';
  ask(who: Person): Promise<Body>;
  /** The rows (or the value) the answer shows, beside the rows the governed call returned last. */
  shown(body: Body, last: GovernedQueryResult): [unknown, unknown];
}

describe.each(METADATA_STORES)('on $store', (store) => {
  const { it, app } = demoAppOn(store, 400);
  let t: TestApp;
  let ws: SeededWorkspace;
  let luminary: string;
  const people = {} as Record<Who, Person>;
  const ids = { scene: '', mosaic: '', signal: '' };
  let query: MockInstance<TestApp['services']['governed']['query']>;
  let compiledRuns: MockInstance<TestApp['services']['rawSql']['runCompiled']>;

  async function ok(response: Awaited<ReturnType<TestApp['app']['inject']>>, status = 200): Promise<Body> {
    expect(response.statusCode, response.body).toBe(status);
    return response.json();
  }
  const withKey = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

  /** The governed calls made since the spies were last cleared, their results awaited. */
  async function calls(): Promise<Call[]> {
    return Promise.all(query.mock.calls.map(async ([request], i) => ({ request, result: await (query.mock.results[i]!.value as Promise<GovernedQueryResult>) })));
  }

  const entryPoints: EntryPoint[] = [
    {
      name: 'C /v1/query',
      surface: 'structured_api',
      origin: () => 'structured',
      cache: 'miss',
      ask: async (who) => ok(await withKey(who.structured, 'POST', '/v1/query', { node: 'orders', dimensions: ['channel'], measures: ['order_count', 'gross_revenue'], sorts: [{ field: 'channel', direction: 'asc' }] })),
      shown: (body, last) => [body.data, last.rows],
    },
    {
      name: 'console /api/query',
      surface: 'structured_api',
      origin: () => 'structured',
      cache: 'miss',
      ask: async (who) => ok(await consoleRequest(t.app, who.cookie, 'POST', '/api/query', { node: 'orders', dimensions: ['status'], measures: ['gross_revenue'], sorts: [{ field: 'status', direction: 'asc' }] })),
      shown: (body, last) => [body.data, last.rows],
    },
    {
      name: 'scene run',
      surface: 'structured_api',
      origin: () => `scene:${ids.scene}`,
      cache: 'off',
      ask: async (who) => ok(await withKey(who.structured, 'POST', `/v1/scenes/${ids.scene}/run`, {})),
      shown: (body, last) => [body.data, last.rows],
    },
    {
      name: 'mosaic tile',
      surface: 'structured_api',
      origin: () => `mosaic:${ids.mosaic}`,
      cache: 'off',
      ask: async (who) => ok(await withKey(who.structured, 'POST', `/v1/mosaics/${ids.mosaic}/run`, {})),
      shown: (body, last) => [body.tiles[0].result.data, last.rows],
    },
    {
      name: 'signal evaluation',
      surface: 'structured_api',
      origin: () => `signal:${ids.signal}`,
      cache: 'off',
      ask: async (who) => ok(await withKey(who.structured, 'POST', `/v1/signals/${ids.signal}/evaluate`, {})),
      shown: (body, last) => [body.value, Number(last.rows[0]!.gross_revenue)],
    },
    {
      name: 'D /query/cml',
      surface: 'studio_cml',
      origin: () => 'cml',
      cache: 'off',
      ask: async (who) => ok(await consoleRequest(t.app, who.cookie, 'POST', '/api/studio/query/cml', { reveal: 'sales', measures: ['revenue'], dimensions: ['channel'], sorts: [{ field: 'channel', direction: 'asc' }] })),
      shown: (body, last) => [body.result.rows, last.rows],
    },
    {
      name: '/api/v1/ask, a governed answer',
      surface: 'question_api',
      origin: () => 'question',
      cache: 'off',
      ask: async (who) => {
        const body = await ok(await withKey(who.question, 'POST', '/api/v1/ask', { question: 'revenue by channel last month' }));
        expect(body.provenance.reveal_backed).toBe(true);
        return body;
      },
      shown: (body, last) => [body.data.rows, last.rows],
    },
  ];

  async function addEditor(name: Who, region: string): Promise<Person> {
    const email = `${name}-${ws.id.slice(0, 8)}@example.com`;
    const user = await t.services.members.createUser({ email, name, passwordHash: await hashPassword(PASSWORD) });
    await t.services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'editor' });
    await t.services.tenancy.patchAttributes(ws.id, user.id, { region });
    const actor = { workspace: { id: ws.id, plan: ws.plan }, user: { id: user.id }, role: 'editor' as const };
    const structured = (await t.services.keys.create(actor, { name: `${name} structured`, surface: 'structured', scopes: ['query', 'content:read', 'content:write'] })).value;
    const question = (await t.services.keys.create(actor, { name: `${name} question`, surface: 'question' })).value;
    return { id: user.id, email, region, structured, question, cookie: await signIn(t.app, email) };
  }

  beforeAll(async () => {
    if (!store.available) return;
    ({ t, ws, cookie: luminary } = app());
    const regions = (await ok(await consoleRequest(t.app, luminary, 'POST', '/api/query', { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], sorts: [{ field: 'ship_region', direction: 'asc' }] }))).data as { ship_region: string }[];
    expect(regions.length).toBeGreaterThanOrEqual(2);
    people.alice = await addEditor('alice', regions[0]!.ship_region);
    people.bob = await addEditor('bob', regions[1]!.ship_region);
    // One scene, mosaic and signal, shared by both editors: each runs the same definition with their own keys.
    const vault = (await ok(await consoleRequest(t.app, luminary, 'POST', '/api/vaults', { name: 'Team' }), 201)).vault.id;
    for (const who of [people.alice, people.bob]) await ok(await consoleRequest(t.app, luminary, 'PUT', `/api/vaults/${vault}/members/${who.id}`, { access: 'edit' }));
    ids.scene = (await ok(await consoleRequest(t.app, luminary, 'POST', '/api/scenes', { name: 'By channel', vault, node: 'orders', dimensions: ['channel'], measures: ['gross_revenue'], sorts: [{ field: 'channel', direction: 'asc' }] }), 201)).scene.id;
    ids.mosaic = (await ok(await consoleRequest(t.app, luminary, 'POST', '/api/mosaics', { name: 'Board', vault, tiles: [{ id: 'a', kind: 'scene', scene_id: ids.scene, layout: { x: 0, y: 0, w: 6, h: 4 } }] }), 201)).mosaic.id;
    ids.signal = (await ok(await consoleRequest(t.app, luminary, 'POST', '/api/signals', { name: 'Revenue', vault, watch: { node: 'orders', measure: 'gross_revenue' }, condition: 'greater_than', threshold: 1, schedule: { interval_seconds: 3600 } }), 201)).signal.id;
  }, 120_000);

  // Call-through spies: the real service runs; they only record what it was asked and what it answered.
  beforeEach(() => {
    if (!store.available) return;
    query = vi.spyOn(t.services.governed, 'query');
    compiledRuns = vi.spyOn(t.services.rawSql, 'runCompiled');
  });
  afterEach(() => vi.restoreAllMocks());

  it.each(entryPoints.map((entry) => [entry.name, entry] as const))('%s answers through the one governed call, with each asker’s data keys', async (_name, entry) => {
    const live = await t.services.models.live(ws.id);
    const answered = {} as Record<Who, Call[]>;
    for (const who of ['alice', 'bob'] as const) {
      query.mockClear();
      compiledRuns.mockClear();
      t.clock.advance(1000);
      const askedAt = t.clock.now().toISOString();
      const body = await entry.ask(people[who]);
      const answeredAt = t.clock.now().toISOString();
      const made = await calls();
      expect(made.length, `${entry.name} made no governed call`).toBeGreaterThan(0);
      for (const { request, result } of made) {
        expect(request.principal.user.id).toBe(people[who].id);
        expect(request.principal.attributes).toEqual({ region: people[who].region });
        expect([request.surface, request.origin]).toEqual([entry.surface, entry.origin()]);
        expect(result.provenance).toEqual({ modelVersion: live.version, sql: result.sql, cache: entry.cache, freshAsOf: result.ranAt });
        // (ISO instants of one year compare as text.)
        expect(askedAt <= result.ranAt && result.ranAt <= answeredAt, `ran at ${result.ranAt}, asked at ${askedAt}`).toBe(true);
      }
      // Every compiled statement the warehouse ran was run by the governed call.
      expect(compiledRuns.mock.calls.length).toBe(made.length);
      const [shown, returned] = entry.shown(body, made.at(-1)!.result);
      expect(shown).toEqual(returned);
      answered[who] = made;
    }
    const rowsOf = (who: Who) => answered[who].map((call) => call.result.rows);
    expect(rowsOf('alice')).not.toEqual(rowsOf('bob'));
  });

  it('a cache hit of C is the stored result, as of when it was made, and a deploy moves the model version', async () => {
    const ask = async () => ok(await withKey(people.alice.structured, 'POST', '/v1/query', { node: 'orders', measures: ['order_count'], limit: 7 }));
    await ask();
    t.clock.advance(20_000); // within the 60 s the cache keeps an answer
    await ask();
    const [first, second] = (await calls()).map((call) => call.result);
    expect(second!.provenance).toEqual({ ...first!.provenance, cache: 'hit', freshAsOf: first!.ranAt });
    expect(second!.ranAt).toBe(first!.ranAt);
    expect(second!.rows).toEqual(first!.rows);
    expect(compiledRuns).toHaveBeenCalledTimes(1);

    const before = (await t.services.models.live(ws.id)).version;
    const files = await readModelDir(DEMO_MODEL_DIR);
    await ok(await consoleRequest(t.app, luminary, 'POST', '/api/model/deploy', { project: 'demo', files }));
    query.mockClear();
    await ask();
    const [after] = await calls();
    expect(after!.result.provenance.modelVersion).toBeGreaterThan(before);
    expect(after!.result.provenance.modelVersion).toBe((await t.services.models.live(ws.id)).version);
    expect(after!.result.provenance.cache).toBe('miss');
  });

  it('explain compiles as the run would, runs nothing, and says whether the cache holds the answer', async () => {
    const request = { node: 'orders', measures: ['gross_revenue'], limit: 9 };
    await ok(await withKey(people.bob.structured, 'POST', '/v1/query', request));
    const [{ request: asked, result }] = (await calls()) as [Call];
    compiledRuns.mockClear();
    const explained = await t.services.governed.explain({ principal: asked.principal, query: asked.query, cache: 'use', maxRows: asked.maxRows });
    expect(explained).toMatchObject({ sql: result.sql, params: result.params, node: 'orders', connection: result.connection, modelVersion: result.provenance.modelVersion, cache: 'hit' });
    if (asked.query.kind !== 'node') throw new Error('C asks node queries');
    const other = { kind: 'node' as const, query: { ...asked.query.query, limit: 8 } };
    expect((await t.services.governed.explain({ principal: asked.principal, query: other, cache: 'use', maxRows: 8 })).cache).toBe('miss');
    expect((await t.services.governed.explain({ principal: asked.principal, query: asked.query, cache: 'off', maxRows: asked.maxRows })).cache).toBe('off');
    expect(compiledRuns).not.toHaveBeenCalled();
  });

  it('the query history holds exactly the runs the governed calls made, with their surface and origin', async () => {
    const runs: Call[] = [];
    for (const entry of entryPoints) {
      for (const who of ['alice', 'bob'] as const) {
        t.clock.advance(1000);
        await entry.ask(people[who]);
      }
    }
    runs.push(...(await calls()));
    for (const who of ['alice', 'bob'] as const) {
      const recorded = (await ok(await consoleRequest(t.app, luminary, 'GET', `/api/history?user_id=${people[who].id}&limit=200`))).runs as HistoryRun[];
      const fromCalls = runs
        .filter((call) => call.request.principal.user.id === people[who].id && call.result.provenance.cache !== 'hit')
        .map((call) => `${call.request.surface} ${call.request.origin} ${JSON.stringify(call.result.params)} ${call.result.sql}`);
      // The newest runs of the history are this test's: as many as the calls that reached the warehouse.
      const newest = recorded.slice(0, fromCalls.length).map((run) => `${run.surface} ${run.origin} ${JSON.stringify(run.params)} ${run.sql}`);
      expect(newest.sort()).toEqual(fromCalls.sort());
      expect(recorded.slice(0, fromCalls.length).every((run) => run.user_email === people[who].email)).toBe(true);
    }
  });
});
