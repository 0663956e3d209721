// POST /api/v1/ask with a language model configured: a real OpenAI-protocol server on loopback plans
// the question, may word the answer and may write the raw-SQL fallback; the service reports its token
// usage and still answers from the warehouse, in English. When the server fails, the offline planner,
// the templated prose or the honest "no governed match" answers instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRANSLATION_PROMPT_START } from '../src/core/answer/llm-translate.js';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './helpers/fake-openai-server.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-llm-'));
let t: TestApp;
let llm: FakeOpenAiServer;
let key: string;
let tracerKey: string;
let tracerId: string;
let viewerKey: string;
let workspaceId: string;
const notes: string[] = [];

beforeAll(async () => {
  llm = await startFakeOpenAiServer();
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_LLM_BASE_URL: llm.baseUrl, SVC_LLM_MODEL: 'local-model' }, onNote: (note) => notes.push(note) });
  const ws = await seedWorkspace(t.services);
  workspaceId = ws.id;
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1000 });
  key = (await createKey(t.services, ws, 'luminary', 'question')).value;
  tracerKey = (await createKey(t.services, ws, 'tracer', 'question')).value;
  tracerId = ws.members.tracer.id;
  viewerKey = (await createKey(t.services, ws, 'viewer', 'question')).value;
}, 60_000);
afterEach(() => {
  llm.requests.length = 0;
  llm.refuse = {};
  notes.length = 0;
});
afterAll(async () => {
  await t.close();
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ask = (question: string, as = key) => t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${as}` }, payload: { question } });

/** What each request to the model was for: translation, planning, prose, or the SQL fallback. */
const purposes = () =>
  llm.requests.map((r) => (r.raw.includes(TRANSLATION_PROMPT_START) ? 'translate' : r.raw.includes('plan_query') ? 'plan' : r.raw.includes('write_sql') ? 'sql' : 'prose'));

const REVENUE_BY_CHANNEL = { kind: 'object', value: { no_match: false, reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'] } } as const;

describe('with a language model', () => {
  it("uses the model's plan, counts its tokens, and takes the numbers from the warehouse", async () => {
    // A question in French is first translated by the model, then planned from the English.
    llm.script({ kind: 'content', text: 'revenue by channel last month' }, REVENUE_BY_CHANNEL, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const body = (await ask('chiffre d’affaires par canal le mois dernier')).json();
    expect(body.usage.tokens_used).toBeGreaterThan(0);
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', reveal_backed: true });
    expect(body.provenance.assumptions).toContainEqual({ code: 'question_translated', message: expect.stringContaining('revenue by channel last month') });
    expect(body.data.columns).toEqual(['channel', 'revenue']);
    expect(body.answer).toMatch(/^Revenue for last month .* By channel: /);
    expect(purposes().slice(0, 2)).toEqual(['translate', 'plan']);
    const sent = JSON.stringify(llm.requests[1]!.body);
    expect(sent).toContain('local-model');
    expect(sent).not.toContain('business_share'); // only retrieved candidates, never the whole catalog
  });

  it('falls back to the offline planner when the server fails, and still answers', async () => {
    llm.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const body = (await ask('revenue last week')).json();
    expect(body.provenance).toMatchObject({ reveal: 'sales', reveal_backed: true });
    expect(body.usage.tokens_used).toBe(0);
    expect(body.data.period).toBe('last_week');
  });

  it('plans through JSON-schema output when the server refuses tools (llama.cpp without --jinja)', async () => {
    llm.refuse = { tools: { status: 500, message: 'tools param requires --jinja flag' } };
    llm.script(REVENUE_BY_CHANNEL, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const body = (await ask('revenue by channel last month')).json();
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', confidence: 'high' });
    expect(body.data.columns).toEqual(['channel', 'revenue']);
    expect(llm.requests[1]!.body['response_format']).toMatchObject({ type: 'json_schema' });
    expect(notes.join('\n')).toMatch(/refused tools \(HTTP 500\)/);
  });
});

describe('provenance of what the model planned', () => {
  it('a metric the question does not name is still a governed answer, high, with the assumption stated', async () => {
    llm.script({ kind: 'object', value: { no_match: false, reveal: 'sales', metrics: ['revenue'] } }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const body = (await ask('how much was paid last week')).json();
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', reveal_backed: true, confidence: 'high' });
    expect(body.provenance.assumptions).toEqual([{ code: 'metric_matched_by_description', message: expect.stringMatching(/^"Revenue" was recognised only from its description/) }]);
  });

  it("the model's no-match is the one refusal shape: not reveal-backed, no value, medium", async () => {
    llm.script({ kind: 'object', value: { no_match: true, reason: 'Nothing governed counts parcels.' } });
    const body = (await ask('how many orders were lost', viewerKey)).json();
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
    expect(body.data).toEqual({ rows: [], columns: [] });
    expect(body.no_match.reason).toBe('Nothing governed counts parcels.');
  });
});

describe('prose written by the model', () => {
  /** The templated answer of the same question, from a run where the model writes no prose. */
  async function templated(question: string) {
    llm.script(REVENUE_BY_CHANNEL, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    return (await ask(question)).json();
  }

  it('is used when it is English and every number in it is in the rows', async () => {
    const reference = await templated('revenue by channel last month');
    const rows = reference.data.rows as Array<{ channel: string; revenue: number }>;
    const money = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    const prose = `Last month web brought in ${money(rows.find((r) => r.channel === 'web')!.revenue)}, out of ${money(reference.data.value)} in total.`;
    llm.requests.length = 0;
    llm.script(REVENUE_BY_CHANNEL, { kind: 'content', text: prose });
    const body = (await ask('revenue by channel last month')).json();
    expect(purposes()).toEqual(['plan', 'prose']);
    expect(body.answer).toBe(prose);
    expect(body.data.rows).toEqual(reference.data.rows);
    expect(body.usage.tokens_used).toBeGreaterThan(llm.requests[0]!.promptTokens + llm.requests[1]!.promptTokens);
    // The model saw the facts it may use: the templated sentence and the rows, formatted.
    expect(llm.requests[1]!.raw).toContain(JSON.stringify(reference.answer).slice(1, 40));
  });

  it.each([
    ['French', "Le chiffre d'affaires du mois dernier provient surtout du canal web.", /not English/],
    ['an invented number', 'Revenue grew 12% last month, led by web.', /numbers not in the rows: 12/],
  ])('is replaced by the template when it is %s', async (_what, prose, note) => {
    const reference = await templated('revenue by channel last month');
    notes.length = 0;
    llm.script(REVENUE_BY_CHANNEL, { kind: 'content', text: prose });
    const body = (await ask('revenue by channel last month')).json();
    expect(body.answer).toBe(reference.answer);
    expect(body.answer).toMatch(/^Revenue for last month/);
    expect(notes.join('\n')).toMatch(note);
  });
});

describe('the raw-SQL fallback', () => {
  const NO_MATCH = { kind: 'object', value: { no_match: true, reason: 'No governed metric counts units sold.' } } as const;
  const UNITS_SQL = 'SELECT SUM(quantity) AS units_sold, COUNT(*) AS order_lines FROM shop.order_items';
  const unitsQuestion = 'how many units were sold across all order items';

  it('answers a tracer with SQL over the matching tables: raw SQL, not reveal-backed, medium confidence, recorded', async () => {
    llm.script(NO_MATCH, { kind: 'object', value: { no_answer: false, sql: `${UNITS_SQL};` } });
    const response = await ask(unitsQuestion, tracerKey);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(purposes()).toEqual(['plan', 'sql']);
    const { warehouse } = await t.services.connections.warehouse(workspaceId, 'warehouse');
    const direct = await warehouse.run(UNITS_SQL, [], { maxRows: 10, timeoutMs: 10_000 });
    expect(body.data.rows).toEqual(direct.rows);
    expect(body.data.columns).toEqual(['units_sold', 'order_lines']);
    expect(body.data.value).toBe(direct.rows[0]!['units_sold']);
    expect(body.provenance).toEqual({ source: 'raw SQL', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
    expect(body.raw_sql).toEqual({ sql: UNITS_SQL, connection: 'warehouse' });
    expect(body.answer).toMatch(/^No governed metric answers this, so I wrote SQL over the warehouse table order_items; it is not a governed number/);
    expect(body.answer).toContain(`units sold ${Number(direct.rows[0]!['units_sold']).toLocaleString('en-US')}`);
    expect(body.no_match).toBeUndefined();
    expect(body.usage.tokens_used).toBeGreaterThan(0);
    // Only tables sharing words with the question were described to the model.
    const sqlPrompt = llm.requests[1]!.raw;
    expect(sqlPrompt).toContain('order_items(');
    expect(sqlPrompt).not.toContain('customers(');
    await t.services.rawSql.flush();
    const history = (await t.services.history.pageForUser(workspaceId, tracerId, { limit: 5 })).rows;
    expect(history[0]).toMatchObject({ surface: 'question_api', sql: UNITS_SQL, status: 'success' });
  });

  it('gives the model one chance to correct a statement the engine rejected, and records both', async () => {
    const wrong = 'SELECT SUM(qty) AS units_sold FROM shop.order_items';
    t.clock.advance(1000); // this test's two runs are the newest in the history (and share a time)
    llm.script(NO_MATCH, { kind: 'object', value: { no_answer: false, sql: wrong } }, { kind: 'object', value: { no_answer: false, sql: UNITS_SQL } });
    const body = (await ask(unitsQuestion, tracerKey)).json();
    expect(purposes()).toEqual(['plan', 'sql', 'sql']);
    expect(llm.requests[2]!.raw).toContain('Your previous statement failed on the engine');
    expect(llm.requests[2]!.raw).toMatch(/qty/);
    expect(body.provenance.source).toBe('raw SQL');
    expect(body.raw_sql.sql).toBe(UNITS_SQL);
    await t.services.rawSql.flush();
    const history = (await t.services.history.pageForUser(workspaceId, tracerId, { limit: 2 })).rows;
    expect(new Set(history.map((h) => `${h.status}: ${h.sql}`))).toEqual(new Set([`error: ${wrong}`, `success: ${UNITS_SQL}`]));
  });

  it('answers no-match after a second engine error, with the engine message', async () => {
    const wrong = { kind: 'object', value: { no_answer: false, sql: 'SELECT SUM(qty) AS units_sold FROM shop.order_items' } } as const;
    llm.script(NO_MATCH, wrong, wrong);
    const body = (await ask(unitsQuestion, tracerKey)).json();
    expect(purposes()).toEqual(['plan', 'sql', 'sql']);
    expect(body.no_match.reason).toMatch(/could not run \(duckdb: .*qty/i);
    expect(body.data).toEqual({ rows: [], columns: [] });
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
  });

  it('is never attempted for a viewer, who gets the honest no-match answer', async () => {
    llm.script(NO_MATCH);
    const body = (await ask(unitsQuestion, viewerKey)).json();
    expect(purposes()).toEqual(['plan']);
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
    expect(body.no_match.reason).toBe('No governed metric counts units sold.');
    expect(body.data.rows).toEqual([]);
    expect(body.raw_sql).toBeUndefined();
  });

  it('refuses a write the model wrote: the guard stops it, the table is unchanged, no number is given', async () => {
    const { warehouse } = await t.services.connections.warehouse(workspaceId, 'warehouse');
    const before = await warehouse.run('SELECT COUNT(*) AS n, SUM(quantity) AS q FROM shop.order_items', [], { maxRows: 1, timeoutMs: 10_000 });
    llm.script(NO_MATCH, { kind: 'object', value: { no_answer: false, sql: 'DELETE FROM shop.order_items' } });
    const body = (await ask(unitsQuestion, tracerKey)).json();
    expect(body.provenance.source).toBe('semantic layer');
    expect(body.no_match.reason).toMatch(/could not run \(Only SELECT, WITH and EXPLAIN statements are allowed/);
    expect(body.data).toEqual({ rows: [], columns: [] });
    const after = await warehouse.run('SELECT COUNT(*) AS n, SUM(quantity) AS q FROM shop.order_items', [], { maxRows: 1, timeoutMs: 10_000 });
    expect(after.rows).toEqual(before.rows);
  });

  it('says so when the model finds the tables cannot answer', async () => {
    llm.script(NO_MATCH, { kind: 'object', value: { no_answer: true, reason: 'No table records returns shipping carriers.' } });
    const body = (await ask('which shipping carrier lost the most order parcels', tracerKey)).json();
    expect(body.no_match.reason).toMatch(/do not answer it either \(No table records returns shipping carriers\.\)/);
    expect(body.answer).toMatch(/^I could not answer that from a governed metric/);
    expect(body.data.rows).toEqual([]);
  });

  it('does not ask the model when no table shares a word with the question', async () => {
    llm.script(NO_MATCH);
    const body = (await ask('employee churn by cohort', tracerKey)).json();
    expect(purposes()).toEqual(['plan']);
    expect(body.no_match.reason).toMatch(/no warehouse table matches the question either/);
  });
});
