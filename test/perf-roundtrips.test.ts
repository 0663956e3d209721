// What one authenticated request costs in round trips, counted on the real clients: every query a
// `pg` client sends (the metadata store on PostgreSQL; the warehouse here is DuckDB, which never goes
// through `pg`) and every command an ioredis client sends (shared state and result cache). The counts
// are those of a request in steady state: the same credential, after warm-up requests. They are the
// budget of the hot path, asserted so that an added lookup or write cannot slip in unnoticed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WAREHOUSE_FILE, setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';

const shared = (await hasService('redis')) && (await hasService('postgres'));

/**
 * The store's writes made in batches off the requests, on timers of their own: the query history (every
 * 50 ms) and keys' last use (every few seconds). Whichever request's sample a batch lands in, it is not
 * that request's round trip; on a busy machine a request outlasts the history's 50 ms and its own row is
 * written before it is answered.
 */
const BACKGROUND_BATCHES = [/^insert into "query_history"/i, /^update "api_keys" set "last_used_at"/i];

/** Counts calls on the real clients' prototypes, calling through; `restore` puts the originals back. */
function countRoundTrips() {
  const counts = { store: 0, redis: 0, background: 0 };
  const commands: string[] = [];
  const pgQuery = pg.Client.prototype.query;
  const redisSend = Redis.prototype.sendCommand;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (BACKGROUND_BATCHES.some((batch) => batch.test(text.trim()))) counts.background++;
    else counts.store++;
    return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pgQuery;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    counts.redis++;
    commands.push(args[0].name);
    return redisSend.apply(this, args);
  };
  return {
    counts,
    commands,
    restore() {
      pg.Client.prototype.query = pgQuery;
      Redis.prototype.sendCommand = redisSend;
    },
  };
}

const LOOKUP = { node: 'orders', dimensions: ['id', 'status', 'channel'], measures: ['gross_revenue'], filters: [{ field: 'id', operator: 'equals', value: 42 }] };
const ONE_ROW_SQL = 'SELECT id, status, channel, amount FROM shop.orders WHERE id = 42';
// A node of the same table with a rollup, built in the set-up: its query is answered from the rollup.
const ROLLED = `node rolled_orders {
  connection: warehouse
  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension status { type: string }
  measure order_count { type: count }
  rollup by_status { dimensions: [status]  measures: [order_count]  refresh: on_deploy }
}
`;
const ROLLED_QUERY = { node: 'rolled_orders', dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'status', direction: 'asc' }] };

