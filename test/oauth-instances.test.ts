// OAuth revocation holds on every instance at the next call: two instances over one PostgreSQL store
// and Redis, each keeping what it resolved of a token in memory (as for API keys), both refusing the
// token on the very next call after a revocation made through the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCall, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { listen, refresh, tokensFor, registeredClient } from './helpers/oauth-flow.js';
import { createTestDatabase, hasService, REDIS_URL } from './helpers/services.js';

const shared = (await hasService('redis')) && (await hasService('postgres'));

describe.skipIf(!shared)('OAuth tokens on two instances over one PostgreSQL store and Redis', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let base: string;
  let ws: SeededWorkspace;
  let viewer: string;
  let agent: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    one = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL });
    two = await startTestApp({ databaseUrl: db.url, redisUrl: REDIS_URL });
    base = await listen(one);
    ws = await seedWorkspace(one.services);
    viewer = await signIn(one.app, ws.members.viewer.email);
    agent = await registeredClient(base);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  const onTwo = (token: string) => two.services.oauth.access.resolveAccessToken(token, { resource: `${base}/mcp` });

  it('a revocation in the console on one instance is seen by the other at its next call', async () => {
    const tokens = await tokensFor(base, viewer, ['query'], agent);
    const first = await onTwo(tokens.access_token);
    if (first.status !== 'active') throw new Error(first.status);
    // Now cached on two, for seconds: only the generation the revocation moves in Redis can end it sooner.
    expect((await consoleCall(one, viewer, 'POST', `/api/oauth/grants/${first.grantId}/revoke`)).statusCode).toBe(200);
    expect((await onTwo(tokens.access_token)).status).toBe('revoked');
  });

  it('a refresh token replayed on one instance revokes the grant for the other too', async () => {
    const tokens = await tokensFor(base, viewer, ['query'], agent);
    const rotated = (await (await refresh(base, agent, tokens.refresh_token)).json()) as { access_token: string };
    expect((await onTwo(rotated.access_token)).status).toBe('active');
    expect((await refresh(base, agent, tokens.refresh_token)).status).toBe(400);
    expect((await onTwo(rotated.access_token)).status).toBe('revoked');
  });

  it("a lowered role narrows a token's scopes on the other instance at once", async () => {
    const editor = await signIn(one.app, ws.members.editor.email);
    const tokens = await tokensFor(base, editor, ['query', 'content:write'], agent);
    expect(await onTwo(tokens.access_token)).toMatchObject({ status: 'active', scopes: ['query', 'content:write'] });
    await one.services.tenancy.setRole(ws.id, ws.members.editor.id, 'viewer');
    expect(await onTwo(tokens.access_token)).toMatchObject({ status: 'active', scopes: ['query'] });
  });
});
