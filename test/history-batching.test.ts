// Query history rows are written in batches, off the request: a run is listed as soon as it finished,
// a full buffer is written at once, and closing the services writes what is left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { historyRepo, type HistoryEntry } from '../src/store/history-repo.js';
import { HistoryWriter } from '../src/store/history-writer.js';
import type { Store } from '../src/store/db.js';
import { createKey, openMigratedPglite, seedWorkspace, signIn, startTestApp, type SeededWorkspace } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-history-'));
let store: Store;

beforeAll(async () => {
  store = await openMigratedPglite();
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const storedRuns = async (workspaceId: string) =>
  (await store.db.selectFrom('query_history').select('sql').where('workspace_id', '=', workspaceId).execute()).map((r) => r.sql).sort();

function entry(workspace: SeededWorkspace, sql: string, at: Date): HistoryEntry {
  return {
    workspaceId: workspace.id,
    userId: workspace.members.editor.id,
    connectionId: null,
    connectionName: 'warehouse',
    source: 'test',
    surface: 'studio',
    origin: 'sql',
    sql,
    status: 'success',
    error: null,
    rowCount: 1,
    durationMs: 1,
    at,
  };
}

describe('the history writer', () => {
  it('writes buffered rows together after its interval, or at once when the buffer is full', async () => {
    const app = await startTestApp({ store, env: { SVC_DATA_DIR: dataDir } });
    try {
      const ws = await seedWorkspace(app.services);
      const writer = new HistoryWriter(historyRepo(store.db), { flushMs: 100, maxRows: 5 });
      for (let i = 0; i < 3; i++) writer.add(entry(ws, `SELECT ${i}`, app.clock.now()));
      expect(await storedRuns(ws.id)).toEqual([]); // buffered, not yet written
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await storedRuns(ws.id)).toEqual(['SELECT 0', 'SELECT 1', 'SELECT 2']);

      for (let i = 3; i < 8; i++) writer.add(entry(ws, `SELECT ${i}`, app.clock.now())); // the fifth fills the buffer
      await new Promise((resolve) => setTimeout(resolve, 30)); // well inside the interval
      expect(await storedRuns(ws.id)).toHaveLength(8);
    } finally {
      await app.close();
    }
  });
});

describe('runs through the service', () => {
  it('are listed as soon as they finish (editor and console), and all are written when the services close', async () => {
    const app = await startTestApp({ store, env: { SVC_DATA_DIR: dataDir, TRUST_PROXY: 'true' } });
    let ws: SeededWorkspace;
    try {
      ws = await seedWorkspace(app.services);
      const lum = ws.members.luminary;
      await setUpDemo(app.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 50 });
      const editor = await signIn(app.app, ws.members.editor.email);
      const run = await app.app.inject({ method: 'POST', url: '/api/studio/query', headers: { cookie: editor, 'content-type': 'application/json' }, payload: { connection: 'warehouse', sql: 'SELECT 41 + 1 AS answer' } });
      expect(run.statusCode).toBe(200);
      const mine = (await app.app.inject({ method: 'GET', url: '/api/studio/history', headers: { cookie: editor } })).json().runs;
      expect(mine[0]).toMatchObject({ sql: 'SELECT 41 + 1 AS answer', status: 'success' });

      const luminary = await signIn(app.app, lum.email);
      const all = (await app.app.inject({ method: 'GET', url: '/api/history', headers: { cookie: luminary } })).json().runs;
      expect(all[0]).toMatchObject({ sql: 'SELECT 41 + 1 AS answer' });

      // Runs of the workspace API, closed straight after: nothing buffered may be lost.
      const key = (await createKey(app.services, ws, 'luminary', 'workspace')).value;
      const connection = (await app.services.connections.list(ws.id))[0]!;
      for (let i = 0; i < 5; i++) {
        const response = await app.app.inject({
          method: 'POST',
          url: '/api/v1/query',
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' },
          payload: { connection_id: connection.id, sql: `SELECT ${i} AS last_runs` },
        });
        expect(response.statusCode).toBe(200);
      }
    } finally {
      await app.close();
    }
    const written = await storedRuns(ws.id);
    for (let i = 0; i < 5; i++) expect(written).toContain(`SELECT ${i} AS last_runs`);
  });
});
