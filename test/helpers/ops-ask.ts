// Questions over POST /api/v1/ask on the operations model (ops-model.ts): an app on a data directory of
// its own, the ops rows in DuckDB, a luminary's question key, and a viewer's key whose data-key
// attributes a test chooses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './app.js';
import { deployOpsModel, loadOpsDuckDb } from './ops-model.js';

/** A question key of the workspace's viewer, whose data-key attributes are now `attributes`. */
export async function viewerQuestionKey(t: TestApp, ws: SeededWorkspace, attributes: Record<string, string>): Promise<string> {
  await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify(attributes) }).where('workspace_id', '=', ws.id).where('user_id', '=', ws.members.viewer.id).execute();
  await t.services.shared.bump(IDENTITY_GENERATION);
  return (await createKey(t.services, ws, 'viewer', 'question')).value;
}

export interface OpsAsk {
  readonly t: TestApp;
  readonly ws: SeededWorkspace;
  /** The answer's JSON, asked with the luminary's key unless another is given; the status must be 200. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field in tests
  ask(question: string, key?: string): Promise<any>;
  viewerKey(attributes: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

export async function startOpsAsk(name: string): Promise<OpsAsk> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `svc-${name}-`));
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  const ws = await seedWorkspace(t.services);
  await loadOpsDuckDb(t.services, ws.id);
  await deployOpsModel(t.services, ws);
  const luminary = (await createKey(t.services, ws, 'luminary', 'question')).value;
  return {
    t,
    ws,
    async ask(question, key = luminary) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question } });
      expect(response.statusCode).toBe(200);
      return response.json();
    },
    viewerKey: (attributes) => viewerQuestionKey(t, ws, attributes),
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
