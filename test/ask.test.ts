// POST /api/v1/ask on the demo model: governed answers in English with rows, period, provenance and
// usage; honest refusals; the statuses of spec section 7; data keys and workspace isolation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-'));
let t: TestApp;
let ws: SeededWorkspace;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 3000 });
  key = (await createKey(t.services, ws, 'luminary', 'question')).value;
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ask = (payload: unknown, k = key) =>
  t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('governed answers', () => {
  it('answers "what was revenue last week?" from the sales reveal, with high confidence', async () => {
    const response = await ask({ question: 'What was revenue last week?' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.provenance).toMatchObject({ source: 'semantic layer', reveal: 'sales', reveal_backed: true, confidence: 'high' });
    expect(body.provenance.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data).toMatchObject({ metric: 'revenue', period: 'last_week', value: expect.any(Number) });
    expect(body.answer).toMatch(/^Revenue for last week \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\) was \$[\d,]+\.\d{2}\.$/);
    expect(body.usage).toEqual({ tokens_used: 0, latency_ms: expect.any(Number) });
  });

  it('breaks down by a dimension, and states the total', async () => {
    const body = (await ask({ question: 'revenue by channel last month' })).json();
    expect(body.data.columns).toEqual(['channel', 'revenue']);
    expect(body.data.rows.length).toBeGreaterThan(1);
    const sum = body.data.rows.reduce((s: number, r: { revenue: number }) => s + r.revenue, 0);
    expect(body.data.value).toBeCloseTo(sum, 2);
    expect(body.answer).toMatch(/By channel: /);
  });

  it('answers a question in Spanish, in English', async () => {
    const body = (await ask({ question: '¿Cuántos pedidos hubo el mes pasado?' })).json();
    expect(body.provenance.reveal_backed).toBe(true);
    expect(body.data.period).toBe('last_month');
    expect(body.answer).toMatch(/^[A-Z][a-z ]+ for last month/);
  });

  it('without a period, uses the last 30 days and says so in the assumptions; confidence stays that of a governed answer', async () => {
    const body = (await ask({ question: 'average order value' })).json();
    expect(body.data.period).toBe('last_30_days');
    expect(body.provenance).toMatchObject({ reveal_backed: true, confidence: 'high' });
    expect(body.provenance.assumptions.map((a: { code: string }) => a.code)).toEqual(['period_assumed']);
  });

  it('a metric recognised only from its description is not governed: declined, the metric suggested by name', async () => {
    const body = (await ask({ question: 'amount paid last week' })).json();
    expect(body.provenance).toMatchObject({ reveal_backed: false });
    expect(body.provenance.confidence).not.toBe('high');
    expect(body.data.value).toBeUndefined();
    expect(body.answer).toMatch(/only from its description/);
    expect(body.answer).toMatch(/Revenue/);
  });

  it("applies the asker's data keys", async () => {
    const viewer = ws.members.viewer;
    await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: 'Europe' }) }).where('user_id', '=', viewer.id).execute();
    const europeKey = (await createKey(t.services, ws, 'viewer', 'question')).value;
    const all = (await ask({ question: 'how many orders this year' })).json().data.value;
    const europe = (await ask({ question: 'how many orders this year' }, europeKey)).json().data.value;
    expect(europe).toBeGreaterThan(0);
    expect(europe).toBeLessThan(all);
  });
});

describe('honest refusals', () => {
  it('does not invent an answer for an out-of-scope question', async () => {
    const body = (await ask({ question: 'What is the employee headcount in the Berlin office?' })).json();
    expect(body.provenance).toEqual({ source: 'semantic layer', reveal_backed: false, freshness: null, confidence: 'medium', assumptions: [] });
    expect(body.data).toEqual({ rows: [], columns: [] });
    expect(body.answer).toMatch(/^I could not answer that from a governed metric/);
    expect(body.no_match.closest.length).toBeGreaterThan(0);
  });
});

describe('statuses', () => {
  it.each<[string, unknown]>([
    ['no question', {}],
    ['an empty question', { question: '   ' }],
    ['a question that is not a string', { question: 42 }],
    ['a question over 2,000 characters', { question: 'revenue '.repeat(300) }],
  ])('400 for %s', async (_name, payload) => {
    const response = await ask(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/body\.question|body:/);
  });

  it('400 for malformed JSON and for an unknown domain naming the domains', async () => {
    const malformed = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{"question": ' });
    expect(malformed.statusCode).toBe(400);
    const domain = (await ask({ question: 'revenue', domain: 'finance' })).json();
    expect(domain).toMatchObject({ code: 'unknown_domain', error: 'Unknown domain "finance"; domains: commerce' });
  });

  it('401 for a key of another surface; another workspace’s key sees none of these reveals', async () => {
    const workspaceKey = (await createKey(t.services, ws, 'luminary', 'workspace')).value;
    expect((await ask({ question: 'revenue' }, workspaceKey)).statusCode).toBe(401);
    const stranger = (await createKey(t.services, await seedWorkspace(t.services), 'luminary', 'question')).value;
    const body = (await ask({ question: 'revenue last week' }, stranger)).json();
    expect(body.provenance.reveal_backed).toBe(false);
    expect(body.no_match.reason).toMatch(/^No model is deployed in this workspace yet/);
  });
});

describe('freshness in the workspace time zone', () => {
  // UTC−11: an order late on a local Sunday is already Monday in UTC, outside "last week".
  const ZONE = 'Pacific/Pago_Pago';

  // The per-node plan (fan-out) computes it in its own CTE: src/core/semantic/derived-per-node.test.ts.
  it('is the local date of the latest order in the period', async () => {
    const question = 'revenue last week';
    await t.store.db.updateTable('workspaces').set({ timezone: ZONE }).where('id', '=', ws.id).execute();
    try {
      const localKey = (await createKey(t.services, ws, 'luminary', 'question')).value; // a fresh key reads the new zone
      const body = (await ask({ question }, localKey)).json();
      expect(body.provenance).toMatchObject({ reveal: 'sales', reveal_backed: true });
      const [, start, last] = /\((\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})\)/.exec(body.answer)!;
      const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
      const local = `timezone('${ZONE}', timezone('UTC', created_at))`;
      const direct = await warehouse.run(
        `SELECT CAST(CAST(MAX(${local}) AS DATE) AS VARCHAR) AS latest FROM shop.orders WHERE ${local} >= CAST(? AS DATE) AND ${local} < CAST(? AS DATE) + INTERVAL 1 DAY`,
        [start, last],
        { maxRows: 1, timeoutMs: 10_000 },
      );
      expect(body.provenance.freshness).toBe(direct.rows[0]!['latest']);
      expect(body.provenance.freshness <= last!).toBe(true);
    } finally {
      await t.store.db.updateTable('workspaces').set({ timezone: 'UTC' }).where('id', '=', ws.id).execute();
    }
  });
});
