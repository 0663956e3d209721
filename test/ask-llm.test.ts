// POST /api/v1/ask with a language model configured: a real OpenAI-protocol server on loopback plans
// the question; the service reports its token usage and still answers from the warehouse, in English.
// When the server fails, the offline planner answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './helpers/fake-openai-server.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-llm-'));
let t: TestApp;
let llm: FakeOpenAiServer;
let key: string;

beforeAll(async () => {
  llm = await startFakeOpenAiServer();
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_LLM_BASE_URL: llm.baseUrl, SVC_LLM_MODEL: 'local-model' } });
  const ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1000 });
  key = (await createKey(t.services, ws, 'luminary', 'question')).value;
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ask = (question: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question } });

describe('with a language model', () => {
  it("uses the model's plan, counts its tokens, and takes the numbers from the warehouse", async () => {
    llm.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'] } });
    const body = (await ask('chiffre d’affaires par canal le mois dernier')).json();
    expect(body.usage.tokens_used).toBeGreaterThan(0);
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', reveal_backed: true });
    expect(body.data.columns).toEqual(['channel', 'revenue']);
    expect(body.answer).toMatch(/^Revenue for last month .* By channel: /);
    const sent = JSON.stringify(llm.requests.at(-1)!.body);
    expect(sent).toContain('local-model');
    expect(sent).not.toContain('business_share'); // only retrieved candidates, never the whole catalog
  });

  it('falls back to the offline planner when the server fails, and still answers', async () => {
    llm.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const body = (await ask('revenue last week')).json();
    expect(body.provenance).toMatchObject({ reveal: 'sales', reveal_backed: true });
    expect(body.usage.tokens_used).toBe(0);
    expect(body.data.period).toBe('last_week');
  });
});
