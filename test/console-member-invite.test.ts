// The console's members over HTTP: a luminary invites (POST /api/members: a new user's password is
// answered once and signs in with the role given), changes a role and removes a member; the last
// luminary can be neither demoted nor removed, and bad input is a 4xx with {error}. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCall, seedWorkspace, signIn, type SeededWorkspace } from './helpers/app.js';
import { METADATA_STORES, type StoreTestApp } from './helpers/metadata-stores.js';

describe.each(METADATA_STORES)('members on $name', (store) => {
  let t: StoreTestApp;
  let ws: SeededWorkspace;
  let luminary: string;
  beforeAll(async () => {
    t = await store.start();
    ws = await seedWorkspace(t.services);
    luminary = await signIn(t.app, ws.members.luminary.email);
  }, 60_000);
  afterAll(() => t?.close());

  it('invites a new user: the password is answered once and signs in with the role given', async () => {
    const invited = await consoleCall(t, luminary, 'POST', '/api/members', { email: 'Ada@Example.com', name: 'Ada', role: 'tracer' });
    expect(invited.statusCode, invited.body).toBe(201);
    const body = invited.json();
    expect(body).toMatchObject({ new_user: true, member: { email: 'ada@example.com', name: 'Ada', role: 'tracer', attributes: {} } });
    expect(body.one_time_password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ada@example.com', password: body.one_time_password } });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ workspace: { id: ws.id }, role: 'tracer' });
    // Listed once, and never with a password.
    const members = (await consoleCall(t, luminary, 'GET', '/api/members')).json().members as Array<Record<string, unknown>>;
    expect(members.filter((m) => m.email === 'ada@example.com')).toHaveLength(1);
    expect(JSON.stringify(members)).not.toContain(body.one_time_password);
  });

  it('an existing user joins with their own password; someone already a member is refused', async () => {
    const elsewhere = await seedWorkspace(t.services);
    const joined = await consoleCall(t, luminary, 'POST', '/api/members', { email: elsewhere.members.editor.email, role: 'viewer' });
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ new_user: false, one_time_password: null, member: { id: elsewhere.members.editor.id, role: 'viewer' } });

    const again = await consoleCall(t, luminary, 'POST', '/api/members', { email: ws.members.viewer.email, role: 'luminary' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_member', error: expect.stringContaining(ws.members.viewer.email) });
    expect((await t.services.tenancy.member(ws.id, ws.members.viewer.id)).role).toBe('viewer');
  });

  it('answers bad input with a 400 and its reason, and is for luminaries only', async () => {
    for (const payload of [{ email: 'not an address', role: 'viewer' }, { email: 'x@example.com', role: 'admin' }, { email: 'x@example.com' }, { email: 'x@example.com', role: 'viewer', password: 'mine' }]) {
      const bad = await consoleCall(t, luminary, 'POST', '/api/members', payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof bad.json().error).toBe('string');
    }
    const editor = await signIn(t.app, ws.members.editor.email);
    const refused = await consoleCall(t, editor, 'POST', '/api/members', { email: 'y@example.com', role: 'viewer' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'role_required' });
    expect(await t.services.members.findUserByEmail('y@example.com')).toBeUndefined();
  });

  it('changes a role and removes a member, never the last luminary', async () => {
    const invited = (await consoleCall(t, luminary, 'POST', '/api/members', { email: 'bo@example.com', role: 'viewer' })).json();
    const id = invited.member.id as string;
    const promoted = await consoleCall(t, luminary, 'PATCH', `/api/members/${id}`, { role: 'editor' });
    expect(promoted.json()).toMatchObject({ member: { id, role: 'editor' } });
    expect((await consoleCall(t, luminary, 'DELETE', `/api/members/${id}`)).statusCode).toBe(204);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bo@example.com', password: invited.one_time_password } });
    expect(login.statusCode).not.toBe(200);

    // The seeded luminary is the only one: neither stepping down nor leaving is allowed.
    const self = ws.members.luminary.id;
    expect((await consoleCall(t, luminary, 'PATCH', `/api/members/${self}`, { role: 'viewer' })).json()).toMatchObject({ code: 'last_luminary', error: expect.any(String) });
    expect((await consoleCall(t, luminary, 'DELETE', `/api/members/${self}`)).statusCode).toBe(409);
    expect((await t.services.tenancy.member(ws.id, self)).role).toBe('luminary');
  });
});
