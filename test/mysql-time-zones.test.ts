// A MariaDB server without time zone tables, where CONVERT_TZ into a named zone returns NULL: a query
// grouped by day in Europe/Paris would put every order under one NULL day. It must be refused with the
// command that loads the tables, on every surface that runs compiled queries; the same query in UTC
// needs no tables; the connection test warns; and once the zone is loaded the same pool answers. The
// server is a throwaway one of this test's own (the shared server's tables are never touched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMysql } from '../src/core/demo/index.js';
import { ALL_ROWS } from '../src/core/semantic/compile.js';
import { DEMO_MODEL_DIR, readModelDir } from '../src/demo-setup.js';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { loadMariadbTimeZone, startThrowawayMariadb, whyNoThrowawayMariadb, type ThrowawayServer } from './helpers/throwaway-servers.js';

const ORDERS = 300;
const FIX = 'mariadb-tzinfo-to-sql /usr/share/zoneinfo | mariadb -u root mysql';
const title = 'A MariaDB server without time zone tables';

const noServer = whyNoThrowawayMariadb();

describe.skipIf(noServer)(noServer ? `${title} (skipped: ${noServer})` : title, () => {
  let server: ThrowawayServer;
  let t: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;
  let key: string;

  beforeAll(async () => {
    server = await startThrowawayMariadb();
    await loadMysql(server.url(''), { orders: ORDERS, now: new Date('2025-06-01T00:00:00Z') });
    t = await startTestApp();
    ws = await seedWorkspace(t.services);
    const lum = ws.members.luminary;
    await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'mysql', settings: { host: '127.0.0.1', port: server.port, database: 'shop', user: 'root' } });
    await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region: ALL_ROWS }) }).where('user_id', '=', lum.id).execute();
    await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'demo', await readModelDir(DEMO_MODEL_DIR), { message: 'Demo model', projectName: 'Demo' });
    cookie = await signIn(t.app, lum.email);
    key = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query'] })).value;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  const byDay = (timezone: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/studio/query/cml',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { reveal: 'sales', dimensions: ['created_at.day'], measures: ['orders'], timezone },
    });
  const structuredByDay = (timezone: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/query',
      headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' },
      payload: { node: 'orders', dimensions: ['created_at.day'], measures: ['order_count'], timezone },
    });

  function expectRefusedWithFix(response: Awaited<ReturnType<typeof byDay>>, zone = 'Europe/Paris'): void {
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'warehouse_time_zone_unsupported', timezone: zone });
    expect(response.json().error).toContain(FIX);
  }

  function expectEveryOrderOnADay(rows: Array<Record<string, unknown>>, day: string, count: string): void {
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.filter((row) => row[day] === null)).toEqual([]);
    expect(rows.reduce((sum, row) => sum + Number(row[count]), 0)).toBe(ORDERS);
  }

  it('the connection test warns, naming the fix', async () => {
    const list = await t.services.connections.list(ws.id);
    const tested = await t.services.connections.test(ws.id, list[0]!.id, {}, 'Europe/Paris');
    expect(tested.ok).toBe(true);
    const warning = tested.ok ? tested.warnings.find((w) => w.code === 'time_zone_tables_missing') : undefined;
    expect(warning?.message).toContain(FIX);
    expect(warning?.message).toContain('Europe/Paris');
  });

  it('a query grouped by day in a named zone is refused with the fix, never answered with NULL days', async () => {
    expectRefusedWithFix(await byDay('Europe/Paris'));
    expectRefusedWithFix(await structuredByDay('Europe/Paris'));
  });

  it('the same query in UTC needs no time zone tables', async () => {
    const studio = await byDay('UTC');
    expect(studio.statusCode, studio.body).toBe(200);
    expectEveryOrderOnADay(studio.json().result.rows, 'created_at.day', 'orders');
    const structured = await structuredByDay('UTC');
    expect(structured.statusCode, structured.body).toBe(200);
    expectEveryOrderOnADay(structured.json().data, 'created_at.day', 'order_count');
  });

  it('answers as soon as the zone is loaded, on the same connection pool', async () => {
    await loadMariadbTimeZone(server, 'Europe/Paris');
    const studio = await byDay('Europe/Paris');
    expect(studio.statusCode, studio.body).toBe(200);
    expectEveryOrderOnADay(studio.json().result.rows, 'created_at.day', 'orders');
    const structured = await structuredByDay('Europe/Paris');
    expect(structured.statusCode, structured.body).toBe(200);
    expectEveryOrderOnADay(structured.json().data, 'created_at.day', 'order_count');
    // Each zone is checked on its own: one loaded zone says nothing of another.
    expectRefusedWithFix(await byDay('Asia/Tokyo'), 'Asia/Tokyo');
  });
});
