// The SQL editor's CSV export (POST /api/studio/query/csv): the statement runs as the editor runs it
// (read-only guard, history) and the rows are streamed back as RFC 4180 CSV with a header row; the row
// count and the cap cutting the result are said in HTTP trailers, the cap itself in X-Row-Limit. On both
// metadata stores.
import { beforeAll, describe, expect } from 'vitest';
import { consoleRequest, signIn, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { demoAppOn, METADATA_STORES } from './helpers/demo-on-stores.js';

describe.each(METADATA_STORES)('CSV export on $store', (store) => {
  const { it, app } = demoAppOn(store, 300);
  let t: TestApp;
  let ws: SeededWorkspace;
  let cookie: string;
  beforeAll(() => {
    if (!store.available) return;
    ({ t, ws, cookie } = app());
  });
  const exportCsv = (body: object, as = cookie) => consoleRequest(t.app, as, 'POST', '/api/studio/query/csv', body);

  it('quotes fields as RFC 4180 says, writes a header row and null as an empty field', async () => {
    const sql = `SELECT 'a,b' AS "comma, here", 'say "hi"' AS quoted, 'line' || chr(10) || 'break' AS multi, 'café ✓' AS text, 42 AS n, NULL AS nothing`;
    const response = await exportCsv({ connection: 'warehouse', sql });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="warehouse-result.csv"');
    expect(response.headers['trailer']).toBe('x-row-count x-result-truncated');
    expect(response.trailers).toEqual({ 'x-row-count': '1', 'x-result-truncated': 'false' });
    expect(response.headers['x-row-limit']).toBe('1000000');
    expect(response.rawPayload.toString('utf8')).toBe('"comma, here",quoted,multi,text,n,nothing\r\n"a,b","say ""hi""","line\nbreak",café ✓,42,\r\n');
  });

  it('holds every row up to the cap, and says when the cap cut the result', async () => {
    const all = await exportCsv({ connection: 'warehouse', sql: 'SELECT id FROM shop.orders ORDER BY id' });
    const lines = all.body.split('\r\n');
    expect(lines[0]).toBe('id');
    expect(lines.at(-1)).toBe(''); // the last row ends with CRLF too
    expect(lines.length - 2).toBe(300);
    expect(all.trailers['x-result-truncated']).toBe('false');

    // 300 × 300 rows: more than the editor's grid cap of 10,000, all of them in the file, in order.
    const big = await exportCsv({ connection: 'warehouse', sql: 'SELECT a.id AS a, b.id AS b FROM shop.orders a CROSS JOIN shop.orders b ORDER BY a.id, b.id' });
    expect(big.statusCode).toBe(200);
    expect(big.trailers).toEqual({ 'x-row-count': '90000', 'x-result-truncated': 'false' });
    const bigLines = big.body.split('\r\n');
    expect(bigLines.length - 2).toBe(90_000);
    expect(bigLines[1]).toBe('1,1');
    expect(bigLines[90_000]).toBe('300,300');

    const capped = await exportCsv({ connection: 'warehouse', sql: 'SELECT id FROM shop.orders ORDER BY id', limit: 5 });
    expect(capped.trailers).toEqual({ 'x-row-count': '5', 'x-result-truncated': 'true' });
    expect(capped.headers['x-row-limit']).toBe('5');
    expect(capped.body).toBe('id\r\n1\r\n2\r\n3\r\n4\r\n5\r\n');
    const exact = await exportCsv({ connection: 'warehouse', sql: 'SELECT id FROM shop.orders ORDER BY id', limit: 300 });
    expect(exact.trailers).toEqual({ 'x-row-count': '300', 'x-result-truncated': 'false' });
  });

  it('writes a text a spreadsheet would read as a formula with a quote in front, and numbers as they are', async () => {
    const sql = `SELECT '=1+2' AS eq, '+cmd' AS plus, '-2+3' AS minus, '@sum' AS at, chr(9) || 'tab' AS tab, -5 AS negative, '-5' AS text_number, 'a=b' AS inside`;
    const response = await exportCsv({ connection: 'warehouse', sql });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(`eq,plus,minus,at,tab,negative,text_number,inside\r\n'=1+2,'+cmd,'-2+3,'@sum,'\ttab,-5,-5,a=b\r\n`);
  });

  it('refuses what the editor refuses, records every export in the history, and checks its body', async () => {
    const refused = await exportCsv({ connection: 'warehouse', sql: 'DELETE FROM shop.orders' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'read_only_violation' });
    expect(refused.headers['content-type']).toContain('application/json');

    const marked = `SELECT 'csv history mark' AS mark`;
    expect((await exportCsv({ connection: 'warehouse', sql: marked })).statusCode).toBe(200);
    const history = (await consoleRequest(t.app, cookie, 'GET', '/api/studio/history?source=editor&limit=50')).json() as { runs: Array<{ sql: string; status: string; origin: string; runnable_sql: string | null }> };
    // An editor run of origin csv, which the editor reopens as it was typed.
    expect(history.runs.find((r) => r.sql === marked)).toMatchObject({ status: 'success', origin: 'csv', runnable_sql: marked });
    expect(history.runs.find((r) => r.sql === 'DELETE FROM shop.orders')?.status).toBe('refused');

    const unknown = await exportCsv({ connection: 'nowhere', sql: 'SELECT 1' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'unknown_connection' });
    for (const body of [{ connection: 'warehouse', sql: 'SELECT 1', limit: 1_000_001 }, { connection: 'warehouse' }, { connection: 'warehouse', sql: 'SELECT 1', extra: true }]) {
      const bad = await exportCsv(body);
      expect(bad.statusCode).toBe(400);
      expect(typeof bad.json().error).toBe('string');
    }
  });

  it('is for roles that may run SQL, and needs a session', async () => {
    const viewer = await signIn(t.app, ws.members.viewer.email);
    expect((await exportCsv({ connection: 'warehouse', sql: 'SELECT 1' }, viewer)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/studio/query/csv', headers: { 'content-type': 'application/json' }, payload: { connection: 'warehouse', sql: 'SELECT 1' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
