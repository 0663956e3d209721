// Vaults in the console over the real stack, on embedded PGlite and on PostgreSQL: who sees which vault
// (404, never 403, for a vault one may not see, across users and workspaces), personal vaults,
// membership changes and every bad input a 4xx with {"error"}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { createTestDatabase, hasService } from '../helpers/services.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function vaultSuite(label: string, open: () => Promise<{ t: TestApp; drop?: () => Promise<void> }>) {
  describe(`vaults (${label})`, () => {
    let t: TestApp;
    let drop: (() => Promise<void>) | undefined;
    let ws: SeededWorkspace;
    let other: SeededWorkspace;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      ({ t, drop } = await open());
      ws = await seedWorkspace(t.services);
      other = await seedWorkspace(t.services);
      for (const role of ['viewer', 'editor', 'luminary'] as const) cookies[role] = await signIn(t.app, ws.members[role].email);
      cookies.otherLuminary = await signIn(t.app, other.members.luminary.email);
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await drop?.();
    });

    function call(who: string, method: Method, url: string, payload?: object) {
      return t.app.inject({
        method,
        url: `/api${url}`,
        headers: { cookie: cookies[who]!, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(payload ? { payload } : {}),
      });
    }

    it('gives every user a personal vault they manage, which cannot be deleted', async () => {
      const listed = (await call('viewer', 'GET', '/vaults')).json().vaults;
      expect(listed).toEqual([expect.objectContaining({ personal: true, access: 'manage' })]);
      const again = (await call('viewer', 'GET', '/vaults')).json().vaults;
      expect(again.map((v: { id: string }) => v.id)).toEqual([listed[0].id]);
      const refused = await call('viewer', 'DELETE', `/vaults/${listed[0].id}`);
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'personal_vault']);
    });

    it('hides a vault from users who are not its members (404 for every action), across users and workspaces', async () => {
      const created = await call('editor', 'POST', '/vaults', { name: 'Finance', description: 'Board figures' });
      expect(created.statusCode).toBe(201);
      const vault = created.json().vault;
      expect(vault).toMatchObject({ name: 'Finance', description: 'Board figures', personal: false, access: 'manage' });

      const viewerIds = (await call('viewer', 'GET', '/vaults')).json().vaults.map((v: { id: string }) => v.id);
      expect(viewerIds).not.toContain(vault.id);
      for (const who of ['viewer', 'otherLuminary']) {
        for (const [method, url, payload] of [
          ['PATCH', `/vaults/${vault.id}`, { name: 'Mine now' }],
          ['DELETE', `/vaults/${vault.id}`, undefined],
          ['GET', `/vaults/${vault.id}/members`, undefined],
          ['PUT', `/vaults/${vault.id}/members/${ws.members.viewer.id}`, { access: 'manage' }],
        ] as const) {
          const response = await call(who, method, url, payload);
          expect([who, method, url, response.statusCode, response.json().code]).toEqual([who, method, url, 404, 'unknown_vault']);
        }
      }
      // The workspace's luminary sees and manages it, and everyone's personal vault.
      const luminaryVaults = (await call('luminary', 'GET', '/vaults')).json().vaults;
      expect(luminaryVaults.map((v: { id: string }) => v.id)).toContain(vault.id);
      // The viewer's and the luminary's own (personal vaults are created when first needed).
      expect(luminaryVaults.filter((v: { personal: boolean }) => v.personal).length).toBe(2);
      expect((await call('luminary', 'PATCH', `/vaults/${vault.id}`, { description: 'Quarterly' })).json().vault.description).toBe('Quarterly');
    });

    it('membership gives access: view sees, only manage changes; removing a member hides the vault again', async () => {
      const vault = (await call('editor', 'POST', '/vaults', { name: 'Sales' })).json().vault;
      const added = await call('editor', 'PUT', `/vaults/${vault.id}/members/${ws.members.viewer.id}`, { access: 'view' });
      expect(added.statusCode).toBe(200);
      expect(added.json().members).toEqual(
        expect.arrayContaining([
          { user_id: ws.members.viewer.id, email: ws.members.viewer.email, name: 'viewer', access: 'view' },
          expect.objectContaining({ user_id: ws.members.editor.id, access: 'manage' }),
        ]),
      );
      expect((await call('viewer', 'GET', '/vaults')).json().vaults).toContainEqual(expect.objectContaining({ id: vault.id, access: 'view' }));
      const rename = await call('viewer', 'PATCH', `/vaults/${vault.id}`, { name: 'Hijacked' });
      expect([rename.statusCode, rename.json().code]).toEqual([403, 'vault_access_required']);
      // A viewer's role caps a membership: even `manage` lets them only read.
      await call('editor', 'PUT', `/vaults/${vault.id}/members/${ws.members.viewer.id}`, { access: 'manage' });
      expect((await call('viewer', 'GET', '/vaults')).json().vaults).toContainEqual(expect.objectContaining({ id: vault.id, access: 'view' }));

      expect((await call('editor', 'DELETE', `/vaults/${vault.id}/members/${ws.members.viewer.id}`)).statusCode).toBe(204);
      expect((await call('viewer', 'GET', `/vaults/${vault.id}/members`)).statusCode).toBe(404);
      expect((await call('editor', 'DELETE', `/vaults/${vault.id}/members/${ws.members.viewer.id}`)).json().code).toBe('unknown_user');
      expect((await call('editor', 'DELETE', `/vaults/${vault.id}`)).statusCode).toBe(204);
      expect((await call('editor', 'GET', `/vaults/${vault.id}/members`)).statusCode).toBe(404);
    });

    it("offers a vault's managers the workspace's members to add, by id, name and e-mail only, and no one else", async () => {
      const vault = (await call('editor', 'POST', '/vaults', { name: 'Choices' })).json().vault;
      const choices = await call('editor', 'GET', `/vaults/${vault.id}/member-choices`);
      expect(choices.statusCode).toBe(200);
      // Seeded members are named by their role.
      const seeded = Object.values(ws.members).map((m) => ({ id: m.id, name: m.role, email: m.email }));
      const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
      expect([...choices.json().members].sort(byEmail)).toEqual(seeded.sort(byEmail));
      // A member who only views the vault, a stranger to it, and another workspace's luminary: none may list them.
      await call('editor', 'PUT', `/vaults/${vault.id}/members/${ws.members.viewer.id}`, { access: 'view' });
      const viewing = await call('viewer', 'GET', `/vaults/${vault.id}/member-choices`);
      expect([viewing.statusCode, viewing.json().code]).toEqual([403, 'vault_access_required']);
      const stranger = await call('otherLuminary', 'GET', `/vaults/${vault.id}/member-choices`);
      expect([stranger.statusCode, stranger.json().code]).toEqual([404, 'unknown_vault']);
      const personal = (await call('editor', 'GET', '/vaults')).json().vaults.find((v: { personal: boolean }) => v.personal);
      const refused = await call('editor', 'GET', `/vaults/${personal.id}/member-choices`);
      expect([refused.statusCode, refused.json().code]).toEqual([400, 'personal_vault']);
    });

    it('answers every bad input with a 4xx and {"error"}', async () => {
      const vault = (await call('editor', 'POST', '/vaults', { name: 'Ops' })).json().vault;
      const cases: Array<[string, Method, string, object | undefined, number]> = [
        ['editor', 'POST', '/vaults', { name: '' }, 400],
        ['editor', 'POST', '/vaults', { name: 'x', colour: 'red' }, 400],
        ['viewer', 'POST', '/vaults', { name: 'Viewer vault' }, 403],
        ['editor', 'PATCH', '/vaults/not-a-uuid', { name: 'x' }, 400],
        ['editor', 'PUT', `/vaults/${vault.id}/members/${ws.members.viewer.id}`, { access: 'owner' }, 400],
        ['editor', 'PUT', `/vaults/${vault.id}/members/${other.members.viewer.id}`, { access: 'view' }, 404],
        ['editor', 'DELETE', `/vaults/${vault.id}?force=maybe`, undefined, 400],
      ];
      for (const [who, method, url, payload, status] of cases) {
        const response = await call(who, method, url, payload);
        expect([method, url, response.statusCode, typeof response.json().error]).toEqual([method, url, status, 'string']);
      }
    });
  });
}

vaultSuite('PGlite', async () => ({ t: await startTestApp() }));

const postgres = await hasService('postgres');
if (postgres) {
  vaultSuite('PostgreSQL', async () => {
    const db = await createTestDatabase();
    return { t: await startTestApp({ databaseUrl: db.url }), drop: db.drop };
  });
}