describe.skipIf(!shared)('round trips of one authenticated request, PostgreSQL store and Redis', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-roundtrips-'));
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;
  let ws: SeededWorkspace;
  let connectionId: string;
  const keys = { question: '', workspace: '', structured: '' };
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { SVC_DATA_DIR: dataDir, TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 200 });
    connectionId = (await t.services.connections.list(ws.id))[0]!.id;
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'rolled', [{ path: 'rolled.cml', content: ROLLED }]);
    for (const row of await t.services.rollupBuildRows.claimDue(t.clock.now(), 60_000, 10)) expect(await t.services.rollupBuilds.runClaimed(row)).toBe(true);
    keys.question = (await createKey(t.services, ws, 'luminary', 'question', { rateLimit: 1_000_000 })).value;
    keys.workspace = (await createKey(t.services, ws, 'luminary', 'workspace', { rateLimit: 1_000_000 })).value;
    keys.structured = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    cookie = await signIn(t.app, lum.email);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The round trips of one request in steady state: after warm-up requests, the median of several (a
   * background batch, such as last-used times written every few seconds, may land in any one of them).
   */
  async function steadyState(send: () => Promise<{ statusCode: number; body: string }>) {
    for (let i = 0; i < 3; i++) expect((await send()).statusCode, 'warm-up').toBe(200);
    const samples: Array<{ store: number; redis: number; commands: string[] }> = [];
    for (let i = 0; i < 5; i++) {
      const counter = countRoundTrips();
      try {
        const response = await send();
        expect(response.statusCode, response.body).toBe(200);
      } finally {
        counter.restore();
      }
      samples.push({ ...counter.counts, commands: counter.commands });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return { store: median(samples.map((s) => s.store)), redis: median(samples.map((s) => s.redis)), samples };
  }

  it('an authenticated, rate-limited no-op: one Redis round trip, no store round trip', async () => {
    const counts = await steadyState(() => t.app.inject({ method: 'GET', url: PROBES.question, headers: { authorization: `Bearer ${keys.question}` } }));
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 1 });
  });

  it('B, a one-row read: one Redis round trip, no store round trip', async () => {
    const counts = await steadyState(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/query',
        headers: { authorization: `Bearer ${keys.workspace}`, 'x-forwarded-proto': 'https' },
        payload: { connection_id: connectionId, sql: ONE_ROW_SQL },
      }),
    );
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 1 });
  });

  it('C, an uncached one-row query (no-cache: nothing read from or written to the cache): one Redis round trip', async () => {
    const counts = await steadyState(() =>
      t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${keys.structured}`, 'cache-control': 'no-cache' }, payload: LOOKUP }),
    );
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 1 });
  });

  it('C, a query answered from a rollup: one Redis round trip (its build records are kept in process), no store round trip', async () => {
    const send = () => t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${keys.structured}`, 'cache-control': 'no-cache' }, payload: ROLLED_QUERY });
    const answer = await send();
    expect(answer.json().metadata.rollup, answer.body).toMatchObject({ name: 'by_status' });
    const counts = await steadyState(send);
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 1 });
  });

  it('C, a cached query: the rate limit, then the cache read', async () => {
    const counts = await steadyState(() => t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${keys.structured}` }, payload: LOOKUP }));
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 2 });
  });

  it('D, a one-row query in the studio: one Redis round trip (the session\'s generations), no store round trip', async () => {
    const counts = await steadyState(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/studio/query',
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ connection: 'warehouse', sql: ONE_ROW_SQL, limit: 1000 }),
      }),
    );
    expect({ store: counts.store, redis: counts.redis }, JSON.stringify(counts.samples)).toEqual({ store: 0, redis: 1 });
  });
});

// The generations a request carries were read at its admission: a change announced on another instance
// before the request arrived must still be seen by it, at once, as a key's revocation or expiry is.
describe.skipIf(!shared)('two instances sharing PostgreSQL and Redis: what a request reads at admission is current', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-roundtrips-two-'));
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;
  let actor: { workspace: SeededWorkspace; user: { id: string }; role: 'luminary' };

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { SVC_DATA_DIR: dataDir, TRUST_PROXY: 'true' };
    one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env });
    ws = await seedWorkspace(one.services);
    const lum = ws.members.luminary;
    actor = { workspace: ws, user: { id: lum.id }, role: 'luminary' };
    await setUpDemo(one.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 200 });
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const query = (app: TestApp, key: string, payload: object) =>
    app.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' }, payload });

  it('a key revoked on one instance is refused by the other on its next request', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'structured');
    for (let i = 0; i < 2; i++) expect((await query(two, key.value, LOOKUP)).statusCode).toBe(200);
    await one.services.keys.revoke(actor, key.id);
    const refused = await query(two, key.value, LOOKUP);
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'key_revoked']);
  });

  it('a key is refused the moment it expires, though cached', async () => {
    const expiresAt = new Date(two.clock.now().getTime() + 60_000);
    const key = await createKey(one.services, ws, 'luminary', 'structured', { expiresAt });
    for (let i = 0; i < 2; i++) expect((await query(two, key.value, LOOKUP)).statusCode).toBe(200);
    two.clock.set(expiresAt);
    const refused = await query(two, key.value, LOOKUP);
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'key_expired']);
  });

  it('a deploy on one instance is queried on the other at once', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'structured');
    const extra = { node: 'orders_again', dimensions: ['id'], filters: [{ field: 'id', operator: 'equals', value: 42 }] };
    for (let i = 0; i < 2; i++) expect((await query(two, key.value, LOOKUP)).statusCode).toBe(200); // model cached on two
    expect((await query(two, key.value, extra)).statusCode).toBe(404);
    const content = 'node orders_again {\n  connection: warehouse\n  table: shop.orders\n  dimension id { type: number  primary_key: true }\n}\n';
    await one.services.models.deploy({ workspaceId: ws.id, userId: ws.members.luminary.id, email: ws.members.luminary.email }, 'extra', [{ path: 'o.cml', content }]);
    const after = await query(two, key.value, extra);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().data).toEqual([{ id: 42 }]);
  });

  it('a connection deleted on one instance is gone for the other at once', async () => {
    const key = await createKey(one.services, ws, 'luminary', 'workspace');
    const spare = await one.services.connections.create(ws.id, { name: 'spare', engine: 'duckdb', settings: { path: DEMO_WAREHOUSE_FILE } });
    const read = () =>
      two.app.inject({
        method: 'POST',
        url: '/api/v1/query',
        headers: { authorization: `Bearer ${key.value}`, 'x-forwarded-proto': 'https' },
        payload: { connection_id: spare.id, sql: ONE_ROW_SQL },
      });
    for (let i = 0; i < 2; i++) expect((await read()).statusCode).toBe(200); // connections cached on two
    await one.services.connections.delete(ws.id, spare.id);
    expect((await read()).statusCode).toBe(404);
  });
});
