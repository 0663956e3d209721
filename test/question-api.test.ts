// Surface A's catalog: GET /api/v1/reveals and /api/v1/metrics/:reveal_name on the demo model, with
// the statuses of spec section 7 and workspace isolation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-a-'));
let t: TestApp;
let ws: SeededWorkspace;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 300 });
  key = (await createKey(t.services, ws, 'viewer', 'question')).value;
  otherKey = (await createKey(t.services, await seedWorkspace(t.services), 'luminary', 'question')).value;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, k = key) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${k}` } });

describe('GET /api/v1/reveals', () => {
  it("lists the workspace's reveals with domain, description and metric names", async () => {
    const response = await get('/reveals');
    expect(response.statusCode).toBe(200);
    const reveals = response.json().reveals;
    expect(reveals.map((r: { name: string }) => r.name)).toEqual(['customers', 'sales']);
    const sales = reveals.find((r: { name: string }) => r.name === 'sales');
    expect(sales).toMatchObject({ domain: 'commerce', description: expect.stringMatching(/\S/) });
    expect(sales.metrics).toEqual(expect.arrayContaining(['revenue', 'orders', 'average_order_value']));
  });

  it("shows another workspace's key only its own (empty) catalog", async () => {
    expect((await get('/reveals', otherKey)).json()).toEqual({ reveals: [] });
  });
});

describe('GET /api/v1/metrics/:reveal_name', () => {
  it('returns name, label, description and unit of every metric', async () => {
    const body = (await get('/metrics/sales')).json();
    expect(body).toMatchObject({ reveal: 'sales', domain: 'commerce' });
    expect(body.metrics.find((m: { name: string }) => m.name === 'revenue')).toEqual({
      name: 'revenue',
      label: 'Revenue',
      description: expect.stringMatching(/\S/),
      unit: 'dollars',
    });
  });

  it('404 for an unknown reveal, and for a reveal of another workspace', async () => {
    const unknown = await get('/metrics/finance');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'unknown_reveal']);
    expect((await get('/metrics/sales', otherKey)).statusCode).toBe(404);
  });
});

describe('authentication and limits', () => {
  it('401 without a key and for keys of the other formats', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/reveals' })).statusCode).toBe(401);
    const workspaceKey = (await createKey(t.services, ws, 'luminary', 'workspace')).value;
    const wrong = await get('/reveals', workspaceKey);
    expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'wrong_key_type']);
  });

  it('429 after 100 requests in the clock hour for one key; another key has its own budget', async () => {
    const own = (await createKey(t.services, ws, 'viewer', 'question')).value;
    t.clock.advance(3_600_000 - (t.clock.now().getTime() % 3_600_000) + 5);
    for (let i = 0; i < 100; i++) expect((await get('/reveals', own)).statusCode).toBe(200);
    const limited = await get('/metrics/sales', own);
    expect([limited.statusCode, limited.json().code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get('/reveals')).statusCode).toBe(200);
  });
});
