// A data directory written before workspaces had directories of their own: the demo's DuckDB file at
// <data dir>/warehouse.duckdb and connections naming files by absolute path. After a start, the demo's
// file belongs to the demo workspace and its connection still reads; a workspace that named someone
// else's file, or a file of the service, reads nothing; the service's files stay where they are.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.js';
import { loadDuckDb } from '../src/core/demo/index.js';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-upgrade-'));
let t: TestApp;
let demo: SeededWorkspace;
let other: SeededWorkspace;
let notes: string[];

async function legacyConnection(workspaceId: string, name: string, file: string, createdAt: string): Promise<void> {
  await t.store.db
    .insertInto('connections')
    .values({ workspace_id: workspaceId, name, engine: 'duckdb', config: JSON.stringify({ path: file }), secret_ciphertext: null, created_at: new Date(createdAt) })
    .execute();
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  demo = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  await loadDuckDb(path.join(dataDir, 'warehouse.duckdb'), { orders: 50, now: new Date('2025-06-01T00:00:00Z') });
  mkdirSync(path.join(dataDir, 'team'), { recursive: true });
  await loadDuckDb(path.join(dataDir, 'team', 'sales.duckdb'), { orders: 20, now: new Date('2025-06-01T00:00:00Z') });
  writeFileSync(path.join(dataDir, 'secret.key'), 'cd'.repeat(32));
  // As the previous version stored them: absolute paths into the shared data directory.
  await legacyConnection(demo.id, 'warehouse', path.join(dataDir, 'warehouse.duckdb'), '2025-01-01T00:00:00Z');
  await legacyConnection(other.id, 'borrowed', path.join(dataDir, 'warehouse.duckdb'), '2025-02-01T00:00:00Z');
  await legacyConnection(other.id, 'sales', path.join(dataDir, 'team', 'sales.duckdb'), '2025-02-02T00:00:00Z');
  await legacyConnection(other.id, 'key', path.join(dataDir, 'secret.key'), '2025-02-03T00:00:00Z');
  notes = (await bootstrapDemo(t.services)).upgradeNotes;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const read = async (workspace: SeededWorkspace, connection: string) => {
  const cookie = await signIn(t.app, workspace.members.luminary.email);
  return t.app.inject({
    method: 'POST',
    url: '/api/studio/query',
    headers: { cookie, 'content-type': 'application/json' },
    payload: { connection, sql: 'select count(*) as n from shop.orders' },
  });
};

describe('upgrading a data directory', () => {
  it("moves the demo's file into the demo workspace, whose connection keeps reading", async () => {
    expect(existsSync(path.join(dataDir, 'warehouse.duckdb'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'workspaces', demo.id, 'warehouse.duckdb'))).toBe(true);
    expect((await t.services.connections.list(demo.id))[0]!.settings).toEqual({ path: 'warehouse.duckdb' });
    const answer = await read(demo, 'warehouse');
    expect([answer.statusCode, answer.json().rows]).toEqual([200, [{ n: 50 }]]);
  });

  it('gives a file named by one workspace only to that workspace', async () => {
    expect(existsSync(path.join(dataDir, 'workspaces', other.id, 'team', 'sales.duckdb'))).toBe(true);
    const answer = await read(other, 'sales');
    expect([answer.statusCode, answer.json().rows]).toEqual([200, [{ n: 20 }]]);
  });

  it("leaves a later workspace that named another's file, or the secret key, reading nothing", async () => {
    const settings = Object.fromEntries((await t.services.connections.list(other.id)).map((c) => [c.name, c.settings]));
    expect(settings).toEqual({ borrowed: { path: 'warehouse.duckdb' }, key: { path: 'secret.key' }, sales: { path: 'team/sales.duckdb' } });
    for (const name of ['borrowed', 'key']) {
      const answer = await read(other, name);
      expect([answer.statusCode, answer.json().code], name).toEqual([502, 'warehouse_unreachable']);
      expect(answer.json().error).toMatch(/there is no file .* in this workspace's directory/);
    }
    expect(readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).toBe('cd'.repeat(32));
    expect(notes.filter((n) => n.includes('is not its workspace'))).toHaveLength(2);
    expect(notes.filter((n) => n.includes('moved to'))).toHaveLength(2);
  });

  it('does nothing on the next start', async () => {
    expect((await bootstrapDemo(t.services)).upgradeNotes).toEqual([]);
    expect((await read(demo, 'warehouse')).statusCode).toBe(200);
  });
});
