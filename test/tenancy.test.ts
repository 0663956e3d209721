// Members, roles and plans through the console API (real routes, real guard, real store): a change
// applies to sessions and keys already in use from their next request, on every instance; a workspace
// always keeps a luminary; adding someone never changes their role or password behind their back.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../src/services.js';
import { acquireStoreLock } from '../src/store/store-lock.js';
import { consoleCall, createKey, PASSWORD, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';

const keyCall = (t: TestApp, method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' },
    ...(payload ? { payload } : {}),
  });

/** A structured key acting for `userId` as if their role were `role` when it was made. */
async function structuredKey(services: Services, ws: SeededWorkspace, userId: string, role: 'editor' | 'luminary', scopes: string[]) {
  const created = await services.keys.create({ workspace: ws, user: { id: userId }, role }, { name: 'k', surface: 'structured', scopes });
  return created.value;
}

describe('console: members and roles', () => {
  let t: TestApp;
  let ws: SeededWorkspace;
  let luminary: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
    luminary = await signIn(t.app, ws.members.luminary.email);
  });
  afterAll(() => t.close());

  it('lists the members to a luminary only; sessions only', async () => {
    const listed = await consoleCall(t, luminary, 'GET', '/api/members');
    expect(listed.statusCode).toBe(200);
    const members = listed.json().members as Array<Record<string, unknown>>;
    expect(members.map((m) => m.role)).toEqual(['editor', 'luminary', 'tracer', 'viewer']);
    expect(members[0]).toEqual({
      id: ws.members.editor.id,
      email: ws.members.editor.email,
      name: 'editor',
      role: 'editor',
      attributes: {},
      created_at: expect.any(String),
    });

    const editor = await signIn(t.app, ws.members.editor.email);
    expect((await consoleCall(t, editor, 'GET', '/api/members')).json()).toMatchObject({ code: 'role_required' });
    expect((await consoleCall(t, editor, 'PATCH', `/api/members/${ws.members.viewer.id}`, { role: 'editor' })).statusCode).toBe(403);
    const key = await createKey(t.services, ws, 'luminary', 'structured');
    const byKey = await t.app.inject({ method: 'GET', url: '/api/members', headers: { authorization: `Bearer ${key.value}` } });
    expect(byKey.statusCode).toBe(401);
  });

  it('a role change applies at the next request to the sessions and keys the member already uses', async () => {
    const editor = ws.members.editor;
    const session = await signIn(t.app, editor.email);
    const key = await structuredKey(t.services, ws, editor.id, 'editor', ['query', 'models:write']);
    // Both in use (and the key cached) before the change. The deploy's empty body is refused after the guard.
    expect((await consoleCall(t, session, 'GET', '/api/studio/connections')).statusCode).toBe(200);
    expect((await keyCall(t, 'POST', '/v1/model/deploy', key, {})).json().code).toBe('invalid_request');

    const demoted = await consoleCall(t, luminary, 'PATCH', `/api/members/${editor.id}`, { role: 'viewer' });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json().member).toMatchObject({ id: editor.id, role: 'viewer' });

    expect((await consoleCall(t, session, 'GET', '/api/studio/connections')).json()).toMatchObject({ code: 'role_required' });
    expect((await keyCall(t, 'POST', '/v1/model/deploy', key, {})).json()).toMatchObject({ code: 'role_required' });
    expect((await consoleCall(t, session, 'GET', '/api/auth/me')).json().role).toBe('viewer');

    expect((await consoleCall(t, luminary, 'PATCH', `/api/members/${editor.id}`, { role: 'editor' })).statusCode).toBe(200);
    expect((await consoleCall(t, session, 'GET', '/api/studio/connections')).statusCode).toBe(200);
    expect((await keyCall(t, 'POST', '/v1/model/deploy', key, {})).json().code).toBe('invalid_request');
  });

  it('never leaves a workspace without a luminary', async () => {
    const own = await seedWorkspace(t.services);
    const first = own.members.luminary;
    const session = await signIn(t.app, first.email);
    for (const [method, payload] of [['PATCH', { role: 'editor' }], ['DELETE', undefined]] as const) {
      const refused = await consoleCall(t, session, method, `/api/members/${first.id}`, payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: `Cannot ${method === 'PATCH' ? 'demote' : 'remove'} ${first.email}: they are the last luminary of this workspace. Make another member a luminary first`,
        code: 'last_luminary',
      });
    }
    // Setting the role it already has is no change, and no refusal.
    expect((await consoleCall(t, session, 'PATCH', `/api/members/${first.id}`, { role: 'luminary' })).statusCode).toBe(200);

    expect((await consoleCall(t, session, 'PATCH', `/api/members/${own.members.viewer.id}`, { role: 'luminary' })).statusCode).toBe(200);
    const stepDown = await consoleCall(t, session, 'PATCH', `/api/members/${first.id}`, { role: 'tracer' });
    expect(stepDown.json().member.role).toBe('tracer');
    // The former luminary's own session loses the luminary routes at once.
    expect((await consoleCall(t, session, 'GET', '/api/members')).statusCode).toBe(403);
    const other = await signIn(t.app, own.members.viewer.email);
    expect((await consoleCall(t, other, 'DELETE', `/api/members/${own.members.viewer.id}`)).json().code).toBe('last_luminary');
  });

  it('removing a member ends their keys and sessions there, for good', async () => {
    const team = await seedWorkspace(t.services);
    const session = await signIn(t.app, team.members.luminary.email);
    const viewer = team.members.viewer;
    const viewerSession = await signIn(t.app, viewer.email);
    const key = await createKey(t.services, team, 'viewer', 'question');
    expect((await keyCall(t, 'GET', '/api/v1/probe/question', key.value)).statusCode).toBe(200);

    expect((await consoleCall(t, session, 'DELETE', `/api/members/${viewer.id}`)).statusCode).toBe(204);
    expect((await consoleCall(t, viewerSession, 'GET', '/api/auth/me')).json().code).toBe('session_expired');
    // The key went with the membership: it acts for no one, is no longer listed, and joining again
    // does not bring it back.
    expect((await keyCall(t, 'GET', '/api/v1/probe/question', key.value)).json().code).toBe('invalid_key');
    const listed = (await consoleCall(t, session, 'GET', '/api/members')).json().members as Array<{ id: string }>;
    expect(listed.map((m) => m.id)).not.toContain(viewer.id);
    const keys = (await consoleCall(t, session, 'GET', '/api/keys')).json().keys as Array<{ id: string }>;
    expect(keys.map((k) => k.id)).not.toContain(key.id);
    expect((await consoleCall(t, session, 'DELETE', `/api/members/${viewer.id}`)).json().code).toBe('unknown_user');

    await t.services.tenancy.addMember({ email: viewer.email, role: 'viewer', workspace: { id: team.id } });
    expect((await keyCall(t, 'GET', '/api/v1/probe/question', key.value)).statusCode).toBe(401);
    expect(await t.store.db.selectFrom('api_keys').select('id').where('id', '=', key.id).execute()).toEqual([]);
  });

  it('404 for a user of another workspace or no user; 400 for an unknown role', async () => {
    const other = await seedWorkspace(t.services);
    for (const id of [other.members.viewer.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await consoleCall(t, luminary, 'PATCH', `/api/members/${id}`, { role: 'viewer' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: `Unknown user "${id}"`, code: 'unknown_user' });
    }
    expect((await t.services.tenancy.member(other.id, other.members.viewer.id)).role).toBe('viewer');
    const bad = await consoleCall(t, luminary, 'PATCH', `/api/members/${ws.members.viewer.id}`, { role: 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('role') });
  });
});

