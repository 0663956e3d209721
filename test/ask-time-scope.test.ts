// POST /api/v1/ask on the demo model: a count of customers is a stock, answered over all time when the
// question names no period ("How many enterprise customers do we have?" is every enterprise account,
// not those that signed up in the last 30 days); revenue and orders are flows, answered over the
// default window. Both planners: the offline one, and a language model on a real OpenAI-protocol
// server, whose plan names metrics only (the server decides the rows). Now is fixed at Wednesday
// 2025-06-18 15:00 UTC and the demo warehouse is generated for that day; every expected number is read
// straight from the warehouse file with DuckDB's own client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.js';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './helpers/fake-openai-server.js';

const clock: Clock = { now: () => new Date('2025-06-18T15:00:00Z') };
/** The last 30 complete days before 2025-06-18, and May 2025, as the answers must resolve them. */
const LAST_30_DAYS = `>= TIMESTAMP '2025-05-19' AND %s < TIMESTAMP '2025-06-18'`;
const MAY_2025 = `>= TIMESTAMP '2025-05-01' AND %s < TIMESTAMP '2025-06-01'`;
const within = (column: string, range: string) => `${column} ${range.replace('%s', column)}`;

const EXPECTED_SQL = {
  enterprise: `SELECT count(*) FROM shop.customers WHERE segment = 'enterprise'`,
  customers: `SELECT count(*) FROM shop.customers`,
  businessShare: `SELECT count(*) FILTER (WHERE segment IN ('small_business', 'enterprise')) * 1.0 / count(*) FROM shop.customers`,
  countries: `SELECT count(DISTINCT country) FROM shop.customers`,
  customersInMay: `SELECT count(*) FROM shop.customers WHERE ${within('signup_at', MAY_2025)}`,
  revenue: `SELECT sum(amount) FROM shop.orders WHERE status = 'completed' AND ${within('created_at', LAST_30_DAYS)}`,
  orders: `SELECT count(*) FROM shop.orders WHERE ${within('created_at', LAST_30_DAYS)}`,
  ordersInMay: `SELECT count(*) FROM shop.orders WHERE ${within('created_at', MAY_2025)}`,
};
type Figure = keyof typeof EXPECTED_SQL;

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-ask-time-scope-'));
let offline: TestApp;
let withModel: TestApp;
let llm: FakeOpenAiServer;
let offlineKey: string;
let modelKey: string;
const figures = {} as Record<Figure, number>;

async function demoApp(env: Record<string, string>): Promise<{ app: TestApp; key: string; warehouseFile: string }> {
  const app = await startTestApp({ env: { SVC_DATA_DIR: mkdtempSync(path.join(dataDir, 'app-')), ...env }, clock });
  const ws = await seedWorkspace(app.services);
  const lum = ws.members.luminary;
  const { warehouseFile } = await setUpDemo(app.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 3000 });
  return { app, key: (await createKey(app.services, ws, 'luminary', 'question')).value, warehouseFile };
}

/** The hand-written answers, read from the warehouse file with DuckDB's own client. */
async function readFigures(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    for (const [name, sql] of Object.entries(EXPECTED_SQL)) {
      figures[name as Figure] = Number((await connection.runAndReadAll(sql)).getRowsJS()[0]![0]);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  llm = await startFakeOpenAiServer();
  const first = await demoApp({});
  offline = first.app;
  offlineKey = first.key;
  await readFigures(first.warehouseFile);
  const second = await demoApp({ SVC_LLM_BASE_URL: llm.baseUrl, SVC_LLM_MODEL: 'local-model', SVC_LLM_PROSE: 'off' });
  withModel = second.app;
  modelKey = second.key;
}, 120_000);
afterAll(async () => {
  await offline?.close();
  await withModel?.close();
  await llm?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function ask(t: TestApp, key: string, question: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question } });
  expect(response.statusCode).toBe(200);
  return response.json();
}
const codes = (body: { provenance: { assumptions: Array<{ code: string }> } }) => body.provenance.assumptions.map((a) => a.code);

describe('the warehouse behind the figures', () => {
  it('has customers who signed up long before the last 30 days, so the two readings differ', () => {
    expect(figures.customers).toBeGreaterThan(100);
    expect(figures.enterprise).toBeGreaterThan(10);
    expect(figures.customersInMay).toBeLessThan(figures.customers);
  });
});

