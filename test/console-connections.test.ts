// Warehouse connections through the console routes: luminaries only, passwords write-only (never in an
// answer nor in the log), settings checked per engine, workspaces isolated, and tests, edits and
// deletions that reach the real drivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { captureLogs } from './helpers/log-capture.js';
import { closedPort } from './helpers/network.js';
import { createTestDatabase, createTestMysqlDatabase, hasService } from './helpers/services.js';

const withPostgres = await hasService('postgres');
const withMysql = await hasService('mysql');

const { logger, lines: logLines } = captureLogs('trace');

let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let lumCookie: string;
let otherLumCookie: string;
/** A connection of `other`, which `ws` must never reach. */
let foreignId: string;
let pgDb: { url: string; drop(): Promise<void> } | undefined;
let mysqlDb: { url: string; database: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  t = await startTestApp({ logger, env: { SVC_DATA_DIR: '/tmp/svc-console-connections-test' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  lumCookie = await signIn(t.app, ws.members.luminary.email);
  otherLumCookie = await signIn(t.app, other.members.luminary.email);
  foreignId = (await create(otherLumCookie, duckdb('foreign'))).json().connection.id;
  if (withPostgres) pgDb = await createTestDatabase();
  if (withMysql) mysqlDb = await createTestMysqlDatabase();
});
afterAll(async () => {
  await t.close();
  await pgDb?.drop();
  await mysqlDb?.drop();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

function send(method: Method, url: string, cookie: string, payload?: object) {
  const headers = method === 'GET' ? { cookie } : { cookie, 'content-type': 'application/json' };
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}
const create = (cookie: string, body: object) => send('POST', '/api/connections', cookie, body);
const list = (cookie: string) => send('GET', '/api/connections', cookie);

function duckdb(name: string) {
  return { name, engine: 'duckdb', settings: { path: `${name}.duckdb` } };
}

/** Settings reaching the real database behind a postgres:// or mysql:// URL. */
function serverSettings(url: string) {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port), database: parsed.pathname.slice(1), user: decodeURIComponent(parsed.username) };
}

async function sealedPassword(id: string): Promise<string | null> {
  const row = await t.store.db.selectFrom('connections').select('secret_ciphertext').where('id', '=', id).executeTakeFirstOrThrow();
  return row.secret_ciphertext;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** Every route, for a connection id. */
function everyRoute(id: string): Array<[Method, string, object | undefined]> {
  return [
    ['GET', '/api/connections', undefined],
    ['POST', '/api/connections', duckdb('refused')],
    ['GET', `/api/connections/${id}`, undefined],
    ['PATCH', `/api/connections/${id}`, { name: 'renamed' }],
    ['DELETE', `/api/connections/${id}`, undefined],
    ['POST', `/api/connections/${id}/test`, undefined],
  ];
}

describe('who may call', () => {
  it('answers 401 without a session, and to an API key even of a luminary', async () => {
    const { id } = (await create(lumCookie, duckdb('guarded-401'))).json().connection;
    const { value } = await createKey(t.services, ws, 'luminary', 'question');
    for (const [method, url, payload] of everyRoute(id)) {
      const anonymous = await t.app.inject({ method, url, headers: { 'content-type': 'application/json' }, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json().code).toBe('session_required');
      const withKey = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' },
        ...(payload ? { payload } : {}),
      });
      expect(withKey.statusCode, `${method} ${url}`).toBe(401);
      expect(withKey.json().code).toBe('session_required');
    }
    expect((await send('GET', `/api/connections/${id}`, lumCookie)).json().connection.name).toBe('guarded-401');
  });

  it.each(['viewer', 'tracer', 'editor'] as const)('answers 403 to a %s on every route, and changes nothing', async (role) => {
    const { id } = (await create(lumCookie, duckdb(`guarded-${role}`))).json().connection;
    const cookie = await signIn(t.app, ws.members[role].email);
    for (const [method, url, payload] of everyRoute(id)) {
      const response = await send(method, url, cookie, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ error: `This action needs the luminary role or above; yours is ${role}`, code: 'role_required' });
    }
    expect((await send('GET', `/api/connections/${id}`, lumCookie)).json().connection.name).toBe(`guarded-${role}`);
    expect((await list(lumCookie)).json().connections.map((c: { name: string }) => c.name)).not.toContain('refused');
  });
});

describe('creating and listing', () => {
  it('creates a connection and shows has_password, never the password', async () => {
    const password = 'create-secret-7f3a';
    const created = await create(lumCookie, {
      name: 'warehouse',
      engine: 'postgres',
      settings: { host: 'db.internal', port: 5433, database: 'analytics', user: 'reader', ssl: true },
      password,
    });
    expect(created.statusCode).toBe(201);
    const { connection } = created.json();
    expect(connection).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'warehouse',
      engine: 'postgres',
      settings: { host: 'db.internal', port: 5433, database: 'analytics', user: 'reader', ssl: true },
      has_password: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.body).not.toContain(password);

    const listing = await list(lumCookie);
    expect(listing.statusCode).toBe(200);
    expect(listing.body).not.toContain(password);
    expect(listing.json().connections.find((c: { id: string }) => c.id === connection.id)).toEqual(connection);
    const one = await send('GET', `/api/connections/${connection.id}`, lumCookie);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ connection });
    expect(await sealedPassword(connection.id)).not.toContain(password);

    const plain = (await create(lumCookie, duckdb('local'))).json().connection;
    expect(plain).toMatchObject({ engine: 'duckdb', has_password: false, settings: { path: 'local.duckdb' } });
  });

  it('answers 400 naming what is wrong', async () => {
    const pg = { host: 'db', database: 'd', user: 'u' };
    const cases: Array<[object, RegExp]> = [
      [{ name: 'x', engine: 'oracle', settings: pg }, /body\.engine/],
      [{ engine: 'postgres', settings: pg }, /body\.name/],
      [{ name: 'x', engine: 'postgres', settings: { host: 'db', database: 'd' } }, /body\.settings\.user/],
      [{ name: 'x', engine: 'postgres', settings: { ...pg, port: 'five' } }, /body\.settings\.port/],
      [{ name: 'x', engine: 'mysql', settings: { ...pg, port: 70000 } }, /body\.settings\.port/],
      [{ name: 'x', engine: 'snowflake', settings: { username: 'u' } }, /body\.settings\.account/],
      [{ name: 'x', engine: 'mysql', settings: { ...pg, database: 'mysql' } }, /database must not be the server's own `mysql` database/],
      [{ name: 'x', engine: 'mysql', settings: { ...pg, database: 'MySQL' } }, /database must not be the server's own `mysql` database/],
      [{ name: 'x', engine: 'postgres', settings: { ...pg, password: 'in-settings' } }, /body\.settings: Unrecognized key: "password"/],
      [{ name: 'x', engine: 'duckdb', settings: {} }, /body\.settings\.path/],
      [{ name: 'x', engine: 'duckdb', settings: { path: '../elsewhere.duckdb' } }, /^DuckDB settings\.path must not contain "\.\."$/],
      [{ name: 'x', engine: 'duckdb', settings: { path: '/etc/passwd' } }, /^DuckDB settings\.path must be relative to the workspace's directory, not absolute$/],
      [{ name: 'x', engine: 'duckdb', settings: { path: 'x.duckdb' }, password: 'p' }, /DuckDB connections take no password/],
      [{ name: 'bad name!', engine: 'duckdb', settings: { path: 'x.duckdb' } }, /A connection name is 1 to 100 letters/],
      [{ name: '-dash', engine: 'duckdb', settings: { path: 'x.duckdb' } }, /A connection name/],
      [{ name: '_svc_mine', engine: 'duckdb', settings: { path: 'x.duckdb' } }, /Connection names starting with _svc_ are reserved/],
    ];
    for (const payload of cases) {
      const response = await create(lumCookie, payload[0]);
      expect(response.statusCode, JSON.stringify(payload[0])).toBe(400);
      expect(response.json().error, JSON.stringify(payload[0])).toMatch(payload[1]);
    }
    expect((await list(lumCookie)).json().connections.map((c: { name: string }) => c.name)).not.toContain('x');
  });

  it('answers 409 to a second connection of the same name', async () => {
    expect((await create(lumCookie, duckdb('twice'))).statusCode).toBe(201);
    const again = await create(lumCookie, duckdb('twice'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'A connection named twice already exists in this workspace', code: 'connection_exists' });
    // The same name in another workspace is no clash.
    expect((await create(otherLumCookie, duckdb('twice'))).statusCode).toBe(201);
  });

  it("hides the service's internal connections from every route", async () => {
    const internal = await t.services.connections.create(ws.id, { name: '_svc_cache', engine: 'duckdb', settings: { path: 'cache.duckdb' } }, { internal: true });
    expect((await list(lumCookie)).json().connections.map((c: { name: string }) => c.name)).not.toContain('_svc_cache');
    for (const [method, url, payload] of everyRoute(internal.id).slice(2)) {
      expect((await send(method, url, lumCookie, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    // Still there, and still the service's own to change.
    expect(await t.services.connections.get(ws.id, internal.id, { internal: true })).toEqual(internal);
    const renamed = await t.services.connections.update(ws.id, internal.id, { name: '_svc_cache2' }, { internal: true });
    expect(renamed.name).toBe('_svc_cache2');
    await t.services.connections.delete(ws.id, internal.id, { internal: true });
    expect((await refusal(t.services.connections.get(ws.id, internal.id, { internal: true }))).status).toBe(404);
  });
});

describe('one connection by id', () => {
  it("answers 404 to an unknown id, a non-UUID and another workspace's id, on every route", async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', foreignId]) {
      for (const [method, url, payload] of everyRoute(id).slice(2)) {
        const response = await send(method, url, lumCookie, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ error: `Connection ${id} not found`, code: 'unknown_connection' });
      }
    }
    // The other workspace's connection is untouched.
    const foreign = await send('GET', `/api/connections/${foreignId}`, otherLumCookie);
    expect(foreign.json().connection).toMatchObject({ id: foreignId, name: 'foreign' });
  });

  it('renames, and answers 409 onto an existing name and 400 to a bad or reserved one', async () => {
    const { id } = (await create(lumCookie, duckdb('before'))).json().connection;
    await create(lumCookie, duckdb('taken'));
    const patch = (body: object) => send('PATCH', `/api/connections/${id}`, lumCookie, body);

    const renamed = await patch({ name: 'after' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().connection).toMatchObject({ id, name: 'after' });

    const clash = await patch({ name: 'taken' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('connection_exists');
    expect((await patch({ name: '_svc_after' })).json()).toMatchObject({ code: 'invalid_connection', error: expect.stringMatching(/reserved/) });
    expect((await patch({ name: 'no spaces' })).statusCode).toBe(400);
    expect((await patch({ name: '' })).json().error).toMatch(/body\.name/);
    expect((await send('GET', `/api/connections/${id}`, lumCookie)).json().connection.name).toBe('after');
    // Keeping its own name is no clash.
    expect((await patch({ name: 'after' })).statusCode).toBe(200);
  });

  it("replaces settings, checked again against the connection's engine", async () => {
    const { connection } = (
      await create(lumCookie, { name: 'settings', engine: 'mysql', settings: { host: 'a', database: 'd', user: 'u', port: 3307 } })
    ).json();
    const patch = (body: object) => send('PATCH', `/api/connections/${connection.id}`, lumCookie, body);

    const replaced = await patch({ settings: { host: 'b', database: 'd2', user: 'u2' } });
    expect(replaced.statusCode).toBe(200);
    // Replaced, not merged: the port is gone.
    expect(replaced.json().connection.settings).toEqual({ host: 'b', database: 'd2', user: 'u2' });
    expect(Date.parse(replaced.json().connection.updated_at)).toBeGreaterThanOrEqual(Date.parse(connection.updated_at));

    const missing = await patch({ settings: { host: 'b', database: 'd2' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Invalid mysql connection settings: user Invalid input: expected string, received undefined');
    expect((await patch({ settings: { path: 'x.duckdb' } })).json().error).toMatch(/Invalid mysql connection settings/);
    expect((await patch({ settings: 'host=b' })).json().error).toMatch(/body\.settings/);

    const { id: duckId } = (await create(lumCookie, duckdb('moving'))).json().connection;
    const escape = await send('PATCH', `/api/connections/${duckId}`, lumCookie, { settings: { path: '/etc/passwd' } });
    expect(escape.statusCode).toBe(400);
    expect(escape.json().error).toBe("DuckDB settings.path must be relative to the workspace's directory, not absolute");
    const withPassword = await send('PATCH', `/api/connections/${duckId}`, lumCookie, { password: 'p' });
    expect(withPassword.json().error).toBe('DuckDB connections take no password');
    expect((await send('GET', `/api/connections/${connection.id}`, lumCookie)).json().connection.settings.host).toBe('b');
  });

  it('keeps the password when omitted, replaces it when given and removes it with null', async () => {
    const first = 'first-secret-91c2';
    const second = 'second-secret-44d8';
    const { id } = (
      await create(lumCookie, { name: 'secretive', engine: 'postgres', settings: { host: 'h', database: 'd', user: 'u' }, password: first })
    ).json().connection;
    const patch = (body: object) => send('PATCH', `/api/connections/${id}`, lumCookie, body);
    const sealedFirst = await sealedPassword(id);
    expect(sealedFirst).toMatch(/^v1:/);

    const renamed = await patch({ name: 'still-secretive' });
    expect(renamed.json().connection.has_password).toBe(true);
    expect(await sealedPassword(id)).toBe(sealedFirst);

    const changed = await patch({ password: second });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().connection.has_password).toBe(true);
    expect(changed.body).not.toContain(second);
    const sealedSecond = await sealedPassword(id);
    expect(sealedSecond).toMatch(/^v1:/);
    expect(sealedSecond).not.toBe(sealedFirst);
    expect(sealedSecond).not.toContain(second);

    expect((await patch({ password: '' })).statusCode).toBe(400);
    expect(await sealedPassword(id)).toBe(sealedSecond);

    const removed = await patch({ password: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().connection.has_password).toBe(false);
    expect(await sealedPassword(id)).toBeNull();
  });

  it('deletes with 204, after which the connection is gone everywhere', async () => {
    const { id } = (await create(lumCookie, duckdb('doomed'))).json().connection;
    const deleted = await send('DELETE', `/api/connections/${id}`, lumCookie);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await send('GET', `/api/connections/${id}`, lumCookie)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/connections/${id}`, lumCookie)).statusCode).toBe(404);
    expect((await list(lumCookie)).json().connections.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await refusal(t.services.connections.warehouse(ws.id, 'doomed'))).status).toBe(404);
    // The name is free again.
    expect((await create(lumCookie, duckdb('doomed'))).statusCode).toBe(201);
  });
});

describe('testing a connection', () => {
  const runTest = (id: string) => send('POST', `/api/connections/${id}/test`, lumCookie);

  it.runIf(withPostgres)('answers ok from a real PostgreSQL database', async () => {
    const { id } = (await create(lumCookie, { name: 'pg-real', engine: 'postgres', settings: serverSettings(pgDb!.url) })).json().connection;
    const response = await runTest(id);
    expect(response.statusCode).toBe(200);
    // What the role may do is the subject of connection-privileges.test.ts.
    expect(response.json()).toMatchObject({ ok: true, engine: 'postgres', duration_ms: expect.any(Number), privileges: expect.any(Object), warnings: expect.any(Array) });
  });

  it.runIf(withMysql)('answers ok from a real MySQL/MariaDB database', async () => {
    const { id } = (await create(lumCookie, { name: 'mysql-real', engine: 'mysql', settings: serverSettings(mysqlDb!.url) })).json().connection;
    const response = await runTest(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, engine: 'mysql', duration_ms: expect.any(Number), privileges: expect.any(Object), warnings: expect.any(Array) });
  });

  it('answers ok false, with an error that holds no password, when nothing listens on the port', async () => {
    const password = 'unreachable-secret-5be0';
    const port = await closedPort();
    const { id } = (
      await create(lumCookie, { name: 'pg-closed', engine: 'postgres', settings: { host: '127.0.0.1', port, database: 'd', user: 'u' }, password })
    ).json().connection;
    const response = await runTest(id);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toEqual({ ok: false, engine: 'postgres', instance: t.services.config.instanceName, error: expect.stringMatching(/^PostgreSQL: cannot connect to the warehouse/) });
    expect(response.body).not.toContain(password);
  });

  it('answers ok false for a DuckDB file that does not exist', async () => {
    const { id } = (await create(lumCookie, duckdb('absent-file'))).json().connection;
    const result = (await runTest(id)).json();
    expect(result).toMatchObject({ ok: false, engine: 'duckdb', error: expect.stringMatching(/^DuckDB/) });
  });

  it.runIf(withPostgres)('uses an edited connection at once, and closes the pooled driver of an edited or deleted one', async () => {
    const settings = serverSettings(pgDb!.url);
    const { id } = (await create(lumCookie, { name: 'pg-edited', engine: 'postgres', settings })).json().connection;
    expect((await runTest(id)).json().ok).toBe(true);
    const pooled = (await t.services.connections.warehouse(ws.id, 'pg-edited')).warehouse;

    const broken = await send('PATCH', `/api/connections/${id}`, lumCookie, { settings: { ...settings, port: await closedPort() } });
    expect(broken.statusCode).toBe(200);
    expect((await runTest(id)).json().ok).toBe(false);
    await expect(pooled.run('SELECT 1', [], { maxRows: 1, timeoutMs: 1000 })).rejects.toThrow();

    await send('PATCH', `/api/connections/${id}`, lumCookie, { settings });
    expect((await runTest(id)).json().ok).toBe(true);
    const repooled = (await t.services.connections.warehouse(ws.id, 'pg-edited')).warehouse;
    expect((await repooled.run('SELECT 1 AS one', [], { maxRows: 1, timeoutMs: 1000 })).rows).toEqual([{ one: 1 }]);

    expect((await send('DELETE', `/api/connections/${id}`, lumCookie)).statusCode).toBe(204);
    await expect(repooled.run('SELECT 1', [], { maxRows: 1, timeoutMs: 1000 })).rejects.toThrow();
    expect((await refusal(t.services.connections.warehouse(ws.id, 'pg-edited'))).status).toBe(404);
  });
});

describe('workspace isolation', () => {
  it("a luminary never lists or reads another workspace's connections", async () => {
    const ours = (await create(lumCookie, duckdb('ours-only'))).json().connection;
    const theirs = (await list(otherLumCookie)).json().connections.map((c: { id: string; name: string }) => c.id);
    expect(theirs).toContain(foreignId);
    expect(theirs).not.toContain(ours.id);
    const mine = (await list(lumCookie)).json().connections.map((c: { id: string }) => c.id);
    expect(mine).toContain(ours.id);
    expect(mine).not.toContain(foreignId);
    expect((await send('GET', `/api/connections/${ours.id}`, otherLumCookie)).statusCode).toBe(404);
  });
});

describe('logs', () => {
  it('never contain a connection password, whether the request succeeds or fails', async () => {
    const passwords = ['logged-create-1d9e', 'logged-patch-83aa', 'logged-refused-c071'];
    const port = await closedPort();
    const { id } = (
      await create(lumCookie, { name: 'logged', engine: 'postgres', settings: { host: '127.0.0.1', port, database: 'd', user: 'u' }, password: passwords[0] })
    ).json().connection;
    await send('PATCH', `/api/connections/${id}`, lumCookie, { password: passwords[1] });
    await send('POST', `/api/connections/${id}/test`, lumCookie);
    const clash = await create(lumCookie, { name: 'logged', engine: 'postgres', settings: { host: 'h', database: 'd', user: 'u' }, password: passwords[2] });
    expect(clash.statusCode).toBe(409);
    await create(lumCookie, { name: 'logged-bad', engine: 'postgres', settings: { host: 'h', database: 'd', user: 'u', password: passwords[2] } });
    // Should someone later log a request body, redaction still holds.
    t.app.log.info({ body: { name: 'logged', password: passwords[0] } }, 'diagnostic with a body');

    const all = logLines.join('');
    expect(all).toContain('connection_exists'); // the failing request's line really reached the log
    expect(all).toContain('[redacted]');
    for (const password of passwords) expect(all).not.toContain(password);
  });
});