describe('console: the workspace and its plan', () => {
  let t: TestApp;
  let ws: SeededWorkspace;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(t.services);
  });
  afterAll(() => t.close());

  it('any member reads it; only a luminary changes it', async () => {
    const viewer = await signIn(t.app, ws.members.viewer.email);
    const read = await consoleCall(t, viewer, 'GET', '/api/workspace');
    expect(read.json().workspace).toEqual({ id: ws.id, name: expect.any(String), plan: 'team', timezone: 'UTC', created_at: expect.any(String) });
    expect((await consoleCall(t, viewer, 'PATCH', '/api/workspace', { plan: 'free' })).json().code).toBe('role_required');
    const editor = await signIn(t.app, ws.members.editor.email);
    expect((await consoleCall(t, editor, 'PATCH', '/api/workspace', { plan: 'free' })).statusCode).toBe(403);
    expect((await t.services.tenancy.workspace(ws.id)).plan).toBe('team');
  });

  it('a plan without API access refuses the workspace keys already in use at their next request', async () => {
    const luminary = await signIn(t.app, ws.members.luminary.email);
    const key = await createKey(t.services, ws, 'viewer', 'workspace');
    expect((await keyCall(t, 'GET', '/api/v1/workspace', key.value)).json().workspace.plan).toBe('team');

    const moved = await consoleCall(t, luminary, 'PATCH', '/api/workspace', { plan: 'free', name: '  Renamed  ' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().workspace).toMatchObject({ id: ws.id, plan: 'free', name: 'Renamed' });

    const refused = await keyCall(t, 'GET', '/api/v1/workspace', key.value);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'API access requires the Team plan', code: 'plan_required' });
    expect((await consoleCall(t, luminary, 'GET', '/api/auth/me')).json().workspace).toMatchObject({ name: 'Renamed', plan: 'free' });
    // No new workspace key on the free plan either.
    const create = await consoleCall(t, luminary, 'POST', '/api/keys', { name: 'b', surface: 'workspace' });
    expect(create.json().code).toBe('plan_required');

    expect((await consoleCall(t, luminary, 'PATCH', '/api/workspace', { plan: 'enterprise' })).statusCode).toBe(200);
    expect((await keyCall(t, 'GET', '/api/v1/workspace', key.value)).json().workspace).toMatchObject({ plan: 'enterprise', name: 'Renamed' });
  });

  it('400 for an empty change, an empty name or an unknown plan', async () => {
    const luminary = await signIn(t.app, ws.members.luminary.email);
    for (const payload of [{}, { name: '   ' }, { plan: 'gold' }]) {
      const response = await consoleCall(t, luminary, 'PATCH', '/api/workspace', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_request');
    }
  });
});

