// DuckDB files are confined to the workspace's own directory, <data dir>/workspaces/<workspace id>/.
// A luminary of one workspace tries to reach another workspace's warehouse, the service's secret key,
// its TLS key and its metadata through every spelling of a path (relative, ./, .., absolute, the other
// workspace's directory by id, symbolic links, a link swapped after registration), through the console
// API and the SQL editor. Nothing may be read, no answer may show an absolute server path, and a file
// outside the workspace's directory is refused the same way whether it exists or not.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-confine-'));
let t: TestApp;
let victim: SeededWorkspace;
let attacker: SeededWorkspace;
let victimCookie: string;
let cookie: string;
/** Where the victim's demo warehouse really is. */
let victimFile: string;
/** The attacker's own directory, where (say) an operator copied files and links. */
let attackerDir: string;
let counter = 0;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  victim = await seedWorkspace(t.services);
  attacker = await seedWorkspace(t.services);
  const lum = victim.members.luminary;
  victimFile = (await setUpDemo(t.services, { workspaceId: victim.id, userId: lum.id, email: lum.email }, { orders: 200 })).warehouseFile;
  // What a real data directory holds beside the warehouses.
  writeFileSync(path.join(dataDir, 'secret.key'), 'ab'.repeat(32));
  mkdirSync(path.join(dataDir, 'tls'), { recursive: true });
  writeFileSync(path.join(dataDir, 'tls', 'key.pem'), '-----BEGIN PRIVATE KEY-----\n');
  mkdirSync(path.join(dataDir, 'metadata'), { recursive: true });
  writeFileSync(path.join(dataDir, 'metadata', 'PG_VERSION'), '16\n');
  attackerDir = path.join(dataDir, 'workspaces', attacker.id);
  mkdirSync(attackerDir, { recursive: true });
  await makeDuckDb(path.join(attackerDir, 'own.duckdb'), 'mine');
  victimCookie = await signIn(t.app, lum.email);
  cookie = await signIn(t.app, attacker.members.luminary.email);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function makeDuckDb(file: string, value: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE t AS SELECT '${value}' AS x`);
  connection.closeSync();
  instance.closeSync();
}

function send(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, as = cookie) {
  const headers = method === 'GET' ? { cookie: as } : { cookie: as, 'content-type': 'application/json' };
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

function link(name: string, target: string): void {
  const at = path.join(attackerDir, name);
  rmSync(at, { force: true });
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** Every absolute spelling of the data directory that could appear in an answer. */
function leaksServerPath(body: string): boolean {
  return body.includes(dataDir) || body.includes(tmpdir() + '/');
}

interface Attempt {
  created: number;
  /** Everything the attacker saw: creation, test, view and the editor's answers. */
  bodies: string[];
  /** The editor's answer to a read of the demo's orders, when the connection was created. */
  query?: { status: number; body: string };
  createError?: { error: string; code: string };
  test?: { ok: boolean; error?: string };
}

/** Registers `spelling` as a DuckDB connection of the attacker, and if that works, tests it and reads through it. */
async function attempt(spelling: string): Promise<Attempt> {
  const name = `attempt-${counter++}`;
  const created = await send('POST', '/api/connections', { name, engine: 'duckdb', settings: { path: spelling } });
  const result: Attempt = { created: created.statusCode, bodies: [created.body] };
  if (created.statusCode !== 201) {
    result.createError = created.json();
    return result;
  }
  const { id } = created.json().connection;
  const tested = await send('POST', `/api/connections/${id}/test`);
  result.test = tested.json();
  const viewed = await send('GET', `/api/connections/${id}`);
  const query = await send('POST', '/api/studio/query', { connection: name, sql: 'select count(*) as n from shop.orders' });
  const schema = await send('GET', `/api/studio/connections/${name}/schema`);
  result.query = { status: query.statusCode, body: query.body };
  result.bodies.push(tested.body, viewed.body, query.body, schema.body);
  return result;
}

describe("another workspace's warehouse", () => {
  it('is the demo workspace’s own: its connection path is relative, and it reads', async () => {
    expect(victimFile).toBe(path.join(dataDir, 'workspaces', victim.id, 'warehouse.duckdb'));
    const list = (await send('GET', '/api/connections', undefined, victimCookie)).json().connections;
    expect(list).toEqual([expect.objectContaining({ name: 'warehouse', settings: { path: 'warehouse.duckdb' } })]);
    const read = await send('POST', '/api/studio/query', { connection: 'warehouse', sql: 'select count(*) as n from shop.orders' }, victimCookie);
    expect(read.statusCode).toBe(200);
    expect(read.json().rows[0].n).toBeGreaterThan(0);
  });

  it('cannot be reached by any spelling of its path', async () => {
    const spellings = [
      'warehouse.duckdb',
      './warehouse.duckdb',
      'tls/../warehouse.duckdb',
      './/warehouse.duckdb',
      victimFile,
      path.join(dataDir, 'warehouse.duckdb'),
      `${dataDir}/./workspaces/${victim.id}/warehouse.duckdb`,
      `../${victim.id}/warehouse.duckdb`,
      `../../workspaces/${victim.id}/warehouse.duckdb`,
      `workspaces/${victim.id}/warehouse.duckdb`,
      `../../warehouse.duckdb`,
    ];
    for (const spelling of spellings) {
      const seen = await attempt(spelling);
      if (seen.query) {
        expect(seen.query.status, spelling).not.toBe(200);
        expect(seen.test?.ok, spelling).toBe(false);
      } else {
        expect([seen.created, seen.createError?.code], spelling).toEqual([400, 'invalid_connection']);
      }
      for (const body of seen.bodies) expect(leaksServerPath(body), `${spelling}: ${body}`).toBe(false);
    }
  });

  it('a relative spelling names the workspace’s own directory: a missing file is said to be missing', async () => {
    const seen = await attempt('./warehouse.duckdb');
    expect(seen.created).toBe(201);
    expect(seen.bodies[0]).toContain('"path":"warehouse.duckdb"');
    const instance = t.services.config.instanceName;
    expect(seen.test).toEqual({
      ok: false,
      engine: 'duckdb',
      instance,
      missing_file: 'warehouse.duckdb',
      error: `DuckDB: cannot connect to the warehouse (there is no file "warehouse.duckdb" in this workspace's directory on instance "${instance}")`,
    });
    expect(seen.query!.status).toBe(502);
    expect(JSON.parse(seen.query!.body)).toMatchObject({ code: 'warehouse_unreachable', error: seen.test!.error });
  });

  it('cannot be reached through a symbolic link, to the file or to a directory above it', async () => {
    link('to-victim.duckdb', victimFile);
    link('relative-to-victim.duckdb', `../${victim.id}/warehouse.duckdb`);
    link('up', '..');
    link('data', dataDir);
    link('nested/deeper.duckdb', `../../${victim.id}/warehouse.duckdb`);
    for (const spelling of ['to-victim.duckdb', 'relative-to-victim.duckdb', `up/${victim.id}/warehouse.duckdb`, 'data/secret.key', 'nested/deeper.duckdb']) {
      const seen = await attempt(spelling);
      expect([seen.created, seen.createError?.code], spelling).toEqual([400, 'invalid_connection']);
      expect(seen.createError?.error, spelling).toBe('DuckDB settings.path leads outside the workspace\'s directory (through a symbolic link)');
    }
  });

  it('is not reached through a link swapped after registration, before or after the first run', async () => {
    link('swap.duckdb', 'own.duckdb');
    const created = await send('POST', '/api/connections', { name: 'swap', engine: 'duckdb', settings: { path: 'swap.duckdb' } });
    expect(created.statusCode).toBe(201);
    const read = () => send('POST', '/api/studio/query', { connection: 'swap', sql: 'select * from t' });

    // Swapped before the file was ever opened: the check at open time refuses it.
    link('swap.duckdb', victimFile);
    const refused = await read();
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      code: 'warehouse_unreachable',
      error: `DuckDB: cannot connect to the warehouse (the path "swap.duckdb" leads outside this workspace's directory)`,
    });
    expect(leaksServerPath(refused.body)).toBe(false);
    const tested = (await send('POST', `/api/connections/${created.json().connection.id}/test`)).json();
    expect(tested).toMatchObject({ ok: false, error: expect.stringContaining('leads outside') });

    // Back inside: it reads the workspace's own file.
    link('swap.duckdb', 'own.duckdb');
    const own = await read();
    expect([own.statusCode, own.json().rows]).toEqual([200, [{ x: 'mine' }]]);

    // Swapped while open: the open file is still the workspace's own. Reopened (a rename closes the
    // pooled driver), the link is followed again and refused.
    link('swap.duckdb', victimFile);
    expect((await read()).json().rows).toEqual([{ x: 'mine' }]);
    const id = created.json().connection.id;
    expect((await send('PATCH', `/api/connections/${id}`, { settings: { path: 'swap.duckdb' } })).json().code).toBe('invalid_connection');
    expect((await send('PATCH', `/api/connections/${id}`, { name: 'swapped' })).statusCode).toBe(200);
    const reopened = await send('POST', '/api/studio/query', { connection: 'swapped', sql: 'select count(*) as n from shop.orders' });
    expect([reopened.statusCode, reopened.json().code]).toEqual([502, 'warehouse_unreachable']);
    expect(reopened.json().error).toContain('leads outside');
  });

  it('cannot be set by an edit either', async () => {
    const { id } = (await send('POST', '/api/connections', { name: 'editable', engine: 'duckdb', settings: { path: 'own.duckdb' } })).json().connection;
    for (const spelling of [victimFile, `../${victim.id}/warehouse.duckdb`, 'to-victim.duckdb']) {
      const edited = await send('PATCH', `/api/connections/${id}`, { settings: { path: spelling } });
      expect([edited.statusCode, edited.json().code], spelling).toEqual([400, 'invalid_connection']);
      expect(leaksServerPath(edited.body)).toBe(false);
    }
    const read = await send('POST', '/api/studio/query', { connection: 'editable', sql: 'select * from t' });
    expect(read.json().rows).toEqual([{ x: 'mine' }]);
  });
});

