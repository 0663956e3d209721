// The model in the console: POST /api/model/validate and /api/model/deploy (editor and above, the
// signed-in user as deployer, model.deployed fired as C's deploy fires it), the deployment history
// GET /api/model/deployments (and its twin GET /v1/model/deployments) paged newest first, and the
// deployed files GET /api/model/projects; none of it crosses workspaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const NODE = (name: string) => `node ${name} {\n  connection: warehouse\n  table: shop.${name}\n  dimension id { type: number  primary_key: true }\n  measure n { type: count }\n}\n`;
const PR = 'https://git.example.com/acme/model/pull/42';
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
const cookies: Record<'viewer' | 'editor' | 'luminary' | 'other', string> = { viewer: '', editor: '', luminary: '', other: '' };

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  for (const role of ['viewer', 'editor', 'luminary'] as const) cookies[role] = await signIn(t.app, ws.members[role].email);
  cookies.other = await signIn(t.app, other.members.luminary.email);
}, 60_000);
afterAll(async () => t.close());

const api = (cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown) => consoleRequest(t.app, cookie, method, `/api${url}`, payload);

async function deploy(cookie: string, project: string, nodes: string[], extra: { pr_url?: string; message?: string } = {}) {
  t.clock.advance(1_000); // each deployment its own time, so "newest first" is a real order
  return api(cookie, 'POST', '/model/deploy', { project, files: nodes.map((n) => ({ path: `${n}.cml`, content: NODE(n) })), ...extra });
}

describe('POST /api/model/validate', () => {
  it('answers as /v1/model/validate does, for any role', async () => {
    const key = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['models:read'] })).value;
    for (const content of [NODE('visits'), 'node broken {']) {
      const body = { project: 'web', files: [{ path: 'v.cml', content }] };
      const session = await api(cookies.viewer, 'POST', '/model/validate', body);
      expect(session.statusCode).toBe(200);
      const twin = await t.app.inject({ method: 'POST', url: '/v1/model/validate', headers: { authorization: `Bearer ${key}` }, payload: body });
      expect(session.json()).toEqual(twin.json());
    }
    const broken = (await api(cookies.viewer, 'POST', '/model/validate', { project: 'web', files: [{ path: 'v.cml', content: 'node broken {' }] })).json();
    expect(broken.valid).toBe(false);
    expect(broken.diagnostics[0]).toMatchObject({ file: 'v.cml', line: expect.any(Number), column: expect.any(Number), severity: 'error' });
  });
});

describe('POST /api/model/deploy', () => {
  it('deploys as the signed-in editor: the e-mail as deployer, model.deployed fired, listed with its pr_url', async () => {
    const response = await deploy(cookies.editor, 'web', ['visits', 'carts'], { pr_url: PR, message: 'visits and carts' });
    expect(response.statusCode).toBe(200);
    const { deployment } = response.json();
    expect(deployment).toMatchObject({ deployed_by: ws.members.editor.email, changed_nodes: ['carts', 'visits'], pr_url: PR, message: 'visits and carts' });
    expect(response.json()).toMatchObject({ broken_scenes: [], repaired_scenes: [] });

    const events = await t.store.db.selectFrom('events').selectAll().where('workspace_id', '=', ws.id).where('type', '=', 'model.deployed').execute();
    expect(events.map((e) => e.payload)).toEqual([
      {
        event: 'model.deployed',
        deployed_at: deployment.deployed_at,
        deployed_by: ws.members.editor.email,
        changed_nodes: ['carts', 'visits'],
        pr_url: PR,
        workspace_id: ws.id,
        event_id: events[0]!.id,
      },
    ]);

    const listed = (await api(cookies.viewer, 'GET', '/model/deployments')).json();
    expect(listed).toEqual({
      deployments: [{ id: deployment.id, project: 'web', deployed_at: deployment.deployed_at, deployed_by: ws.members.editor.email, changed_nodes: ['carts', 'visits'], pr_url: PR, message: 'visits and carts' }],
      next_cursor: null,
    });
    expect((await api(cookies.viewer, 'GET', '/nodes')).json().nodes.map((n: { id: string }) => n.id)).toEqual(['carts', 'visits']);
  });

  it('403 role_required for a viewer, and nothing is deployed', async () => {
    const before = (await api(cookies.viewer, 'GET', '/model/deployments')).json().deployments.length;
    const refused = await deploy(cookies.viewer, 'web', ['orders']);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'role_required']);
    expect((await api(cookies.viewer, 'GET', '/model/deployments')).json().deployments).toHaveLength(before);
  });

  it('422 with diagnostics for a model with errors, as on C', async () => {
    const response = await api(cookies.luminary, 'POST', '/model/deploy', { project: 'web', files: [{ path: 'v.cml', content: 'node broken {' }] });
    expect([response.statusCode, response.json().code]).toEqual([422, 'cml_invalid']);
    expect(response.json().diagnostics.length).toBeGreaterThan(0);
  });
});