describe('adding a member', () => {
  let t: TestApp;
  let ws: SeededWorkspace;

  beforeAll(async () => {
    t = await startTestApp();
    ws = await seedWorkspace(t.services);
  });
  afterAll(() => t.close());

  it('an existing user joins another workspace with the password they have', async () => {
    const user = ws.members.editor;
    const elsewhere = await seedWorkspace(t.services);
    const hashBefore = (await t.services.members.findUserByEmail(user.email))!.password_hash;
    const added = await t.services.tenancy.addMember({ email: user.email.toUpperCase(), role: 'tracer', workspace: { id: elsewhere.id } });
    expect(added).toMatchObject({ newUser: false, member: { id: user.id, role: 'tracer' }, workspace: { id: elsewhere.id } });
    expect(added.generatedPassword).toBeUndefined();
    expect((await t.services.members.findUserByEmail(user.email))!.password_hash).toBe(hashBefore);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: PASSWORD, workspace_id: elsewhere.id } });
    expect(login.json()).toMatchObject({ workspace: { id: elsewhere.id }, role: 'tracer' });
    // Their role in the first workspace is untouched.
    expect((await t.services.tenancy.member(ws.id, user.id)).role).toBe('editor');
  });

  it('refuses someone already in the workspace, without changing their role', async () => {
    const viewer = ws.members.viewer;
    await expect(t.services.tenancy.addMember({ email: viewer.email, role: 'luminary', workspace: { id: ws.id } })).rejects.toMatchObject({
      status: 409,
      code: 'already_member',
      message: expect.stringContaining(`${viewer.email} is already a member of`),
    });
    expect((await t.services.tenancy.member(ws.id, viewer.id)).role).toBe('viewer');
  });

  it('refuses a password for an existing user, and a first member of a new workspace who is no luminary', async () => {
    const before = await t.services.tenancy.listWorkspaces();
    await expect(
      t.services.tenancy.addMember({ email: ws.members.viewer.email, role: 'luminary', password: 'new one', workspace: { create: { name: 'N', plan: 'team' } } }),
    ).rejects.toMatchObject({ status: 400, code: 'user_exists' });
    await expect(
      t.services.tenancy.addMember({ email: 'fresh@example.com', role: 'viewer', workspace: { create: { name: 'N', plan: 'team' } } }),
    ).rejects.toMatchObject({ status: 400, code: 'luminary_required' });
    // Neither left a workspace behind.
    expect(await t.services.tenancy.listWorkspaces()).toHaveLength(before.length);
  });

  it('a new user gets a generated password that signs in', async () => {
    const added = await t.services.tenancy.addMember({ email: 'New@Example.com', role: 'luminary', workspace: { create: { name: 'Fresh', plan: 'free' } } });
    expect(added).toMatchObject({ newUser: true, member: { email: 'new@example.com', name: 'new', role: 'luminary' }, workspace: { name: 'Fresh', plan: 'free' } });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'new@example.com', password: added.generatedPassword } });
    expect(login.statusCode).toBe(200);
    const summary = (await t.services.tenancy.listWorkspaces()).find((w) => w.id === added.workspace.id);
    expect(summary).toMatchObject({ members: 1, luminaries: 1, plan: 'free' });
  });
});

