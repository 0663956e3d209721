// Comparisons over time, shares and ratios on surface C (POST /v1/query), over the whole governed path:
// the answer's shape and column metadata, its values against hand-written SQL on the demo warehouse,
// each member's data keys, the result cache, and a 400 naming what is wrong for every kind of bad input.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WarehouseRow } from '../src/core/warehouse/types.js';
import { setUpDemo } from '../src/demo-setup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { TestClock } from './helpers/clock.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-c-compare-'));
// The demo's data ends at this instant; the answers' "now" is the app's clock, started here.
const NOW = new Date('2025-06-18T10:00:00Z');
let t: TestApp;
let ws: SeededWorkspace;
let lumKey: string;
let europeKey: string;
let americaKey: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir }, clock: new TestClock(NOW) });
  ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: 1500 });
  lumKey = (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'users:write'] })).value;
  europeKey = (await createKey(t.services, ws, 'editor', 'structured')).value;
  americaKey = (await createKey(t.services, ws, 'viewer', 'structured')).value;
  for (const [member, region] of [
    [ws.members.editor, 'Europe'],
    [ws.members.viewer, 'North America'],
  ] as const) {
    const patched = await query(`/users/${member.id}/attributes`, { region }, lumKey, 'PATCH');
    expect(patched.statusCode).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function query(url: string, payload: unknown, key = lumKey, method: 'POST' | 'PATCH' = 'POST') {
  return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: `Bearer ${key}` }, payload: payload as object });
}

async function handWritten(sql: string): Promise<WarehouseRow[]> {
  const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
  return [...(await warehouse.run(sql, [], { maxRows: 1000, timeoutMs: 10_000 })).rows];
}

/** Numbers rounded to 6 decimals: a sum's last digits differ between a decimal and a double. */
function rounded(rows: readonly WarehouseRow[]): WarehouseRow[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v])));
}

const monthsAgainstYearBefore = (region?: string) => `
  WITH o AS (SELECT * FROM shop.orders ${region ? `WHERE ship_region = '${region}'` : ''}),
  cur AS (SELECT date_trunc('month', created_at) AS month, SUM(amount) AS revenue FROM o
          WHERE created_at >= TIMESTAMP '2025-03-01' AND created_at < TIMESTAMP '2025-07-01' GROUP BY 1),
  prev AS (SELECT date_trunc('month', created_at) + INTERVAL 1 YEAR AS month, SUM(amount) AS revenue FROM o
           WHERE created_at >= TIMESTAMP '2024-03-01' AND created_at < TIMESTAMP '2024-07-01' GROUP BY 1)
  SELECT strftime(coalesce(cur.month, prev.month), '%Y-%m-%dT%H:%M:%S.000') AS "created_at.month",
         cur.revenue AS "gross_revenue", prev.revenue AS "gross_revenue.comparison", cur.revenue - prev.revenue AS "gross_revenue.change",
         (cur.revenue - prev.revenue) / abs(nullif(prev.revenue, 0)) * 100 AS "gross_revenue.change_percent",
         coalesce(cur.month, prev.month) + INTERVAL 1 MONTH > TIMESTAMP '2025-06-18 10:00:00' AS "created_at.partial"
  FROM cur FULL JOIN prev ON prev.month = cur.month ORDER BY 1`;

const MONTHS_QUERY = {
  node: 'orders',
  dimensions: ['created_at.month'],
  measures: ['gross_revenue'],
  compare: { dimension: 'created_at', range: ['2025-03-01', '2025-07-01'], to: 'previous_year' },
};