describe('GET /api/model/projects', () => {
  it('lists each project with its deployed files, which deploy back as they are', async () => {
    await deploy(cookies.luminary, 'shop', ['orders']);
    const { projects } = (await api(cookies.viewer, 'GET', '/model/projects')).json();
    expect(projects).toEqual([
      { project: 'shop', files: [{ path: 'orders.cml', content: NODE('orders') }] },
      {
        project: 'web',
        files: [
          { path: 'carts.cml', content: NODE('carts') },
          { path: 'visits.cml', content: NODE('visits') },
        ],
      },
    ]);
    const again = await api(cookies.editor, 'POST', '/model/deploy', projects[1]);
    expect([again.statusCode, again.json().deployment.changed_nodes]).toEqual([200, []]);
  });
});

describe('GET /api/model/deployments and GET /v1/model/deployments', () => {
  it('pages newest first with next_cursor; C answers the same pages with models:read', async () => {
    for (let i = 0; i < 3; i++) await deploy(cookies.editor, 'paged', [`p${i}`]);
    const all = await t.store.db.selectFrom('deployments').select(['id']).where('workspace_id', '=', ws.id).orderBy('deployed_at', 'desc').execute();
    expect(all.length).toBeGreaterThanOrEqual(6);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await api(cookies.viewer, 'GET', `/model/deployments${query}`);
      expect(page.statusCode).toBe(200);
      const key = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['models:read'] })).value;
      const twin = await t.app.inject({ method: 'GET', url: `/v1/model/deployments${query}`, headers: { authorization: `Bearer ${key}` } });
      expect(twin.json()).toEqual(page.json());
      const body = page.json();
      expect(body.deployments.length).toBeLessThanOrEqual(2);
      seen.push(...body.deployments.map((d: { id: string }) => d.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(all.map((d) => d.id));
    const newest = (await api(cookies.viewer, 'GET', '/model/deployments?limit=1')).json().deployments[0];
    // Each deploy replaces the project's files: p1 went, p2 came.
    expect(newest).toMatchObject({ project: 'paged', changed_nodes: ['p1', 'p2'], deployed_by: ws.members.editor.email, pr_url: null });
  });

  it.each([['not-a-cursor'], [Buffer.from('["yesterday","x"]').toString('base64url')], [Buffer.from('[1,2]').toString('base64url')]])('400 invalid_cursor for cursor=%j', async (cursor) => {
    const response = await api(cookies.viewer, 'GET', `/model/deployments?cursor=${cursor}`);
    expect([response.statusCode, response.json().code]).toEqual([400, 'invalid_cursor']);
  });

  it('400 for a limit out of range or an unknown parameter; 403 on C without models:read', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=ten', 'project=web']) {
      const response = await api(cookies.viewer, 'GET', `/model/deployments?${query}`);
      expect([query, response.statusCode]).toEqual([query, 400]);
    }
    const key = (await createKey(t.services, ws, 'viewer', 'structured', { scopes: ['query'] })).value;
    const refused = await t.app.inject({ method: 'GET', url: '/v1/model/deployments', headers: { authorization: `Bearer ${key}` } });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'scope_required']);
  });
});

describe('workspaces', () => {
  it("a second workspace's session sees only its own deployments and projects", async () => {
    expect((await api(cookies.other, 'GET', '/model/deployments')).json()).toEqual({ deployments: [], next_cursor: null });
    expect((await api(cookies.other, 'GET', '/model/projects')).json()).toEqual({ projects: [] });
    expect((await api(cookies.other, 'GET', '/nodes')).json()).toEqual({ nodes: [] });

    const own = await deploy(cookies.other, 'web', ['leads']);
    expect(own.json().deployment.changed_nodes).toEqual(['leads']);
    const deployments = (await api(cookies.other, 'GET', '/model/deployments')).json().deployments;
    expect(deployments.map((d: { id: string; deployed_by: string }) => [d.id, d.deployed_by])).toEqual([[own.json().deployment.id, other.members.luminary.email]]);
    expect((await api(cookies.other, 'GET', '/model/projects')).json()).toEqual({ projects: [{ project: 'web', files: [{ path: 'leads.cml', content: NODE('leads') }] }] });
    // Same project slug in both workspaces: each keeps its own files.
    const first = (await api(cookies.viewer, 'GET', '/model/projects')).json().projects.find((p: { project: string }) => p.project === 'web');
    expect(first.files.map((f: { path: string }) => f.path)).toEqual(['carts.cml', 'visits.cml']);
    expect((await api(cookies.viewer, 'GET', '/model/deployments?limit=200')).json().deployments.map((d: { id: string }) => d.id)).not.toContain(own.json().deployment.id);
  });
});