describe('offline planner: a count of customers is a stock, all time unless a period is named', () => {
  it.each<[string, Figure]>([
    ['How many enterprise customers do we have?', 'enterprise'],
    ['number of customers', 'customers'],
    ['how many customers are there', 'customers'],
    ['business share', 'businessShare'],
    ['countries', 'countries'],
  ])('%s', async (question, figure) => {
    const body = await ask(offline, offlineKey, question);
    expect(body.provenance).toMatchObject({ reveal: 'customers', reveal_backed: true, confidence: 'high' });
    expect(body.data.value).toBeCloseTo(figures[figure], 9);
    expect(body.data.period).toBe('all_time');
    expect(codes(body)).toEqual(['all_time_assumed']);
    expect(body.provenance.assumptions[0].message).toMatch(/names no period; .*\(all time\)/);
    expect(body.answer).toMatch(/^[A-Z][\w ]+ as of now \(all time\)/);
  });

  it('breaks a stock down over all time', async () => {
    const body = await ask(offline, offlineKey, 'customers by segment');
    const total = body.data.rows.reduce((sum: number, row: { customers: number }) => sum + row.customers, 0);
    expect(total).toBe(figures.customers);
    expect(body.data.period).toBe('all_time');
  });

  it('applies a named period to the time the customers signed up, and says so', async () => {
    const body = await ask(offline, offlineKey, 'customers in May 2025');
    expect(body.data).toMatchObject({ period: '2025_05', value: figures.customersInMay });
    expect(body.provenance.assumptions).toEqual([{ code: 'period_applied_to_stock', message: expect.stringMatching(/Signed up at/) }]);
  });

  it('"right now" is the state as of now, with nothing assumed', async () => {
    const body = await ask(offline, offlineKey, 'how many customers do we have right now');
    expect(body.data).toMatchObject({ period: 'as_of_now', value: figures.customers });
    expect(codes(body)).toEqual([]);
  });
});

describe('offline planner: revenue and orders are flows, over the default window unless a period is named', () => {
  it.each<[string, Figure]>([
    ['What was revenue?', 'revenue'],
    ['how many orders', 'orders'],
  ])('%s', async (question, figure) => {
    const body = await ask(offline, offlineKey, question);
    expect(body.provenance).toMatchObject({ reveal: 'sales', reveal_backed: true, confidence: 'high' });
    expect(body.data.value).toBeCloseTo(figures[figure], 2);
    expect(body.data.period).toBe('last_30_days');
    expect(codes(body)).toEqual(['period_assumed']);
    expect(body.answer).toMatch(/for last 30 days \(2025-05-19 to 2025-06-17\)/);
  });

  it('orders in May 2025', async () => {
    const body = await ask(offline, offlineKey, 'orders in May 2025');
    expect(body.data).toMatchObject({ period: '2025_05', value: figures.ordersInMay });
    expect(codes(body)).toEqual([]);
  });
});

describe('language-model planner: the same rows, whatever the model plans', () => {
  it('a stock the model picks is answered over all time', async () => {
    llm.script({ kind: 'object', value: { no_match: false, reveal: 'customers', metrics: ['enterprise_customers'] } });
    const body = await ask(withModel, modelKey, 'How many enterprise customers do we have?');
    expect(body.usage.tokens_used).toBeGreaterThan(0);
    expect(body.data).toMatchObject({ metric: 'enterprise_customers', period: 'all_time', value: figures.enterprise });
    expect(codes(body)).toEqual(['all_time_assumed']);
  });

  it('a stock with a filter the model picks is answered over all time', async () => {
    llm.script({ kind: 'object', value: { no_match: false, reveal: 'customers', metrics: ['customers'], filters: [{ field: 'segment', value: 'enterprise' }] } });
    const body = await ask(withModel, modelKey, 'How many enterprise customers do we have?');
    expect(body.data).toMatchObject({ metric: 'customers', period: 'all_time', value: figures.enterprise });
  });

  it('a flow the model picks gets the default window', async () => {
    llm.script({ kind: 'object', value: { no_match: false, reveal: 'sales', metrics: ['orders'] } });
    const body = await ask(withModel, modelKey, 'how many orders did we get');
    expect(body.data).toMatchObject({ metric: 'orders', period: 'last_30_days', value: figures.orders });
    expect(codes(body)).toEqual(['period_assumed']);
  });
});
