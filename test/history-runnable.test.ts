// A governed run ran with placeholders and bound values; its history row keeps those values and the
// statement with them written as literals. That text, sent to the SQL editor as it is shown, passes the
// read-only guard and answers the rows the governed run answered: for Explore's structured queries, the
// CML builder and scenes, with awkward filter values (quotes, backslashes, placeholder look-alikes), time
// periods and the user's data key. Raw SQL is its own runnable text. On both metadata stores.
import { beforeAll, describe, expect } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { demoAppOn, METADATA_STORES } from './helpers/demo-on-stores.js';

interface Run {
  id: string;
  origin: string;
  connection: string;
  sql: string;
  params: unknown[] | null;
  runnable_sql: string | null;
}

const AWKWARD = ["O'", 'a\\b', "it's $1 ? -- /*", 'web'];

describe.each(METADATA_STORES)('on $store', (store) => {
  const { it, app } = demoAppOn(store, 800);
  let t: TestApp;
  let cookie: string;

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers: { cookie, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  /** The newest run: each request here makes exactly one. */
  const latestRun = async (): Promise<Run> => (await call('GET', '/api/studio/history?limit=1')).runs[0];
  /** The run's runnable text sent to the editor exactly as the history shows it. */
  const reopened = async (run: Run) => (await call('POST', '/api/studio/query', { connection: run.connection, sql: run.runnable_sql, limit: 10_000 })).rows as Array<Record<string, unknown>>;

  beforeAll(async () => {
    if (!store.available) return;
    ({ t, cookie } = app());
    const { ws } = app();
    // A data key that restricts rows: its value is bound like a filter's, and must be in the runnable text too.
    await t.services.tenancy.patchAttributes(ws.id, ws.members.luminary.id, { region: 'Europe' });
  });

  it('reopens a structured query (Explore) as literal SQL that answers the same rows', async () => {
    for (const value of AWKWARD) {
      const query = {
        node: 'orders',
        dimensions: ['channel', 'status', 'created_at.month'],
        measures: ['order_count', 'gross_revenue'],
        filters: [
          { or: [{ field: 'customers.name', operator: 'contains', value }, { field: 'channel', operator: 'equals', value: [value, 'web', 'marketplace'] }] },
          { field: 'created_at', operator: 'inDateRange', value: ['2020-01-01', '2040-12-31'] },
          { field: 'order_count', operator: 'gte', value: 1 },
        ],
        sorts: [{ field: 'channel', direction: 'asc' }, { field: 'status', direction: 'desc' }, { field: 'created_at.month', direction: 'asc' }],
        limit: 5000,
      };
      const answer = await call('POST', '/api/query', query);
      expect(answer.data.length, JSON.stringify(value)).toBeGreaterThan(0);
      const run = await latestRun();
      expect(run.sql).toBe(answer.sql);
      expect(run.sql).toMatch(/\$\d/); // what ran holds placeholders…
      expect(run.params).toEqual(expect.arrayContaining(['Europe', value])); // …and its values, the data key's among them
      expect(run.runnable_sql!.replace(/'(?:[^']|'')*'/g, "''")).not.toMatch(/\$\d/); // no placeholder outside its text literals
      expect(await reopened(run), `${JSON.stringify(value)}: ${run.runnable_sql}`).toEqual(answer.data);
    }
  });

  it('reopens a CML builder run and a scene run as literal SQL that answers the same rows', async () => {
    const cml = await call('POST', '/api/studio/query/cml', {
      reveal: 'sales',
      measures: ['orders'],
      dimensions: ['channel'],
      filters: [{ field: 'status', operator: 'notEquals', value: "can't" }],
      sorts: [{ field: 'channel', direction: 'asc' }],
    });
    const cmlRun = await latestRun();
    expect(cmlRun.sql).toBe(cml.sql);
    expect(cmlRun.params).toEqual(cml.params);
    expect(await reopened(cmlRun)).toEqual(cml.result.rows);

    const scene = (await call('POST', '/api/scenes', { name: 'Recent by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'], filters: [{ field: 'created_at', operator: 'inThePast', value: '5 years' }], sorts: [{ field: 'channel', direction: 'asc' }] })).scene;
    const ran = await call('POST', `/api/scenes/${scene.id}/run`, {});
    const sceneRun = await latestRun();
    expect(sceneRun.origin).toBe(`scene:${scene.id}`);
    expect(await reopened(sceneRun)).toEqual(ran.data);
  });

  it('shows raw SQL as its own runnable text, without values', async () => {
    const sql = "SELECT 'it''s $1 or ?' AS text";
    await call('POST', '/api/studio/query', { connection: 'warehouse', sql });
    const run = await latestRun();
    expect(run).toMatchObject({ sql, runnable_sql: sql, params: null });
  });
});
