// Every governed run goes through one pipeline and is recorded in the query history with its surface
// and origin: structured queries (C), the editor's CML builder (D) and questions (A). A luminary sees
// the workspace's runs with who ran them; nobody else does, and no workspace sees another's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-gh-'));
let t: TestApp;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let luminary: string;

interface Run {
  surface: string;
  origin: string;
  sql: string;
  status: string;
  user_email: string | null;
  duration_ms: number | null;
  row_count: number | null;
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  other = await seedWorkspace(t.services);
  for (const w of [ws, other]) {
    const lum = w.members.luminary;
    await setUpDemo(t.services, { workspaceId: w.id, userId: lum.id, email: lum.email }, { orders: 500 });
  }
  luminary = await signIn(t.app, ws.members.luminary.email);
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });

async function workspaceRuns(query = '', cookie = luminary): Promise<Run[]> {
  const response = await call('GET', `/api/history${query}`, { cookie });
  expect(response.statusCode).toBe(200);
  return response.json().runs;
}

describe('one governed pipeline, recorded', () => {
  it('a structured query is recorded once per warehouse run (surface structured_api, origin structured), not on a cache hit', async () => {
    const key = (await createKey(t.services, ws, 'editor', 'structured', { scopes: ['query'] })).value;
    const query = { node: 'orders', dimensions: ['status'], measures: ['order_count'] };
    const first = await call('POST', '/v1/query', { authorization: `Bearer ${key}` }, query);
    expect([first.statusCode, first.headers['x-cache']]).toEqual([200, 'miss']);
    const second = await call('POST', '/v1/query', { authorization: `Bearer ${key}` }, query);
    expect([second.statusCode, second.headers['x-cache'], second.json().metadata.cached]).toEqual([200, 'hit', true]);
    const bypass = await call('POST', '/v1/query', { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' }, query);
    expect([bypass.statusCode, bypass.headers['x-cache'], bypass.json().metadata.cached]).toEqual([200, 'bypass', false]);

    const runs = (await workspaceRuns('?origin=structured')).filter((r) => r.sql === first.json().sql);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run).toMatchObject({ surface: 'structured_api', origin: 'structured', status: 'success', user_email: ws.members.editor.email, row_count: first.json().data.length });
      expect(run.duration_ms).toEqual(expect.any(Number));
    }
  });

  it("the editor's CML builder is recorded as origin cml, in the editor's own history and the workspace's", async () => {
    const tracer = await signIn(t.app, ws.members.tracer.email);
    const ran = await call('POST', '/api/studio/query/cml', { cookie: tracer }, { reveal: 'sales', measures: ['orders'] });
    expect(ran.statusCode).toBe(200);
    const mine = (await call('GET', '/api/studio/history', { cookie: tracer })).json().runs;
    expect(mine[0]).toMatchObject({ surface: 'studio_cml', origin: 'cml', status: 'success', sql: ran.json().sql });
    const all = await workspaceRuns(`?user_id=${ws.members.tracer.id}`);
    expect(all[0]).toMatchObject({ origin: 'cml', user_email: ws.members.tracer.email });
  });

  it('a governed answer records its queries as origin question on the question surface', async () => {
    const key = (await createKey(t.services, ws, 'viewer', 'question')).value;
    const response = await call('POST', '/api/v1/ask', { authorization: `Bearer ${key}` }, { question: 'revenue by channel last month' });
    expect(response.statusCode).toBe(200);
    expect(response.json().provenance.reveal_backed).toBe(true);
    const runs = await workspaceRuns('?surface=question_api');
    expect(runs.length).toBeGreaterThanOrEqual(2); // the headline and the breakdown
    expect(runs.slice(0, 2).every((r) => r.origin === 'question' && r.status === 'success' && r.user_email === ws.members.viewer.email)).toBe(true);
  });
});

describe('the workspace history', () => {
  it('is for luminaries only, and never shows another workspace', async () => {
    for (const role of ['viewer', 'tracer', 'editor'] as const) {
      const cookie = await signIn(t.app, ws.members[role].email);
      const refused = await call('GET', '/api/history', { cookie });
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'role_required']);
    }
    const key = (await createKey(t.services, ws, 'luminary', 'structured')).value;
    expect((await call('GET', '/api/history', { authorization: `Bearer ${key}` })).statusCode).toBe(401);

    const theirs = await signIn(t.app, other.members.luminary.email);
    const otherKey = (await createKey(t.services, other, 'luminary', 'structured', { scopes: ['query'] })).value;
    expect((await call('POST', '/v1/query', { authorization: `Bearer ${otherKey}` }, { node: 'orders', measures: ['order_count'] })).statusCode).toBe(200);
    const emails = new Set((await workspaceRuns('?limit=200', theirs)).map((r) => r.user_email));
    expect([...emails]).toEqual([other.members.luminary.email]);
    const ours = new Set((await workspaceRuns('?limit=200')).map((r) => r.user_email));
    expect(ours.has(other.members.luminary.email)).toBe(false);
  });

  it('filters by origin kind, pages without repeats, and refuses bad filters with 400', async () => {
    const kinds = await workspaceRuns('?origin=question:');
    expect(kinds).toEqual([]); // no origin starts with "question:" (the SQL fallback is question_sql)
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call('GET', `/api/history?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { cookie: luminary });
      const body = response.json() as { runs: Array<{ id: string }>; next_cursor: string | null };
      for (const run of body.runs) {
        expect(seen.has(run.id)).toBe(false);
        seen.add(run.id);
      }
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    expect(seen.size).toBe((await workspaceRuns('?limit=200')).length);
    for (const bad of ['?surface=nope', '?user_id=not-a-uuid', '?cursor=garbage', '?limit=0', '?extra=1']) {
      const response = await call('GET', `/api/history${bad}`, { cookie: luminary });
      expect([bad, response.statusCode, typeof response.json().error]).toEqual([bad, 400, 'string']);
    }
  });
});