describe('compare on POST /v1/query', () => {
  it('answers each month with its comparison, change, change percent and partial flag, described in metadata.columns', async () => {
    const response = await query('/query', MONTHS_QUERY);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-cache']).toBe('miss');
    const body = response.json();
    expect(Object.keys(body.data[0])).toEqual([
      'created_at.month',
      'gross_revenue',
      'gross_revenue.comparison',
      'gross_revenue.change',
      'gross_revenue.change_percent',
      'created_at.partial',
    ]);
    expect(rounded(body.data)).toEqual(rounded(await handWritten(monthsAgainstYearBefore())));
    expect(body.data.map((row: WarehouseRow) => row['created_at.partial'])).toEqual([false, false, false, true]);

    const columns = body.metadata.columns;
    expect(columns.map((c: { key: string; kind: string; type: string }) => [c.key, c.kind, c.type])).toEqual([
      ['created_at.month', 'dimension', 'timestamp'],
      ['gross_revenue', 'measure', 'number'],
      ['gross_revenue.comparison', 'comparison', 'number'],
      ['gross_revenue.change', 'change', 'number'],
      ['gross_revenue.change_percent', 'change_percent', 'number'],
      ['created_at.partial', 'partial', 'boolean'],
    ]);
    expect(columns[2]).toMatchObject({ measure: 'gross_revenue', description: 'gross_revenue in the same month a year before' });
    expect(columns[4].description).toMatch(/null when the comparison is 0 or null/);
    expect(body.metadata.comparison).toEqual({
      dimension: 'created_at',
      to: 'previous_year',
      range: ['2025-03-01T00:00:00.000', '2025-07-01T00:00:00.000'],
      comparison_range: ['2024-03-01T00:00:00.000', '2024-07-01T00:00:00.000'],
      partial: true,
    });
    // Both statements, as they ran: the current period's, then the comparison's.
    const statements = body.sql.split(';\n\n');
    expect(statements).toHaveLength(2);
    for (const statement of statements) expect(statement).toMatch(/^SELECT/);
    expect(body.metadata).toMatchObject({ node: 'orders', row_count: 4, truncated: false, cached: false });
  });

  it('answers a repeat from the cache, and from it only when every statement is kept', async () => {
    const again = await query('/query', MONTHS_QUERY);
    expect([again.headers['x-cache'], again.json().metadata.cached]).toEqual(['hit', true]);
    // Another comparison range: the current period's statement is kept already, the comparison's is not.
    const other = await query('/query', { ...MONTHS_QUERY, compare: { ...MONTHS_QUERY.compare, to: { range: ['2023-03-01', '2023-07-01'] } } });
    expect([other.headers['x-cache'], other.json().metadata.cached]).toEqual(['miss', false]);
  });

  it('each member gets comparisons over their own rows only', async () => {
    const europe = (await query('/query', MONTHS_QUERY, europeKey)).json();
    const america = (await query('/query', MONTHS_QUERY, americaKey)).json();
    expect(rounded(europe.data)).toEqual(rounded(await handWritten(monthsAgainstYearBefore('Europe'))));
    expect(rounded(america.data)).toEqual(rounded(await handWritten(monthsAgainstYearBefore('North America'))));
    expect(europe.data[0]['gross_revenue.comparison']).not.toEqual(america.data[0]['gross_revenue.comparison']);
  });

  it('sorts by a computed column before the limit', async () => {
    const body = (
      await query('/query', {
        node: 'orders',
        dimensions: ['channel'],
        measures: ['order_count'],
        compare: { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'] },
        sorts: [{ field: 'order_count.change_percent', direction: 'asc' }],
        limit: 2,
      })
    ).json();
    const all = await handWritten(`
      WITH cur AS (SELECT channel, COUNT(*) AS n FROM shop.orders WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < TIMESTAMP '2025-04-01' GROUP BY 1),
      prev AS (SELECT channel, COUNT(*) AS n FROM shop.orders WHERE created_at >= TIMESTAMP '2024-10-01' AND created_at < TIMESTAMP '2025-01-01' GROUP BY 1)
      SELECT cur.channel AS "channel", (cur.n - prev.n) / prev.n * 100 AS pct FROM cur JOIN prev USING (channel) ORDER BY 2, 1 LIMIT 2`);
    expect(body.data.map((row: WarehouseRow) => row.channel)).toEqual(all.map((row) => row.channel));
    expect(body.metadata).toMatchObject({ row_count: 2, truncated: true });
  });
});

describe('shares and per on POST /v1/query', () => {
  it('a share of every row, a share within each month and a ratio, with their columns', async () => {
    const body = (
      await query('/query', {
        node: 'orders',
        dimensions: ['created_at.month', 'channel'],
        measures: ['gross_revenue'],
        filters: [{ field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-02-28'] }],
        shares: [{ measure: 'gross_revenue' }, { measure: 'order_count', of: ['created_at.month'] }],
        per: [{ measure: 'gross_revenue', by: 'order_count' }],
      })
    ).json();
    const expected = await handWritten(`
      WITH g AS (SELECT date_trunc('month', created_at) AS month, channel, SUM(amount) AS revenue, COUNT(*) AS n FROM shop.orders
                 WHERE created_at >= TIMESTAMP '2025-01-01' AND created_at < TIMESTAMP '2025-03-01' GROUP BY 1, 2)
      SELECT strftime(month, '%Y-%m-%dT%H:%M:%S.000') AS "created_at.month", channel AS "channel", revenue AS "gross_revenue",
             revenue / SUM(revenue) OVER () AS "gross_revenue.share", n / SUM(n) OVER (PARTITION BY month) AS "order_count.share",
             revenue / n AS "gross_revenue.per.order_count"
      FROM g ORDER BY month, channel`);
    expect(rounded(body.data)).toEqual(rounded(expected));
    expect(body.metadata.columns.slice(2)).toEqual([
      { key: 'gross_revenue', kind: 'measure', type: 'number' },
      expect.objectContaining({ key: 'gross_revenue.share', kind: 'share', format: 'percent', measure: 'gross_revenue', of: [] }),
      expect.objectContaining({ key: 'order_count.share', kind: 'share', format: 'percent', measure: 'order_count', of: ['created_at.month'] }),
      expect.objectContaining({ key: 'gross_revenue.per.order_count', kind: 'per', measure: 'gross_revenue', by: 'order_count' }),
    ]);
    expect(body.metadata.comparison).toBeUndefined();
  });

  it('an ordinary query describes its columns too', async () => {
    const body = (await query('/query', { node: 'orders', dimensions: ['channel'], measures: ['order_count'] })).json();
    expect(body.metadata.columns).toEqual([
      { key: 'channel', kind: 'dimension', type: 'string' },
      { key: 'order_count', kind: 'measure', type: 'number' },
    ]);
    expect(body.sql).not.toContain(';');
  });
});

describe('bad input is a 400 naming what is wrong', () => {
  const base = { node: 'orders', dimensions: ['created_at.month'], measures: ['gross_revenue'] };
  const compare = { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'] };
  it.each<[string, object, RegExp]>([
    ['an unknown key in compare', { ...base, compare: { ...compare, until: 'now' } }, /body\.compare: Unrecognized key: "until"/],
    ['an unknown key in a share', { ...base, shares: [{ measure: 'gross_revenue', within: [] }] }, /body\.shares\[0\]: Unrecognized key: "within"/],
    ['an unknown comparison', { ...base, compare: { ...compare, to: 'previous_decade' } }, /body\.compare\.to/],
    ['a range of one bound', { ...base, compare: { ...compare, range: ['2025-01-01'] } }, /body\.compare\.range: a range is \[from, to\]/],
    ['an empty range', { ...base, compare: { ...compare, range: ['2025-04-01', '2025-04-01'] } }, /compare\.range is empty/],
    ['a comparison range backwards', { ...base, compare: { ...compare, to: { range: ['2024-04-01', '2024-01-01'] } } }, /compare\.to\.range is empty/],
    ['a bound that is no time', { ...base, compare: { ...compare, range: ['yesterday', '2025-04-01'] } }, /compare\.range\[0\] needs a date/],
    ['a compared dimension that is not a time', { ...base, compare: { ...compare, dimension: 'channel' } }, /compare\.dimension channel is a string dimension/],
    ['a compared dimension with a grain', { ...base, compare: { ...compare, dimension: 'created_at.month' } }, /without a granularity \(created_at\)/],
    ['an unknown compared dimension', { ...base, compare: { ...compare, dimension: 'shipped_at' } }, /Unknown dimension "shipped_at"/],
    ['a grain of another time dimension', { ...base, dimensions: ['customers.signup_at.month'], compare }, /customers\.signup_at\.month is a granularity of another time dimension/],
    ['two grains of the compared dimension', { ...base, dimensions: ['created_at.month', 'created_at.day'], compare }, /one granularity of created_at/],
    ['the compared dimension itself', { ...base, dimensions: ['created_at.day_of_week'], compare }, /created_at\.day_of_week takes other values/],
    ['a comparison without measures', { ...base, measures: [], compare }, /compare needs at least one measure/],
    ['an unknown measure to compare', { ...base, measures: ['profit'], compare }, /Unknown measure "profit"/],
    ['an unknown share measure', { ...base, shares: [{ measure: 'profit' }] }, /Unknown measure "profit"/],
    ['a share of a dimension the query lacks', { ...base, shares: [{ measure: 'gross_revenue', of: ['channel'] }] }, /shares\[0\]\.of names channel, which is not among the query's dimensions/],
    ['a share asked twice', { ...base, shares: [{ measure: 'gross_revenue' }, { measure: 'gross_revenue', of: ['created_at.month'] }] }, /share of gross_revenue is asked twice/],
    ['an unknown divisor', { ...base, per: [{ measure: 'gross_revenue', by: 'visits' }] }, /Unknown measure "visits"/],
    ['a ratio asked twice', { ...base, per: [{ measure: 'gross_revenue', by: 'order_count' }, { measure: 'gross_revenue', by: 'order_count' }] }, /two columns named gross_revenue\.per\.order_count/],
    ['a sort on a column the answer lacks', { ...base, compare, sorts: [{ field: 'gross_revenue.changes', direction: 'desc' }] }, /Cannot sort by gross_revenue\.changes/],
  ])('%s', async (_name, payload, message) => {
    const response = await query('/query', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });
});

describe('other surfaces inherit it through the governed path', () => {
  async function tool(name: string, args: unknown) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${lumKey}` },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    return response.json().result.structuredContent;
  }

  it("MCP's query answers what C answers, and explain_query shows both statements without running them", async () => {
    const c = (await query('/query', { ...MONTHS_QUERY, limit: 10 })).json();
    const answer = await tool('query', { ...MONTHS_QUERY, limit: 10 });
    expect(answer.data).toEqual(c.data);
    expect(answer.metadata.columns).toEqual(c.metadata.columns);
    expect(answer.provenance.cache).toBe('hit');
    const explained = await tool('explain_query', { ...MONTHS_QUERY, compare: { ...MONTHS_QUERY.compare, to: { range: ['2023-07-01', '2023-11-01'] } } });
    expect(explained.sql.split(';\n\n')).toHaveLength(2);
    expect(explained.cached).toBe(false);
  });
});
