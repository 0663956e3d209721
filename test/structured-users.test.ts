// Users on surface C (/v1/users): listing and reading the key's workspace, merging attributes, who may
// do it, workspace isolation, validation, and attributes reaching the member's next request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_GENERATION } from '../src/identity/generations.js';
import { hashToken } from '../src/identity/tokens.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { PROBES } from './helpers/probe-routes.js';
import { createTestDatabase, hasService } from './helpers/services.js';

let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
/** A luminary's key with both user scopes. */
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  admin = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['users:read', 'users:write'] })).value;
});
afterAll(() => t.close());

function get(url: string, key?: string) {
  return t.app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

function patch(userId: string, payload: unknown, key = admin) {
  return t.app.inject({
    method: 'PATCH',
    url: `/v1/users/${userId}/attributes`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

/** The attributes as stored, read around the API. */
async function storedAttributes(workspaceId: string, userId: string) {
  return (await t.services.members.getMember(workspaceId, userId))?.attributes;
}

describe('reading users', () => {
  it("lists the key's workspace, every role, sorted by e-mail, and no one else", async () => {
    const response = await get('/v1/users', admin);
    expect(response.statusCode).toBe(200);
    const { users } = response.json();
    const emails = users.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(users).toHaveLength(4);
    for (const member of Object.values(ws.members)) {
      expect(users).toContainEqual({
        id: member.id,
        email: member.email,
        name: member.role,
        role: member.role,
        attributes: expect.any(Object),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
    const ids = users.map((u: { id: string }) => u.id);
    for (const member of Object.values(other.members)) expect(ids).not.toContain(member.id);
  });

  it('reads one user, as listed', async () => {
    const listed = (await get('/v1/users', admin)).json().users.find((u: { id: string }) => u.id === ws.members.editor.id);
    const response = await get(`/v1/users/${ws.members.editor.id}`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: listed });
  });

  it('is described in /openapi.json', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/users', '/v1/users/{user_id}', '/v1/users/{user_id}/attributes']));
    expect(doc.paths['/v1/users/{user_id}/attributes'].patch.tags).toEqual(['C. structured']);
  });
});

describe('patching attributes', () => {
  it('merges, removes an attribute given null, and keeps the rest', async () => {
    const id = ws.members.viewer.id;
    const first = await patch(id, { region: 'emea', team: 'growth' });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ id, role: 'viewer', attributes: { region: 'emea', team: 'growth' } });

    const second = await patch(id, { team: null, tier: 'gold' });
    expect(second.statusCode).toBe(200);
    expect(second.json().user.attributes).toEqual({ region: 'emea', tier: 'gold' });
    expect((await get(`/v1/users/${id}`, admin)).json().user.attributes).toEqual({ region: 'emea', tier: 'gold' });
    expect(await storedAttributes(ws.id, id)).toEqual({ region: 'emea', tier: 'gold' });
  });

  it('is idempotent: the same patch twice gives the same answer, and removing a missing attribute is harmless', async () => {
    const id = ws.members.tracer.id;
    const body = { country: 'FR', gone: null };
    const once = await patch(id, body);
    const twice = await patch(id, body);
    expect(once.statusCode).toBe(200);
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual(once.json());
    expect(twice.json().user.attributes).toEqual({ country: 'FR' });
  });

  it('an empty object changes nothing', async () => {
    const id = ws.members.tracer.id;
    const before = await storedAttributes(ws.id, id);
    const response = await patch(id, {});
    expect(response.statusCode).toBe(200);
    expect(response.json().user.attributes).toEqual(before);
  });

  it('accepts the limits exactly: 100 attributes, 64-character names, 1,000-character values', async () => {
    const limits = await seedWorkspace(t.services);
    const key = (await createKey(t.services, limits, 'luminary', 'structured', { scopes: ['users:write'] })).value;
    const body = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${'n'.repeat(60)}${String(i).padStart(4, '0')}`, 'v'.repeat(1000)]));
    const response = await patch(limits.members.viewer.id, body, key);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.attributes).toEqual(body);
  });

  it('concurrent patches of different attributes all survive', async () => {
    const id = ws.members.editor.id;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => patch(id, { [`k${i}`]: `v${i}` })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const expected = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, `v${i}`]));
    expect(await storedAttributes(ws.id, id)).toEqual(expect.objectContaining(expected));
  });

  it("reaches the member's own key on its very next request", async () => {
    const member = await seedWorkspace(t.services);
    const lum = (await createKey(t.services, member, 'luminary', 'structured', { scopes: ['users:write'] })).value;
    const own = (await createKey(t.services, member, 'viewer', 'structured')).value;
    // Use the key first, so that its principal, attributes included, is cached.
    expect((await get(PROBES.structured, own)).statusCode).toBe(200);
    const before = await t.services.keyResolver.resolve(hashToken(own));
    expect(before.status === 'active' && before.principal.attributes).toEqual({});

    expect((await patch(member.members.viewer.id, { region: 'apac' }, lum)).statusCode).toBe(200);
    const after = await t.services.keyResolver.resolve(hashToken(own));
    expect(after.status === 'active' && after.principal.attributes).toEqual({ region: 'apac' });

    expect((await patch(member.members.viewer.id, { region: null }, lum)).statusCode).toBe(200);
    const removed = await t.services.keyResolver.resolve(hashToken(own));
    expect(removed.status === 'active' && removed.principal.attributes).toEqual({});
  });
});

describe('who may call', () => {
  const routes = () => [
    { method: 'GET' as const, url: '/v1/users' },
    { method: 'GET' as const, url: `/v1/users/${ws.members.viewer.id}` },
    { method: 'PATCH' as const, url: `/v1/users/${ws.members.viewer.id}/attributes`, payload: { a: 'b' } },
  ];

  it('401 without a key, with a question key, with a workspace key', async () => {
    const question = (await createKey(t.services, ws, 'luminary', 'question')).value;
    const workspace = (await createKey(t.services, ws, 'luminary', 'workspace')).value;
    for (const route of routes()) {
      for (const [authorization, code] of [
        [undefined, 'missing_key'],
        [`Bearer ${question}`, 'wrong_key_type'],
        [`Bearer ${workspace}`, 'wrong_key_type'],
      ] as const) {
        const response = await t.app.inject({ ...route, headers: authorization ? { authorization } : {} });
        expect(response.statusCode, `${route.method} ${route.url} ${code}`).toBe(401);
        expect(response.json().code).toBe(code);
      }
    }
    expect(await storedAttributes(ws.id, ws.members.viewer.id)).not.toHaveProperty('a');
  });

  it('403 for a luminary key without the user scopes', async () => {
    const queryOnly = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query'] })).value;
    for (const route of routes()) {
      const response = await t.app.inject({ ...route, headers: { authorization: `Bearer ${queryOnly}` } });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().code).toBe('scope_required');
    }
  });

  it('403 for a write with only users:read', async () => {
    const reader = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['users:read'] })).value;
    expect((await get('/v1/users', reader)).statusCode).toBe(200);
    const response = await patch(ws.members.viewer.id, { a: 'b' }, reader);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'scope_required', error: 'This key lacks the users:write scope' });
    expect(await storedAttributes(ws.id, ws.members.viewer.id)).not.toHaveProperty('a');
  });

  it('403 from the next request on once the key user is no longer a luminary', async () => {
    const demoted = await seedWorkspace(t.services);
    const key = (await createKey(t.services, demoted, 'luminary', 'structured', { scopes: ['users:read', 'users:write'] })).value;
    expect((await get('/v1/users', key)).statusCode).toBe(200);

    await t.services.members.setRole(demoted.id, demoted.members.luminary.id, 'editor');
    await t.services.shared.bump(IDENTITY_GENERATION);

    const read = await get('/v1/users', key);
    expect(read.statusCode).toBe(403);
    expect(read.json().code).toBe('role_required');
    expect((await patch(demoted.members.viewer.id, { a: 'b' }, key)).statusCode).toBe(403);
  });
});

describe('404 without revealing anything', () => {
  it('for an unknown id, a non-UUID and a user of another workspace, reading or patching', async () => {
    const foreign = other.members.viewer.id;
    for (const id of [randomUUID(), 'not-a-uuid', foreign]) {
      const read = await get(`/v1/users/${id}`, admin);
      expect(read.statusCode, id).toBe(404);
      expect(read.json().code).toBe('unknown_user');
      const write = await patch(id, { stolen: 'yes' });
      expect(write.statusCode, id).toBe(404);
      expect(write.json()).toEqual(read.json());
    }
    expect(await storedAttributes(other.id, foreign)).toEqual({});
  });

  it('for an empty patch of a user of another workspace too', async () => {
    expect((await patch(other.members.editor.id, {})).statusCode).toBe(404);
  });
});

describe('validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['a name with a space', { 'bad key': 'x' }, /invalid attribute name "bad key"/],
    ['an empty name', { '': 'x' }, /invalid attribute name ""/],
    ['a 65-character name', { ['n'.repeat(65)]: 'x' }, new RegExp(`invalid attribute name "${'n'.repeat(65)}"`)],
    ['a name with a slash', { 'a/b': 'x' }, /invalid attribute name "a\/b"/],
    ['a number', { level: 5 }, /body\.level: an attribute value must be a string/],
    ['a boolean', { admin: true }, /body\.admin: an attribute value must be a string/],
    ['an object', { nested: { a: 'b' } }, /body\.nested: an attribute value must be a string/],
    ['a list', { tags: ['a'] }, /body\.tags: an attribute value must be a string/],
    ['a 1,001-character value', { long: 'x'.repeat(1001) }, /body\.long: an attribute value has at most 1000 characters/],
    ['101 attributes', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])), /at most 100 attributes/],
    ['an array', [['a', 'b']], /body: .*expected record/],
    ['a string', 'region=emea', /body: .*expected record/],
    ['null', null, /body: .*expected record/],
  ])('400 for %s, naming it, and nothing changes', async (_case, body, message) => {
    const id = ws.members.luminary.id;
    const before = await storedAttributes(ws.id, id);
    const response = await patch(id, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_request');
    expect(response.json().error).toMatch(message);
    expect(await storedAttributes(ws.id, id)).toEqual(before);
  });

  it('400 without a body', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v1/users/${ws.members.luminary.id}/attributes`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.statusCode).toBe(400);
  });
});

// PGlite runs one statement at a time; on PostgreSQL the patches really race on separate connections.
describe.skipIf(!(await hasService('postgres')))('on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pgApp: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    pgApp = await startTestApp({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await pgApp?.close();
    await db?.drop();
  });

  it('concurrent patches of different attributes all survive, and nulls remove', async () => {
    const seeded = await seedWorkspace(pgApp.services);
    const key = (await createKey(pgApp.services, seeded, 'luminary', 'structured', { scopes: ['users:write'] })).value;
    const id = seeded.members.viewer.id;
    const send = (payload: object) =>
      pgApp.app.inject({
        method: 'PATCH',
        url: `/v1/users/${id}/attributes`,
        headers: { authorization: `Bearer ${key}` },
        payload,
      });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send({ [`k${i}`]: `v${i}`, shared: null })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const expected = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `v${i}`]));
    expect((await pgApp.services.members.getMember(seeded.id, id))?.attributes).toEqual(expected);
  });
});
