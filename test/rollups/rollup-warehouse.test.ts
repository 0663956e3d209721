// A connection's rollup_schema: the rollups of its nodes are built inside its PostgreSQL database (no
// rollup file, no row through the process) and answer C's POST /v1/query as the source does; a second
// instance over the same metadata store and no shared data directory answers from them too; a partition
// rebuild is atomic (a reader during it sees the old rows, a cancelled or oversized build keeps them);
// two workspaces building the same model into one shared schema never read nor drop each other's
// table; DuckDB connections refuse a rollup_schema; the SQL editor cannot write into the schema, and
// its schema browser does not list it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROWS } from '../../src/core/semantic/compile.js';
import { rollupTableName } from '../../src/core/semantic/rollup-table.js';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import { principalOf } from '../../src/identity/principal.js';
import { GovernedQueryService } from '../../src/querying/governed-query-service.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { RollupBuildScheduler } from '../../src/rollups/rollup-build-scheduler.js';
import { rollupStorePath } from '../../src/rollups/rollup-store.js';
import { warehouseTableName } from '../../src/rollups/warehouse-rollup-store.js';
import { addUnits, formatWall } from '../../src/core/semantic/time.js';
import { consoleCall, createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/services.js';

const MODEL = `node orders {
  connection: warehouse  table: shop.orders
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension amount { type: number }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  data_key region { dimension: region  attribute: region }
  rollup monthly { dimensions: [region, status]  measures: [revenue, order_count]  time: created_at  grain: month  partition: year  refresh: on_deploy }
  rollup by_status { dimensions: [status]  measures: [order_count]  refresh: on_deploy }
}
`;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let metadata: { url: string };
let source: { url: string };
let admin: pg.Client;
/** The year of the test clock's now: the source holds the two years before it. */
let year: number;

beforeAll(async () => {
  const meta = await createTestDatabase();
  const wh = await createTestDatabase();
  metadata = meta;
  source = wh;
  admin = new pg.Client({ connectionString: wh.url });
  await admin.connect();
  cleanups.push(async () => {
    await admin.end();
    await wh.drop();
    await meta.drop();
  });
}, 60_000);

/** `count` orders from the start of `fromYear`, one every 7 hours, ids from `firstId`. */
async function addOrders(fromYear: number, count: number, firstId: number): Promise<void> {
  await admin.query(
    `INSERT INTO shop.orders SELECT i, (ARRAY['north','south','east'])[1 + i % 3], (ARRAY['open','paid'])[1 + i % 2], ((i * 37) % 1000) / 10.0, $1::timestamp + (i - $2) * interval '7 hours'
     FROM generate_series($2::int, $2::int + $3::int - 1) AS i`,
    [`${fromYear}-01-01 00:00:00`, firstId, count],
  );
}

interface Instance {
  t: TestApp;
  dataDir: string;
}

async function instance(): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rollwh-'));
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir }, databaseUrl: metadata.url });
  cleanups.push(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { t, dataDir };
}

async function workspace({ t }: Instance, schema = 'rollups'): Promise<{ ws: SeededWorkspace; key: string }> {
  const ws = await seedWorkspace(t.services);
  const url = new URL(source.url);
  await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'postgres', settings: { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username, rollup_schema: schema } });
  await t.store.db
    .updateTable('memberships')
    .set({ attributes: JSON.stringify({ region: ALL_ROWS }) })
    .where('workspace_id', '=', ws.id)
    .execute();
  await t.services.shared.bump(IDENTITY_GENERATION);
  const lum = ws.members.luminary;
  await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'shop', [{ path: 'orders.cml', content: MODEL }], { message: 'orders', projectName: 'Shop' });
  return { ws, key: (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read'] })).value };
}

/** Runs the build loop until it has nothing due. */
async function buildAll({ t }: Instance): Promise<number> {
  const loop = new RollupBuildScheduler(t.services.rollupBuildRows, t.services.rollupBuilds, t.clock, 60_000, { pollMs: 60_000 });
  let recorded = 0;
  for (let n = await loop.tick(); n > 0; n = await loop.tick()) recorded += n;
  return recorded;
}

const byRegion = { node: 'orders', dimensions: ['region', 'status'], measures: ['revenue', 'order_count'], sorts: [{ field: 'region', direction: 'asc' }, { field: 'status', direction: 'asc' }] };

function query({ t }: Instance, key: string, payload: object = byRegion) {
  return t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' }, payload });
}

/** The same query from the source, by the governed path without rollups. */
async function fromSource({ t }: Instance, ws: SeededWorkspace) {
  const { services } = t;
  const sourceOnly = new GovernedQueryService(services.models, services.connections, services.rawSql, services.resultCache, t.clock);
  const principal = principalOf((await services.signalRows.owner(ws.id, ws.members.luminary.id))!, 'session');
  const result = await sourceOnly.query({ principal, query: { kind: 'node', query: { filters: [], ...byRegion, limit: 1000 } as never }, cache: 'off', surface: 'structured_api', origin: 'structured', maxRows: 1000 });
  return result.rows;
}

async function storedTables(schema: string): Promise<string[]> {
  const { rows } = await admin.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schema]);
  return rows.map((r) => r.table_name);
}

