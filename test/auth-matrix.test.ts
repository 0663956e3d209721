// Every way a key can be wrong, on a route of each key surface, against the real guard and store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeySurface } from '../src/store/schema.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { PROBES } from './helpers/probe-routes.js';

let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;

beforeAll(async () => {
  // TRUST_PROXY lets these in-process requests count as HTTPS through X-Forwarded-Proto (surface B).
  t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
});
afterAll(() => t.close());

const HTTPS = { 'x-forwarded-proto': 'https' };
const SURFACES: Array<{ surface: KeySurface; url: string; example: RegExp }> = [
  { surface: 'question', url: PROBES.question, example: /question key \(svc_sk_…\)/ },
  { surface: 'workspace', url: PROBES.workspace, example: /workspace key \(svc_ followed by 64 hex characters\)/ },
  { surface: 'structured', url: PROBES.structured, example: /structured API key \(svc_api_…\)/ },
];
const MALFORMED: Record<KeySurface, string> = {
  question: 'svc_sk_not-a-real-key',
  workspace: `svc_${'g'.repeat(64)}`,
  structured: 'svc_api_123',
};

function get(url: string, authorization?: string) {
  return t.app.inject({ method: 'GET', url, headers: { ...HTTPS, ...(authorization ? { authorization } : {}) } });
}

describe.each(SURFACES)('$surface surface', ({ surface, url, example }) => {
  it('accepts its own active key and acts for the key user in the key workspace', async () => {
    const key = await createKey(t.services, ws, 'luminary', surface);
    const response = await get(url, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ workspace_id: ws.id, user_id: ws.members.luminary.id });
  });

  it('401 without an Authorization header, naming the expected key', async () => {
    const response = await get(url);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('missing_key');
    expect(response.json().error).toMatch(example);
  });

  it('401 when the scheme is not Bearer', async () => {
    const key = await createKey(t.services, ws, 'luminary', surface);
    const response = await get(url, `Basic ${key.value}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'invalid_auth_scheme' });
  });

  it('401 for a malformed key', async () => {
    const response = await get(url, `Bearer ${MALFORMED[surface]}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('malformed_key');
    expect(response.json().error).toMatch(example);
  });

  it('401 for a well-formed key that does not exist, without saying which part was wrong', async () => {
    const key = await createKey(t.services, ws, 'luminary', surface);
    const forged = key.value.slice(0, -4) + (key.value.endsWith('0000') ? '1111' : '0000');
    const response = await get(url, `Bearer ${forged}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Invalid API key', code: 'invalid_key' });
  });

  it("401 for another surface's key, naming both kinds", async () => {
    for (const wrong of SURFACES.filter((s) => s.surface !== surface)) {
      const key = await createKey(t.services, ws, 'luminary', wrong.surface);
      const response = await get(url, `Bearer ${key.value}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('wrong_key_type');
      expect(response.json().error).toMatch(example);
    }
  });

  it('401 for a revoked key, from the very next request', async () => {
    const key = await createKey(t.services, ws, 'luminary', surface);
    expect((await get(url, `Bearer ${key.value}`)).statusCode).toBe(200); // now cached
    await t.services.keys.revoke({ workspace: ws, user: { id: ws.members.luminary.id }, role: 'luminary' }, key.id);
    const response = await get(url, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'This API key has been revoked', code: 'key_revoked' });
  });

  it('401 for an expired key, as soon as its time has come', async () => {
    const key = await createKey(t.services, ws, 'luminary', surface, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    expect((await get(url, `Bearer ${key.value}`)).statusCode).toBe(200);
    t.clock.advance(60_001);
    const response = await get(url, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'This API key has expired', code: 'key_expired' });
  });

  it("a key of another workspace sees only that workspace", async () => {
    const key = await createKey(t.services, other, 'luminary', surface);
    const response = await get(url, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().workspace_id).toBe(other.id);
    expect(response.json().workspace_id).not.toBe(ws.id);
  });
});

