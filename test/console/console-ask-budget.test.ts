// POST /api/ask spends the signed-in user's own hourly budget of questions in the workspace (100, as a
// question key's), so a session never asks without limit; the console's other routes spend none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, createKey, PASSWORD, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

const HOUR = 3_600_000;
let t: TestApp;
let ws: SeededWorkspace;

beforeAll(async () => {
  t = await startTestApp();
  ws = await seedWorkspace(t.services);
}, 60_000);
afterAll(async () => t.close());

const ask = (cookie: string) => consoleRequest(t.app, cookie, 'POST', '/api/ask', { question: 'revenue last week' });

describe('the console question budget', () => {
  it('429 after 100 questions in the clock hour for one user; other users, keys and routes are not spent; the next hour starts afresh', async () => {
    t.clock.advance(HOUR - (t.clock.now().getTime() % HOUR) + 5);
    const viewer = await signIn(t.app, ws.members.viewer.email);
    const editor = await signIn(t.app, ws.members.editor.email);

    for (let i = 0; i < 100; i++) {
      const response = await ask(viewer);
      expect(response.statusCode).toBe(200);
      if (i === 0) expect([response.headers['x-ratelimit-limit'], response.headers['x-ratelimit-remaining']]).toEqual(['100', '99']);
    }
    const limited = await ask(viewer);
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'rate_limited']);
    expect(limited.json().error).toMatch(/100 questions per hour for you in this workspace/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // A second session of the same user shares the budget: it is the user's, not the session's.
    const again = await signIn(t.app, ws.members.viewer.email);
    expect((await ask(again)).statusCode).toBe(429);
    // Another user of the workspace, the same user's question key, and the catalog are not spent.
    expect((await ask(editor)).statusCode).toBe(200);
    const key = (await createKey(t.services, ws, 'viewer', 'question')).value;
    const keyed = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question: 'revenue last week' } });
    expect(keyed.statusCode).toBe(200);
    const catalog = await t.app.inject({ method: 'GET', url: '/api/reveals', headers: { cookie: viewer } });
    expect([catalog.statusCode, catalog.headers['x-ratelimit-limit']]).toEqual([200, undefined]);

    t.clock.advance(HOUR);
    expect((await ask(viewer)).statusCode).toBe(200);
  });

  it('a user in two workspaces has a budget in each', async () => {
    const second = await seedWorkspace(t.services);
    await t.services.members.addMembership({ workspaceId: second.id, userId: ws.members.tracer.id, role: 'viewer' });
    t.clock.advance(HOUR - (t.clock.now().getTime() % HOUR) + 5);
    const signInTo = async (workspaceId: string) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ws.members.tracer.email, password: PASSWORD, workspace_id: workspaceId } });
      expect(response.json().workspace.id).toBe(workspaceId);
      return `svc_session=${response.cookies.find((c) => c.name === 'svc_session')!.value}`;
    };
    const first = await signInTo(ws.id);
    for (let i = 0; i < 100; i++) expect((await ask(first)).statusCode).toBe(200);
    expect((await ask(first)).statusCode).toBe(429);
    expect((await ask(await signInTo(second.id))).statusCode).toBe(200);
  });
});
