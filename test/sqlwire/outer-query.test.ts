// Outer queries over governed SELECTs through the wire: arithmetic on measures, CASE, window functions
// and ORDER BY an expression, computed over exactly the rows C answers for the same member (data keys
// included); parameters in the parts and in the outer query; errors placed in the client's text; the
// parts in the query history; the row cap.
import { describe, expect } from 'vitest';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { connect, failure, sqlAppOn } from './sql-app.js';

const BY_CHANNEL = 'SELECT channel, MEASURE(gross_revenue) AS revenue, MEASURE(order_count) AS orders FROM orders GROUP BY 1';

describe.each(METADATA_STORES.slice(0, 1))('outer queries over governed SELECTs on $store', (store) => {
  const { it, app } = sqlAppOn(store);
  const keyOf = async (role: 'luminary' | 'editor' = 'luminary') => (await createKey(app().t.services, app().ws, role, 'structured')).value;
  const viaC = async (key: string, body: object) => {
    const response = await app().t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}` }, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: Record<string, number | string>[] }).data;
  };
  const query = async (key: string, sql: string | { text: string; values: unknown[] }) => {
    const client = await connect(app().clientConfig(key));
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };

  it('computes arithmetic on measures and orders by an expression, over the rows C answers', async () => {
    const key = await keyOf();
    const byChannel = await viaC(key, { node: 'orders', dimensions: ['channel'], measures: ['gross_revenue', 'order_count'] });
    const expected = byChannel
      .map((r) => ({ channel: r.channel, perOrder: Number(r.gross_revenue) / Number(r.order_count) }))
      .sort((a, b) => b.perOrder - a.perOrder);
    const result = await query(key, `SELECT channel, revenue / orders AS per_order FROM (${BY_CHANNEL}) AS t ORDER BY revenue / orders DESC`);
    expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([['channel', 25], ['per_order', 1700]]);
    expect(result.rows.map((r) => r.channel)).toEqual(expected.map((r) => r.channel));
    result.rows.forEach((row, i) => expect(Number(row.per_order)).toBeCloseTo(expected[i]!.perOrder, 9));
    // PostgreSQL's own semantics: a count is bigint, and bigint / bigint divides as integers.
    const integers = await query(key, `SELECT channel, orders / 7 AS weeks, orders % 7 AS rest FROM (${BY_CHANNEL}) t ORDER BY 1`);
    const counts = new Map(byChannel.map((r) => [r.channel, Number(r.order_count)]));
    for (const row of integers.rows) {
      expect(Number(row.weeks)).toBe(Math.floor(counts.get(row.channel)! / 7));
      expect(Number(row.rest)).toBe(counts.get(row.channel)! % 7);
    }
  });

  it('runs window functions and CASE over a CTE of a governed SELECT by month', async () => {
    const key = await keyOf();
    const monthly = await viaC(key, { node: 'orders', dimensions: ['created_at.month'], measures: ['order_count'], sorts: [{ field: 'created_at.month', direction: 'asc' }] });
    expect(monthly.length).toBeGreaterThan(2);
    const sql = `WITH m AS (SELECT DATE_TRUNC('month', created_at) AS month, MEASURE(order_count) AS n FROM orders GROUP BY 1)
      SELECT month, n, SUM(n) OVER (ORDER BY month) AS running, n - LAG(n) OVER (ORDER BY month) AS change,
             CASE WHEN n >= $1 THEN 'busy' ELSE 'quiet' END AS load
      FROM m ORDER BY month`;
    const threshold = Number(monthly[1]!.order_count);
    const result = await query(key, { text: sql, values: [threshold] });
    let running = 0;
    expect(result.rows).toHaveLength(monthly.length);
    result.rows.forEach((row, i) => {
      const n = Number(monthly[i]!.order_count);
      running += n;
      expect(Number(row.n)).toBe(n);
      expect(Number(row.running)).toBe(running);
      expect(row.change === null ? null : Number(row.change)).toBe(i === 0 ? null : n - Number(monthly[i - 1]!.order_count));
      expect(row.load).toBe(n >= threshold ? 'busy' : 'quiet');
    });
  });

  it('takes parameters in a part and in the outer query, typed for the client by where each is used', async () => {
    const key = await keyOf();
    const byStatus = await viaC(key, { node: 'orders', dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'status', direction: 'asc' }] });
    const [excluded, ...rest] = byStatus;
    const least = Math.min(...rest.map((r) => Number(r.order_count)));
    const sql = 'SELECT status, n FROM (SELECT status, MEASURE(order_count) AS n FROM orders WHERE status <> $1 GROUP BY 1) t WHERE n > $2 ORDER BY status';
    const result = await query(key, { text: sql, values: [excluded!.status, least] });
    expect(result.rows.map((r) => [r.status, Number(r.n)])).toEqual(rest.filter((r) => Number(r.order_count) > least).map((r) => [r.status, Number(r.order_count)]));
    // A scalar subquery is a part too.
    const total = byStatus.reduce((sum, r) => sum + Number(r.order_count), 0);
    const scalar = await query(key, 'SELECT (SELECT MEASURE(order_count) FROM orders) * 2 AS doubled');
    expect(Number(scalar.rows[0].doubled)).toBe(total * 2);
  });

  it('reads the parts with the member\'s data keys', async () => {
    const { t, ws } = app();
    const luminary = await keyOf();
    const regions = await viaC(luminary, { node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], sorts: [{ field: 'ship_region', direction: 'asc' }] });
    expect(regions.length).toBeGreaterThan(1);
    await t.services.tenancy.patchAttributes(ws.id, ws.members.editor.id, { region: String(regions[0]!.ship_region) });
    const editor = await keyOf('editor');
    const sql = 'SELECT COUNT(*) AS regions, SUM(n) AS total FROM (SELECT ship_region, MEASURE(order_count) AS n FROM orders GROUP BY 1) t';
    const [all, mine] = [(await query(luminary, sql)).rows[0], (await query(editor, sql)).rows[0]];
    expect([Number(all.regions), Number(all.total)]).toEqual([regions.length, regions.reduce((s, r) => s + Number(r.order_count), 0)]);
    expect([Number(mine.regions), Number(mine.total)]).toEqual([1, Number(regions[0]!.order_count)]);
  });

  it('places errors in the client\'s text, in the outer query and in a part', async () => {
    const key = await keyOf();
    const client = await connect(app().clientConfig(key));
    try {
      const outer = `SELECT * FROM (${BY_CHANNEL}) t WHERE revnue > 1`;
      const unknown = await failure(client.query(outer));
      expect([unknown.code, unknown.message, unknown.position]).toEqual(['42703', 'column "revnue" does not exist', String(outer.indexOf('revnue') + 1)]);
      const inPart = 'SELECT channel FROM (SELECT channel, MEASURE(no_such) FROM orders GROUP BY 1) t';
      const unknownMeasure = await failure(client.query(inPart));
      expect([unknownMeasure.code, unknownMeasure.position]).toEqual(['42703', String(inPart.indexOf('no_such') + 1)]);
      // After a first statement of the same Query string, positions count from the string's start.
      const second = `SET extra_float_digits = 3; ${outer}`;
      const later = await failure(client.query(second));
      expect(later.position).toBe(String(second.indexOf('revnue') + 1));
      const typeError = await failure(client.query(`SELECT channel || orders FROM (${BY_CHANNEL}) t WHERE channel > 1`));
      expect(typeError.code).toBe('42883');
      // The connection goes on.
      expect((await client.query(`SELECT count(*) AS n FROM (${BY_CHANNEL}) t`)).rows[0].n).toBe('3');
    } finally {
      await client.end();
    }
  });

  it('records each part in the query history, and refuses more rows than a statement returns', async () => {
    const key = await keyOf();
    const { t, ws } = app();
    const history = () => t.store.db.selectFrom('query_history').select(({ fn }) => fn.countAll<number>().as('n')).where('workspace_id', '=', ws.id).where('surface', '=', 'sql_api').executeTakeFirstOrThrow();
    await t.services.rawSql.flush();
    const before = Number((await history()).n);
    // Two parts no earlier statement read (a cached answer reads no warehouse, and records no run).
    await query(key, 'SELECT a.status FROM (SELECT status, MEASURE(discount_total) AS d FROM orders GROUP BY 1) a JOIN (SELECT status, MEASURE(buyers) AS b FROM orders GROUP BY 1) b USING (status)');
    await t.services.rawSql.flush();
    expect(Number((await history()).n)).toBe(before + 2);
    const tooMany = await failure(query(key, `SELECT g FROM (${BY_CHANNEL}) t, generate_series(1, 20000) AS g`));
    expect([tooMany.code, tooMany.message]).toEqual(['54000', 'the result has more than 50,000 rows, the most one statement returns']);
  });
});