describe('authorization after authentication', () => {
  it('403 on surface B when the workspace plan lacks API access', async () => {
    const free = await seedWorkspace(t.services, 'team');
    const key = await createKey(t.services, free, 'luminary', 'workspace');
    await t.store.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', free.id).execute();
    await t.services.shared.bump('identity'); // what the plan-change service will do
    const response = await get(PROBES.workspace, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'API access requires the Team plan', code: 'plan_required' });
  });

  it('403 on surface C when the key lacks the scope, naming it', async () => {
    const key = await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['models:read'] });
    const response = await get(PROBES.structured, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'This key lacks the query scope', code: 'scope_required' });
  });

  it("403 when the key user's role is below the route's", async () => {
    // An editor may hold query scope but not users:read; a luminary-only route refuses the editor.
    const key = await createKey(t.services, ws, 'editor', 'structured', { scopes: ['query'] });
    const response = await get(PROBES.structuredUsers, `Bearer ${key.value}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('role_required');
  });

  it('a key follows its user: a role change applies to the next request', async () => {
    const lum = await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'users:read'] });
    expect((await get(PROBES.structuredUsers, `Bearer ${lum.value}`)).statusCode).toBe(200);
    await t.services.members.setRole(ws.id, ws.members.luminary.id, 'editor');
    await t.services.shared.bump('identity');
    expect((await get(PROBES.structuredUsers, `Bearer ${lum.value}`)).statusCode).toBe(403);
    await t.services.members.setRole(ws.id, ws.members.luminary.id, 'luminary');
    await t.services.shared.bump('identity');
  });

  it('records last use without a write per request, and shows it in the key list', async () => {
    const key = await createKey(t.services, ws, 'viewer', 'question');
    await get(PROBES.question, `Bearer ${key.value}`);
    const actor = { workspace: ws, user: { id: ws.members.viewer.id }, role: 'viewer' as const };
    const listed = (await t.services.keys.list(actor)).find((k) => k.id === key.id)!;
    expect(listed.last_used_at).not.toBeNull();
    const before = await t.store.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(before.last_used_at).toBeNull(); // not written yet: batched
    await t.services.lastUsed.flush();
    const after = await t.store.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(after.last_used_at?.toISOString()).toBe(listed.last_used_at);
  });
});

describe('key cache', () => {
  it('re-reads a key at least every 10 s even when no generation change was seen', async () => {
    // What another instance without Redis relies on: a revocation it could not be told about.
    const key = await createKey(t.services, ws, 'luminary', 'question');
    expect((await get(PROBES.question, `Bearer ${key.value}`)).statusCode).toBe(200);
    await t.store.db.updateTable('api_keys').set({ revoked_at: t.clock.now() }).where('id', '=', key.id).execute();
    expect((await get(PROBES.question, `Bearer ${key.value}`)).statusCode).toBe(200); // still cached
    t.clock.advance(10_000);
    expect((await get(PROBES.question, `Bearer ${key.value}`)).statusCode).toBe(401);
  });
});

describe('studio surface (D): console session, tracer role or above', () => {
  const studio = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: PROBES.studio, headers });

  it('401 without a session, and for any API key', async () => {
    expect((await studio({})).statusCode).toBe(401);
    const key = await createKey(t.services, ws, 'luminary', 'question');
    const withKey = await studio({ authorization: `Bearer ${key.value}` });
    expect(withKey.statusCode).toBe(401);
    expect(withKey.json().code).toBe('session_required');
    expect((await studio({ cookie: 'svc_session=forged' })).statusCode).toBe(401);
  });

  it('403 for a viewer, naming the role needed; 200 for tracer and above in their own workspace', async () => {
    const viewer = await studio({ cookie: await signIn(t.app, ws.members.viewer.email) });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ error: 'This action needs the tracer role or above; yours is viewer', code: 'role_required' });
    for (const role of ['tracer', 'editor', 'luminary'] as const) {
      const response = await studio({ cookie: await signIn(t.app, ws.members[role].email) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ workspace_id: ws.id, user_id: ws.members[role].id });
    }
    const elsewhere = await studio({ cookie: await signIn(t.app, other.members.tracer.email) });
    expect(elsewhere.json().workspace_id).toBe(other.id);
  });
});