describe('rollups in a PostgreSQL rollup_schema', () => {
  let one: Instance;
  let main: { ws: SeededWorkspace; key: string };
  let table: string;
  /** The table of by_status, built whole. */
  let whole: string;

  beforeAll(async () => {
    one = await instance();
    year = one.t.clock.now().getUTCFullYear();
    await admin.query('CREATE SCHEMA shop; CREATE TABLE shop.orders (id int PRIMARY KEY, region text, status text, amount numeric(10,2), created_at timestamp)');
    await addOrders(year - 2, 2000, 1);
    main = await workspace(one);
  }, 60_000);

  it('builds inside the warehouse and answers a governed query as the source does, naming the rollup', async () => {
    const recorded = await buildAll(one);
    expect(recorded).toBeGreaterThanOrEqual(3);
    const statuses = await one.t.services.rollupBuilds.list(main.ws.id);
    expect(statuses).toHaveLength(2);
    expect(statuses.find((s) => s.rollup === 'monthly')).toMatchObject({ state: 'ready', lastError: null });
    expect(statuses.find((s) => s.rollup === 'by_status')).toMatchObject({ state: 'ready', lastError: null, rows: 2 });
    table = statuses.find((s) => s.rollup === 'monthly')!.table;
    whole = statuses.find((s) => s.rollup === 'by_status')!.table;
    expect(await storedTables('rollups')).toEqual([warehouseTableName(main.ws.id, table), warehouseTableName(main.ws.id, whole)].sort());
    // Nothing went to the embedded file.
    expect(existsSync(rollupStorePath(one.dataDir, main.ws.id))).toBe(false);

    const response = await query(one, main.key);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.metadata.rollup).toMatchObject({ name: 'monthly', table });
    expect(body.sql).toContain(`"rollups"."${warehouseTableName(main.ws.id, table)}"`);
    expect(body.data).toEqual(await fromSource(one, main.ws));
    expect(body.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0)).toBe(2000);
    // The source's latest time among the rows, as the source writes it.
    const latest = (await one.t.services.connections.warehouse(main.ws.id, 'warehouse')).warehouse.run('SELECT MAX(created_at) AS latest FROM shop.orders', [], { maxRows: 1, timeoutMs: 10_000 });
    expect(body.metadata.rollup.data_through).toBe((await latest).rows[0]!['latest']);

    const cookie = await signIn(one.t.app, main.ws.members.editor.email);
    const listed = (await consoleCall(one.t, cookie, 'GET', '/api/rollups')).json();
    expect(listed.rollups[0]).toMatchObject({ name: 'monthly', storage: 'warehouse', table });
    expect(listed.rollups[0].table_bytes).toBeGreaterThan(0);
    expect(listed.file_bytes).toBeNull();

    // A rollup without time, built whole.
    const byStatus = { node: 'orders', dimensions: ['status'], measures: ['order_count'], sorts: [{ field: 'status', direction: 'asc' }] };
    const counted = (await query(one, main.key, byStatus)).json();
    expect(counted.metadata.rollup).toMatchObject({ name: 'by_status', table: whole, data_through: null });
    expect(counted.data).toEqual([{ status: 'open', order_count: 1000 }, { status: 'paid', order_count: 1000 }]);
  });

  it('a second instance with no shared data directory answers from the rollup the first built', async () => {
    const two = await instance();
    const response = await query(two, main.key);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.metadata.rollup).toMatchObject({ name: 'monthly', table });
    expect(body.data).toEqual(await fromSource(one, main.ws));
    expect(existsSync(rollupStorePath(two.dataDir, main.ws.id))).toBe(false);
  });

  it('a partition rebuild is atomic: a reader meanwhile sees the old rows, and a cancelled, timed out or oversized build keeps them', async () => {
    const before = (await query(one, main.key)).json().data;
    const live = await one.t.services.models.live(main.ws.id);
    const rollup = live.model.nodes.get('orders')!.rollups[0]!;
    const { warehouse } = await one.t.services.connections.warehouse(main.ws.id, 'warehouse');
    const store = await one.t.services.rollupStores.of(main.ws.id, 'warehouse');
    const start = new Date(Date.UTC(year - 2, 0, 1));
    // Rows the rebuild would add, held back by a lock on the source: the rebuild deletes the partition's
    // rows, then waits in its INSERT … SELECT.
    await addOrders(year - 2, 10, 100_000);
    const locker = new pg.Client({ connectionString: source.url });
    await locker.connect();
    await locker.query('BEGIN; LOCK TABLE shop.orders IN ACCESS EXCLUSIVE MODE');
    const cancel = new AbortController();
    const rebuild = buildRollup({ model: live.model, rollup, source: warehouse, store, now: one.t.clock.now(), partition: { start, end: addUnits('year', start, 1) }, maxRows: 10_000, timeoutMs: 60_000, signal: cancel.signal });
    rebuild.catch(() => undefined);
    const waiting = async () => (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH \"b\" AS%'")).rows[0].n as number;
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const during = (await query(one, main.key)).json();
    expect(during.metadata.rollup.name).toBe('monthly');
    expect(during.data).toEqual(before);
    cancel.abort();
    await expect(rebuild).rejects.toMatchObject({ code: 'warehouse_canceled' });
    // The build's time limit holds inside the warehouse too (statement_timeout), and keeps the rows.
    const slow = buildRollup({ model: live.model, rollup, source: warehouse, store, now: one.t.clock.now(), partition: { start, end: addUnits('year', start, 1) }, maxRows: 10_000, timeoutMs: 1_000 });
    await expect(slow).rejects.toMatchObject({ code: 'warehouse_timeout' });
    await locker.query('ROLLBACK');
    await locker.end();
    expect((await query(one, main.key)).json().data).toEqual(before);

    // Past the group cap: the same text as for the embedded file, and the old rows stay.
    const capped = buildRollup({ model: live.model, rollup, source: warehouse, store, now: one.t.clock.now(), partition: { start, end: addUnits('year', start, 1) }, maxRows: 5, timeoutMs: 60_000 });
    await expect(capped).rejects.toThrow('Rollup monthly has more than 5 groups in one build; give it a partition (or a finer one) so each build holds fewer');
    expect((await query(one, main.key)).json().data).toEqual(before);

    // A successful rebuild replaces the partition: the rollup now holds the added rows too.
    const built = await buildRollup({ model: live.model, rollup, source: warehouse, store, now: one.t.clock.now(), partition: { start, end: addUnits('year', start, 1) }, maxRows: 10_000, timeoutMs: 60_000 });
    expect(built.rows).toBeGreaterThan(0);
    const after = (await query(one, main.key)).json();
    expect(after.metadata.rollup.name).toBe('monthly');
    expect(after.data).toEqual(await fromSource(one, main.ws));
    expect(after.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0)).toBe(2010);
  });

  it('two workspaces with the same model in one schema neither read nor replace nor drop each other’s table', async () => {
    const other = await workspace(one);
    // Recorded as built without a table of its own: it must not find the first workspace's.
    const logical = rollupTableName((await one.t.services.models.live(other.ws.id)).model, (await one.t.services.models.live(other.ws.id)).model.nodes.get('orders')!.rollups[0]!);
    expect(logical).toBe(table);
    for (let y = year - 2; y <= year; y++) {
      const start = new Date(Date.UTC(y, 0, 1));
      await one.t.services.rollupPartitions.record({ workspace_id: other.ws.id, table_name: table, node: 'orders', rollup: 'monthly', partition_start: formatWall(start), partition_end: formatWall(addUnits('year', start, 1)), row_count: 1, built_at: one.t.clock.now(), source_max_time: null, duration_ms: 1 });
    }
    const unbuilt = (await query(one, other.key)).json();
    expect(unbuilt.metadata.rollup.used).toBeNull();
    expect(unbuilt.metadata.rollup.candidates).toContainEqual(expect.objectContaining({ name: 'monthly', reason_code: 'not_built' }));

    // The source grows, the second workspace builds: the first still answers from its own rows.
    const firstBefore = (await query(one, main.key)).json().data;
    await addOrders(year - 1, 30, 200_000);
    await buildAll(one);
    const tablesOf = (id: string) => [warehouseTableName(id, table), warehouseTableName(id, whole)];
    expect(await storedTables('rollups')).toEqual([...tablesOf(main.ws.id), ...tablesOf(other.ws.id)].sort());
    const second = (await query(one, other.key)).json();
    expect(second.metadata.rollup.name).toBe('monthly');
    expect(second.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0)).toBe(2040);
    expect((await query(one, main.key)).json().data).toEqual(firstBefore);

    // Orphans of the second workspace are its own tables only.
    const store = await one.t.services.rollupStores.of(other.ws.id, 'warehouse');
    expect(await store.dropOthers(new Set([whole]))).toEqual([warehouseTableName(other.ws.id, table)]);
    expect(await storedTables('rollups')).toEqual([...tablesOf(main.ws.id), warehouseTableName(other.ws.id, whole)].sort());

    // A deploy without a rollup drops its table from the schema: the deploying workspace's only.
    const lum = main.ws.members.luminary;
    const without = MODEL.replace(/\n {2}rollup by_status[^\n]*/, '');
    await one.t.services.models.deploy({ workspaceId: main.ws.id, userId: lum.id, email: lum.email }, 'shop', [{ path: 'orders.cml', content: without }], { message: 'no by_status', projectName: 'Shop' });
    expect(await storedTables('rollups')).toEqual([warehouseTableName(main.ws.id, table), warehouseTableName(other.ws.id, whole)].sort());
  });

  it('the SQL editor cannot write into the rollup schema, whatever the role may do', async () => {
    const cookie = await signIn(one.t.app, main.ws.members.luminary.email);
    const stored = `rollups.${warehouseTableName(main.ws.id, table)}`;
    for (const sql of [`DELETE FROM ${stored}`, `INSERT INTO ${stored} (region) VALUES ('x')`, `DROP TABLE ${stored}`, `WITH d AS (DELETE FROM ${stored} RETURNING 1) SELECT count(*) FROM d`]) {
      const response = await consoleCall(one.t, cookie, 'POST', '/api/studio/query', { connection: 'warehouse', sql });
      expect(response.statusCode, sql).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, sql).toBeLessThan(500);
    }
    const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${stored}`);
    expect(rows[0]!.n).toBeGreaterThan(0);
    // The schema browser shows the data, not the service's rollup tables (this workspace's or others').
    const schema = await consoleCall(one.t, cookie, 'GET', '/api/studio/connections/warehouse/schema');
    expect(schema.statusCode).toBe(200);
    const tables = (schema.json().tables as Array<{ schema: string; name: string }>).map((t) => `${t.schema}.${t.name}`);
    expect(tables).toEqual(['shop.orders']);
  });

  it('a rollup_schema is refused for DuckDB and MySQL connections and must be a plain identifier', async () => {
    const { ws } = main;
    const cookie = await signIn(one.t.app, ws.members.luminary.email);
    const duck = await consoleCall(one.t, cookie, 'POST', '/api/connections', { name: 'duck', engine: 'duckdb', settings: { path: 'x.duckdb', rollup_schema: 'rollups' } });
    expect(duck.statusCode).toBe(400);
    expect(duck.json().error).toMatch(/rollup_schema/);
    await expect(one.t.services.connections.create(ws.id, { name: 'duck', engine: 'duckdb', settings: { path: 'x.duckdb', rollup_schema: 'rollups' } })).rejects.toThrow(
      /rollup_schema is for PostgreSQL and Snowflake connections; the rollups of DuckDB connections are stored in the service's embedded rollup file/,
    );
    await expect(one.t.services.connections.create(ws.id, { name: 'maria', engine: 'mysql', settings: { host: 'h', database: 'd', user: 'u', rollup_schema: 'rollups' } })).rejects.toThrow(/rollup_schema is for PostgreSQL and Snowflake/);
    const bad = await consoleCall(one.t, cookie, 'POST', '/api/connections', { name: 'bad', engine: 'postgres', settings: { host: 'h', database: 'd', user: 'u', rollup_schema: 'x"; DROP SCHEMA shop; --' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/rollup_schema/);
    const listed = (await consoleCall(one.t, cookie, 'GET', '/api/connections')).json();
    const warehouse = (listed.connections ?? listed).find((c: { name: string }) => c.name === 'warehouse');
    expect(warehouse.settings.rollup_schema).toBe('rollups');
  });
});
