// model.deployed: a deploy through surface C and through the CLI each leave exactly one event row,
// written with the deployment, carrying exactly the fields of spec 6.2.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployModel } from '../../src/cli/model.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const NODE = (name: string) => `node ${name} {\n  connection: warehouse\n  table: shop.${name}\n  dimension id { type: number  primary_key: true }\n  measure n { type: count }\n}\n`;
const dir = mkdtempSync(path.join(tmpdir(), 'svc-deployed-'));
let t: TestApp;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function events(workspaceId: string) {
  return t.store.db.selectFrom('events').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').execute();
}

describe('model.deployed', () => {
  it('a deploy through the API leaves one event with the fields of spec 6.2', async () => {
    const key = (await createKey(t.services, ws, 'editor', 'structured', { scopes: ['models:read', 'models:write'] })).value;
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/model/deploy',
      headers: { authorization: `Bearer ${key}` },
      payload: { project: 'api', files: [{ path: 'v.cml', content: NODE('visits') }], pr_url: 'https://git.example.com/pr/9' },
    });
    expect(response.statusCode).toBe(200);
    const rows = await events(ws.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.type).toBe('model.deployed');
    expect(row.payload).toEqual({
      event: 'model.deployed',
      deployed_at: response.json().deployment.deployed_at,
      deployed_by: ws.members.editor.email,
      changed_nodes: ['visits'],
      pr_url: 'https://git.example.com/pr/9',
      workspace_id: ws.id,
      event_id: row.id,
    });
    expect(new Date(row.payload.deployed_at as string).toISOString()).toBe(row.payload.deployed_at);
  });

  it('a deploy through the CLI (--pr-url) leaves one event too', async () => {
    const other = await seedWorkspace(t.services);
    writeFileSync(path.join(dir, 'c.cml'), NODE('carts'));
    const code = await deployModel(t.services, dir, {
      email: other.members.luminary.email,
      workspace: other.id,
      project: 'cli',
      'pr-url': 'https://git.example.com/pr/10',
    });
    expect(code).toBe(0);
    const rows = await events(other.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toEqual({
      event: 'model.deployed',
      deployed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deployed_by: other.members.luminary.email,
      changed_nodes: ['carts'],
      pr_url: 'https://git.example.com/pr/10',
      workspace_id: other.id,
      event_id: rows[0]!.id,
    });
  });

  it('a deploy that fails validation leaves no event', async () => {
    const third = await seedWorkspace(t.services);
    const attempt = t.services.models.deploy({ workspaceId: third.id, userId: third.members.luminary.id, email: third.members.luminary.email }, 'bad', [
      { path: 'b.cml', content: 'node broken {' },
    ]);
    await expect(attempt).rejects.toThrow();
    expect(await events(third.id)).toHaveLength(0);
  });
});
