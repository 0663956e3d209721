// What a deploy says about scenes is limited to the scenes the deployer may see: a deploy that breaks
// (or repairs) scenes in other people's private vaults answers as if they did not exist, on C, in the
// console and in `svc model validate --against-content`, as every other read of a scene does (404).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateAgainstContent } from '../../src/cli/model.js';
import { DEMO_MODEL_DIR, DEMO_PROJECT, readModelDir, setUpDemo } from '../../src/demo-setup.js';
import type { CmlFile } from '../../src/core/cml/index.js';
import { consoleRequest, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-deploy-report-'));
let t: TestApp;
let ws: SeededWorkspace;
const keys: Record<string, string> = {};
let files: CmlFile[];
let withoutChannel: CmlFile[];
const scenes: Record<'own' | 'luminarys' | 'boards', { id: string; name: string; vault: string }> = {} as never;

function c(who: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${keys[who]}` }, ...(payload ? { payload } : {}) });
}

async function scene(who: string, name: string, vault?: string) {
  const response = await c(who, 'POST', '/scenes', { name, ...(vault ? { vault } : {}), node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'order_count', direction: 'desc' }] });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().scene;
}

/** Nothing of the scenes the editor may not see: their ids, names or vaults. */
function expectNoneOfTheHidden(text: string): void {
  for (const hidden of [scenes.luminarys, scenes.boards]) {
    expect(text).not.toContain(hidden.id);
    expect(text).not.toContain(hidden.name);
    expect(text).not.toContain(hidden.vault);
  }
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 300 });
  const scopes = ['query', 'content:read', 'content:write', 'models:read', 'models:write'];
  for (const role of ['luminary', 'editor'] as const) keys[role] = (await createKey(t.services, ws, role, 'structured', { scopes })).value;
  // The editor's in their personal vault; the luminary's in theirs and in a shared vault the editor is not in.
  scenes.own = await scene('editor', 'Editor channels');
  scenes.luminarys = await scene('luminary', 'Luminary secret channels');
  const cookie = await signIn(t.app, lum.email);
  const board = (await consoleRequest(t.app, cookie, 'POST', '/api/vaults', { name: 'Board only' })).json().vault.id as string;
  scenes.boards = await scene('luminary', 'Board private channels', board);
  files = await readModelDir(DEMO_MODEL_DIR);
  withoutChannel = files.map((f) => (f.path === 'orders.cml' ? { ...f, content: f.content.replace(/^\s*dimension channel .*$/m, '') } : f));
}, 90_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a deploy that breaks scenes in vaults the deployer may not see', () => {
  it('names only the deployer’s own scenes, on C and in the console', async () => {
    const cookie = await signIn(t.app, ws.members.editor.email);
    for (const deploy of [
      (body: object) => c('editor', 'POST', '/model/deploy', body),
      (body: object) => consoleRequest(t.app, cookie, 'POST', '/api/model/deploy', body),
    ]) {
      const broke = await deploy({ project: DEMO_PROJECT, files: withoutChannel });
      expect(broke.statusCode, broke.body).toBe(200);
      expect(broke.json().broken_scenes).toEqual([{ id: scenes.own.id, name: scenes.own.name, vault: scenes.own.vault, reason: expect.stringMatching(/channel/) }]);
      expectNoneOfTheHidden(broke.body);
      const repaired = await deploy({ project: DEMO_PROJECT, files });
      expect(repaired.json().repaired_scenes).toEqual([{ id: scenes.own.id, name: scenes.own.name, vault: scenes.own.vault }]);
      expectNoneOfTheHidden(repaired.body);
    }
    // A luminary sees every vault: their deploy names all three.
    const all = await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files: withoutChannel });
    expect(all.json().broken_scenes.map((s: { id: string }) => s.id).sort()).toEqual([scenes.own.id, scenes.luminarys.id, scenes.boards.id].sort());
    await c('luminary', 'POST', '/model/deploy', { project: DEMO_PROJECT, files });
  });

  it('and `svc model validate --against-content` checks the scenes the given member may see', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-cml-'));
    for (const file of withoutChannel) writeFileSync(path.join(dir, file.path), file.content);
    const printed: string[] = [];
    // Scenes are listed on stdout, the verdict on stderr: both are read.
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true));
    let code: number;
    try {
      code = await validateAgainstContent(t.services, dir, { email: ws.members.editor.email, workspace: ws.id, project: DEMO_PROJECT });
    } finally {
      out.mockRestore();
      err.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(code).toBe(1);
    expect(printed.join('')).toContain(scenes.own.id);
    expectNoneOfTheHidden(printed.join(''));
    expect(printed.join('')).toMatch(/1 scene\(s\) would break/);
  });
});