const shared = (await hasService('redis')) && (await hasService('postgres'));

describe.skipIf(!shared)('two instances over one PostgreSQL store and Redis', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let ws: SeededWorkspace;
  let luminaryOnOne: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-tenancy-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL, env: { TRUST_PROXY: 'true' } });
    ws = await seedWorkspace(one.services);
    luminaryOnOne = await signIn(one.app, ws.members.luminary.email);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a role change on one instance applies to keys cached and sessions open on the other', async () => {
    const editor = ws.members.editor;
    expect((await consoleCall(one, luminaryOnOne, 'PATCH', `/api/members/${editor.id}`, { role: 'luminary' })).statusCode).toBe(200);
    const key = await structuredKey(two.services, ws, editor.id, 'luminary', ['users:read']);
    const session = await signIn(two.app, editor.email);
    expect((await keyCall(two, 'GET', '/v1/users', key)).statusCode).toBe(200);
    expect((await consoleCall(two, session, 'GET', '/api/members')).statusCode).toBe(200);

    expect((await consoleCall(one, luminaryOnOne, 'PATCH', `/api/members/${editor.id}`, { role: 'viewer' })).statusCode).toBe(200);
    expect((await keyCall(two, 'GET', '/v1/users', key)).json().code).toBe('role_required');
    expect((await consoleCall(two, session, 'GET', '/api/members')).json().code).toBe('role_required');
    expect((await consoleCall(two, session, 'GET', '/api/studio/connections')).json().code).toBe('role_required');
  });

  it('a plan change on one instance refuses the workspace keys cached on the other', async () => {
    const key = await createKey(two.services, ws, 'viewer', 'workspace');
    expect((await keyCall(two, 'GET', '/api/v1/workspace', key.value)).statusCode).toBe(200);
    expect((await consoleCall(one, luminaryOnOne, 'PATCH', '/api/workspace', { plan: 'free' })).statusCode).toBe(200);
    expect((await keyCall(two, 'GET', '/api/v1/workspace', key.value)).json().code).toBe('plan_required');
    expect((await consoleCall(one, luminaryOnOne, 'PATCH', '/api/workspace', { plan: 'team' })).statusCode).toBe(200);
    expect((await keyCall(two, 'GET', '/api/v1/workspace', key.value)).statusCode).toBe(200);
  });

  it('two luminaries demoting each other at once on two instances leave one luminary', async () => {
    for (let round = 0; round < 3; round++) {
      const team = await seedWorkspace(one.services);
      const [a, b] = [team.members.luminary, team.members.editor];
      await one.services.tenancy.setRole(team.id, b.id, 'luminary');
      const [sa, sb] = [await signIn(one.app, a.email), await signIn(two.app, b.email)];
      const results = await Promise.all([
        consoleCall(one, sa, 'PATCH', `/api/members/${b.id}`, { role: 'viewer' }),
        consoleCall(two, sb, 'PATCH', `/api/members/${a.id}`, { role: 'viewer' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const members = await one.services.tenancy.listMembers(team.id);
      expect(members.filter((m) => m.role === 'luminary')).toHaveLength(1);
    }
  });

  it('the svc command shares the PostgreSQL store with running servers (no lock) and its change reaches them', async () => {
    // A live server's lock in the command's data dir: with DATABASE_URL it is not the store, so it does not matter.
    const lock = await acquireStoreLock(path.join(dataDir, 'metadata.lock'), { holder: 'server', command: 'svc serve' });
    try {
      const key = await createKey(two.services, ws, 'viewer', 'workspace');
      expect((await keyCall(two, 'GET', '/api/v1/workspace', key.value)).statusCode).toBe(200);
      const cli = spawnSync(process.execPath, ['bin/svc.js', 'workspaces', 'set-plan', '--workspace', ws.id, '--plan', 'free'], {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: { PATH: process.env.PATH, HOME: process.env.HOME, SVC_DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_URL, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(cli.stderr).toBe('');
      expect(cli.stdout).toMatch(/moved from the team to the free plan/);
      expect(cli.status).toBe(0);
      expect((await keyCall(two, 'GET', '/api/v1/workspace', key.value)).json().code).toBe('plan_required');
    } finally {
      lock.release();
    }
  }, 60_000);
});