describe("the service's own files", () => {
  it('are refused the same way whether they exist or not, and never named by their server path', async () => {
    link('key-link', path.join(dataDir, 'secret.key'));
    link('nothing-link', path.join(dataDir, 'no-such.key'));
    link('tls-link', path.join(dataDir, 'tls', 'key.pem'));
    link('tls-nothing-link', path.join(dataDir, 'tls', 'no-such.pem'));
    link('metadata-link', path.join(dataDir, 'metadata'));
    link('nothing-dir-link', path.join(dataDir, 'no-such-dir'));
    const pairs: Array<[string, string]> = [
      ['secret.key', 'no-such.key'],
      ['tls/key.pem', 'tls/no-such.pem'],
      ['metadata/PG_VERSION', 'metadata/NO_SUCH'],
      ['../../secret.key', '../../no-such.key'],
      [path.join(dataDir, 'secret.key'), path.join(dataDir, 'no-such.key')],
      [path.join(dataDir, 'tls', 'key.pem'), path.join(dataDir, 'tls', 'no-such.pem')],
      [path.join(dataDir, 'metadata', 'PG_VERSION'), path.join(dataDir, 'metadata', 'NO_SUCH')],
      ['key-link', 'nothing-link'],
      ['tls-link', 'tls-nothing-link'],
      ['metadata-link/PG_VERSION', 'nothing-dir-link/PG_VERSION'],
    ];
    const anonymous = (seen: Attempt, spelling: string) =>
      seen.bodies.map((b) => b.replaceAll(spelling, '<path>').replace(/"(id|name|created_at|updated_at|duration_ms|request_id)":"?[^",}]*"?/g, ''));
    for (const [existing, missing] of pairs) {
      const a = await attempt(existing);
      const b = await attempt(missing);
      expect(anonymous(a, existing), existing).toEqual(anonymous(b, missing));
      expect(a.query?.status ?? a.created, existing).not.toBe(200);
      for (const body of a.bodies) expect(leaksServerPath(body), body).toBe(false);
      for (const body of anonymous(a, existing)) expect(body).not.toMatch(/exists|not a valid DuckDB|secret|BEGIN PRIVATE/i);
    }
  });

  it('no listing shows an absolute path', async () => {
    await send('POST', '/api/connections', { name: 'tidy', engine: 'duckdb', settings: { path: './sub//file.duckdb' } });
    const listing = await send('GET', '/api/connections');
    const tidy = listing.json().connections.find((c: { name: string }) => c.name === 'tidy');
    expect(tidy.settings).toEqual({ path: 'sub/file.duckdb' });
    expect(leaksServerPath(listing.body)).toBe(false);
    const editor = await send('GET', '/api/studio/connections');
    expect(leaksServerPath(editor.body)).toBe(false);
  });
});
