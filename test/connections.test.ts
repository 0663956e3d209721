// Warehouse connections in the store: passwords sealed, settings checked, internal names hidden and
// reserved, workspaces isolated, and the driver they open really reads.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors.js';
import { seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

const withPostgres = await hasService('postgres');
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: '/tmp/svc-connections-test' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
});
afterAll(() => t.close());

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('connections', () => {
  it.runIf(withPostgres)('seal the password, never show it, and open a driver that reads', async () => {
    const db = await createTestDatabase();
    try {
      const url = new URL(db.url);
      const password = 'pa$$word-that-must-not-leak';
      const view = await t.services.connections.create(ws.id, {
        name: 'analytics',
        engine: 'postgres',
        settings: { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username },
        password,
      });
      expect(view).toMatchObject({ name: 'analytics', engine: 'postgres', has_password: true });
      expect(JSON.stringify(view)).not.toContain(password);
      const row = await t.store.db.selectFrom('connections').selectAll().where('id', '=', view.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(password);

      const { warehouse } = await t.services.connections.warehouse(ws.id, 'analytics');
      const result = await warehouse.run('SELECT 41 + $1::int AS answer', [1], { maxRows: 10, timeoutMs: 5000 });
      expect(result.rows).toEqual([{ answer: 42 }]);
      expect((await t.services.connections.warehouse(ws.id, 'analytics')).warehouse).toBe(warehouse); // pooled
    } finally {
      await t.services.connections.registry.closeAll();
      await db.drop();
    }
  });

  it("are invisible to other workspaces", async () => {
    await t.services.connections.create(ws.id, { name: 'private', engine: 'duckdb', settings: { path: 'private.duckdb' } });
    const error = await refusal(t.services.connections.warehouse(other.id, 'private'));
    expect([error.status, error.message]).toEqual([404, 'Unknown connection "private"']);
    expect((await t.services.connections.list(other.id)).map((c) => c.name)).not.toContain('private');
  });

  it('reserve and hide internal names', async () => {
    const reserved = await refusal(t.services.connections.create(ws.id, { name: '_svc_cache', engine: 'duckdb', settings: { path: 'c.duckdb' } }));
    expect(reserved.status).toBe(400);
    await t.services.connections.create(ws.id, { name: '_svc_cache', engine: 'duckdb', settings: { path: 'c.duckdb' } }, { internal: true });
    expect((await t.services.connections.list(ws.id)).map((c) => c.name)).not.toContain('_svc_cache');
    expect((await t.services.connections.list(ws.id, { includeInternal: true })).map((c) => c.name)).toContain('_svc_cache');
  });

  it("refuse duplicates, bad settings and DuckDB files outside the workspace's directory", async () => {
    await t.services.connections.create(ws.id, { name: 'dup', engine: 'duckdb', settings: { path: 'dup.duckdb' } });
    expect((await refusal(t.services.connections.create(ws.id, { name: 'dup', engine: 'duckdb', settings: { path: 'x.duckdb' } }))).status).toBe(409);
    const bad = await refusal(t.services.connections.create(ws.id, { name: 'pg', engine: 'postgres', settings: { host: 'db', database: 'x' } }));
    expect(bad.message).toMatch(/Invalid postgres connection settings: user/);
    const escapes: Array<[string, string]> = [
      ['../other/warehouse.duckdb', 'DuckDB settings.path must not contain ".."'],
      ['/etc/passwd', "DuckDB settings.path must be relative to the workspace's directory, not absolute"],
      [path.join('/tmp', 'elsewhere.duckdb'), "DuckDB settings.path must be relative to the workspace's directory, not absolute"],
      ['a\u0000b.duckdb', 'DuckDB settings.path must not contain control characters'],
      ['./', 'DuckDB settings.path must name a file'],
    ];
    for (const [escape, message] of escapes) {
      const outside = await refusal(t.services.connections.create(ws.id, { name: 'escape', engine: 'duckdb', settings: { path: escape } }));
      expect([outside.status, outside.code, outside.message], escape).toEqual([400, 'invalid_connection', message]);
    }
    expect((await refusal(t.services.connections.create(ws.id, { name: 'bad name!', engine: 'duckdb', settings: { path: 'a.duckdb' } }))).status).toBe(400);
  });
});
