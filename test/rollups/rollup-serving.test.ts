// C's POST /v1/query answers from a built rollup when one can answer and its partitions cover what the
// query reads, and says so in metadata.rollup; otherwise from the source with each rollup's reason: a
// dimension the rollups lack, a data key field not in the rollup (and only the caller's rows), a rollup
// never built, a partition not built yet, and SVC_ROLLUPS=off. A rollup answer is as fresh as the source
// rows it was built from, not as the clock; it is recorded in the history. On PGlite and PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROWS } from '../../src/core/semantic/compile.js';
import { addUnits, formatWall } from '../../src/core/semantic/time.js';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import { principalOf, type Principal } from '../../src/identity/principal.js';
import { GovernedQueryService } from '../../src/querying/governed-query-service.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { rollupTableName } from '../../src/core/semantic/rollup-table.js';
import { createLogger } from '../../src/logger.js';
import { generateSelfSigned } from '../../src/runtime-files.js';
import { startSqlInterface } from '../../src/sqlwire/sql-interface.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { factRows, loadDuckDbFacts } from './fact-table.js';

const ROWS = factRows(2000, 11);
const withPostgres = await hasService('postgres');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const MODEL = `node orders {
  connection: warehouse  table: main.orders
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension channel { type: string }
  dimension amount { type: number }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  data_key region { dimension: region  attribute: region }
  data_key channel { dimension: channel  attribute: channel }
  rollup monthly { dimensions: [region]  measures: [revenue, order_count]  time: created_at  grain: month  partition: year  refresh: on_deploy }
  rollup by_status { dimensions: [status]  measures: [order_count]  refresh: on_deploy }
}
`;

interface Setup {
  t: TestApp;
  ws: SeededWorkspace;
  /** Sees every row (region and channel `*`). */
  allKey: string;
  /** Data keys: every region, channel `web` only. */
  webKey: string;
}

async function setUp(env: Record<string, string>, databaseUrl?: string): Promise<Setup> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rollserve-'));
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, ...env }, ...(databaseUrl ? { databaseUrl } : {}) });
  cleanups.push(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const ws = await seedWorkspace(t.services);
  const directory = t.services.connections.directoryOf(ws.id);
  mkdirSync(directory, { recursive: true });
  await loadDuckDbFacts(path.join(directory, 'facts.duckdb'), ROWS);
  await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'duckdb', settings: { path: 'facts.duckdb' } });
  const attributes = { luminary: { region: ALL_ROWS, channel: ALL_ROWS }, viewer: { region: ALL_ROWS, channel: 'web' } };
  for (const [role, values] of Object.entries(attributes)) {
    await t.store.db
      .updateTable('memberships')
      .set({ attributes: JSON.stringify(values) })
      .where('workspace_id', '=', ws.id)
      .where('user_id', '=', ws.members[role as 'luminary' | 'viewer'].id)
      .execute();
  }
  await t.services.shared.bump(IDENTITY_GENERATION);
  const lum = ws.members.luminary;
  await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'facts', [{ path: 'facts.cml', content: MODEL }], { message: 'facts', projectName: 'Facts' });
  return { t, ws, allKey: (await createKey(t.services, ws, 'luminary', 'structured', { scopes: ['query', 'models:read', 'sql'] })).value, webKey: (await createKey(t.services, ws, 'viewer', 'structured')).value };
}

/** Builds `years` of the monthly rollup, one partition each, and records each build as a build job would. */
async function buildMonthly({ t, ws }: Setup, years: readonly number[]): Promise<Array<string | null>> {
  const live = await t.services.models.live(ws.id);
  const rollup = live.model.nodes.get('orders')!.rollups.find((r) => r.name === 'monthly')!;
  const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
  const store = await t.services.rollupStores.of(ws.id);
  const times: Array<string | null> = [];
  for (const year of years) {
    const start = new Date(Date.UTC(year, 0, 1));
    const partition = { start, end: addUnits('year', start, 1) };
    const built = await buildRollup({ model: live.model, rollup, source: warehouse, store, now: t.clock.now(), partition, maxRows: 10_000, timeoutMs: 30_000 });
    await t.services.rollupPartitions.record({
      workspace_id: ws.id,
      table_name: built.table,
      node: 'orders',
      rollup: 'monthly',
      partition_start: formatWall(partition.start),
      partition_end: formatWall(partition.end),
      row_count: built.rows,
      built_at: t.clock.now(),
      source_max_time: built.sourceMaxTime,
      duration_ms: 1,
    });
    times.push(built.sourceMaxTime);
  }
  return times;
}

function query({ t }: Setup, key: string, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, ...headers }, payload });
}

/** The same query read from the source by the same governed path with no rollups. */
async function fromSource({ t, ws }: Setup, payload: { node: string; dimensions?: string[]; measures?: string[] }, role: 'luminary' | 'viewer' = 'luminary') {
  const { services } = t;
  const sourceOnly = new GovernedQueryService(services.models, services.connections, services.rawSql, services.resultCache, t.clock);
  const principal = await principalFor({ t, ws } as Setup, role);
  const result = await sourceOnly.query({ principal, query: { kind: 'node', query: { dimensions: [], measures: [], filters: [], sorts: [], ...payload, limit: 1000 } as never }, cache: 'off', surface: 'structured_api', origin: 'structured', maxRows: 1000 });
  return result.rows;
}

async function principalFor({ t, ws }: Setup, role: 'luminary' | 'viewer'): Promise<Principal> {
  return principalOf((await t.services.signalRows.owner(ws.id, ws.members[role].id))!, 'session');
}

const byRegion = { node: 'orders', dimensions: ['region'], measures: ['revenue', 'order_count'], sorts: [{ field: 'region', direction: 'asc' }] };

function serving(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`answers from rollups (${name})`, () => {
    let on: Setup;
    let off: Setup;
    let latest: string;
    beforeAll(async () => {
      const url = await databaseUrl();
      on = await setUp({}, url);
      off = await setUp({ SVC_ROLLUPS: 'off' }, url);
    }, 60_000);

    it('answers from the source with `partial` while a partition the query reads is not built, then from the rollup', async () => {
      await buildMonthly(on, [2024, 2025]);
      // Past the result cache: a source answer kept now would answer the repeat below (with its own metadata).
      const partial = (await query(on, on.allKey, byRegion, { 'cache-control': 'no-cache' })).json();
      expect(partial.metadata.rollup).toEqual({
        used: null,
        candidates: [
          { name: 'by_status', reason_code: 'lacks_measure', reason: 'lacks measure revenue' },
          { name: 'monthly', reason_code: 'partial', reason: 'partition from 2026-01-01 00:00:00.000 of the rollup has not been built' },
        ],
      });
      expect(partial.sql).toMatch(/main\.orders/);

      const times = await buildMonthly(on, [2026]);
      expect(times[0]).toBeNull(); // no rows in 2026
      const response = await query(on, on.allKey, byRegion);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      const records = await on.t.services.rollupPartitions.list(on.ws.id, body.metadata.rollup.table);
      expect(records).toHaveLength(3);
      const oldest = new Date(Math.min(...records.map((r) => r.built_at.getTime()))).toISOString();
      expect(body.metadata.rollup).toEqual({ name: 'monthly', table: expect.stringMatching(/^orders__monthly__/), partitions_built_at: oldest, data_through: records[1]!.source_max_time });
      expect(body.sql).toContain(body.metadata.rollup.table);
      expect(body.data).toEqual(await fromSource(on, byRegion));
      expect(body.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0)).toBe(ROWS.length);
      expect(body.metadata.cached).toBe(false);
      latest = body.metadata.rollup.data_through;
    });

    it('is as fresh as the latest source time the rollup holds, not as now', async () => {
      const { warehouse } = await on.t.services.connections.warehouse(on.ws.id, 'warehouse');
      const max = await warehouse.run('SELECT MAX(created_at) AS latest FROM main.orders', [], { maxRows: 1, timeoutMs: 10_000 });
      expect(latest).toBe(max.rows[0]!['latest']);
      const principal = await principalFor(on, 'luminary');
      const result = await on.t.services.governed.query({ principal, query: { kind: 'node', query: { ...byRegion, filters: [], limit: 100 } as never }, cache: 'off', surface: 'structured_api', origin: 'structured', maxRows: 100 });
      expect(result.provenance).toMatchObject({ rollup: 'monthly', freshAsOf: latest });
      expect(result.provenance.freshAsOf).not.toBe(result.ranAt);
    });

    it('a comparison is as fresh as its least fresh statement: each read from the rollup', async () => {
      const principal = await principalFor(on, 'luminary');
      const compare = { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'], to: 'previous_year' };
      const payload = { node: 'orders', dimensions: ['created_at.month'], measures: ['revenue'], filters: [], sorts: [], compare, limit: 100 };
      const result = await on.t.services.governed.query({ principal, query: { kind: 'node', query: payload as never }, cache: 'off', surface: 'structured_api', origin: 'structured', maxRows: 100 });
      expect(result.sql).toContain('orders__monthly__');
      expect(result.provenance.freshAsOf).toBe(latest);
    });

    it('MCP: the query tool’s provenance names the rollup and is as fresh as it', async () => {
      const response = await on.t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${on.allKey}` },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'query', arguments: byRegion } }),
      });
      const result = (response.json() as { result: { structuredContent: { provenance: unknown; metadata: { rollup: { name: string } } }; content: Array<{ text: string }> } }).result;
      expect(result.structuredContent.provenance).toMatchObject({ rollup: 'monthly', freshness: latest });
      expect(result.structuredContent.metadata.rollup.name).toBe('monthly');
      expect(result.content[0]!.text).toContain('from rollup monthly');
    });

    it('explain names the rollup that would answer, or why none would, per statement of a comparison, without reading it', async () => {
      const call = async (args: object) => {
        const response = await on.t.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${on.allKey}` },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'explain_query', arguments: args } }),
        });
        return (response.json() as { result: { structuredContent: { rollup?: unknown; sql: string } } }).result.structuredContent;
      };
      const explained = await call(byRegion);
      expect(explained.rollup).toEqual({ name: 'monthly', table: expect.stringMatching(/^orders__monthly__/), partitions_built_at: expect.any(String), data_through: latest });
      expect(explained.sql).toMatch(/main\.orders/);
      expect((await call({ node: 'orders', dimensions: ['channel'], measures: ['order_count'] })).rollup).toEqual({
        used: null,
        candidates: [
          { name: 'monthly', reason_code: 'lacks_dimension', reason: 'lacks dimension channel' },
          { name: 'by_status', reason_code: 'lacks_dimension', reason: 'lacks dimension channel' },
        ],
      });
      const principal = await principalFor(on, 'luminary');
      const compare = { dimension: 'created_at', range: ['2025-01-01', '2025-04-01'], to: 'previous_year' };
      const composed = { node: 'orders', dimensions: ['created_at.month'], measures: ['revenue'], filters: [], sorts: [], compare, limit: 100 };
      const plan = await on.t.services.governed.explain({ principal, query: { kind: 'node', query: composed as never }, cache: 'off', maxRows: 100 });
      const viaMcp = (await call(composed)) as { statements?: Array<{ role: string; name?: string }> };
      expect(viaMcp.statements?.map((s) => [s.role, s.name])).toEqual([
        ['current', 'monthly'],
        ['comparison', 'monthly'],
      ]);
      expect(plan.statementRollups?.map((s) => [s.role, s.rollup.used?.name])).toEqual([
        ['current', 'monthly'],
        ['comparison', 'monthly'],
      ]);
      const answer = (await query(on, on.allKey, composed)).json();
      expect(answer.metadata.comparison.statements).toEqual([
        { role: 'current', name: 'monthly', table: expect.stringMatching(/^orders__monthly__/), partitions_built_at: expect.any(String), data_through: latest },
        { role: 'comparison', name: 'monthly', table: expect.stringMatching(/^orders__monthly__/), partitions_built_at: expect.any(String), data_through: latest },
      ]);
    });

    it('SQL interface: a NOTICE names the rollup that answered', async () => {
      const pems = await generateSelfSigned();
      const sql = await startSqlInterface({
        services: on.t.services,
        settings: { port: 0, explicit: true, allowPlaintext: false, maxConnectionsPerWorkspace: 5, idleSeconds: 600 },
        host: '127.0.0.1',
        tls: { key: pems.private, cert: pems.cert },
        logger: createLogger('warn'),
      });
      const client = new pg.Client({ host: '127.0.0.1', port: sql.port, user: 'analyst', password: on.allKey, database: 'facts', ssl: { ca: pems.cert, servername: 'localhost' } });
      try {
        await client.connect();
        const notices: string[] = [];
        client.on('notice', (notice) => notices.push(notice.message ?? ''));
        const rows = await client.query('SELECT region, MEASURE(order_count) AS order_count FROM orders GROUP BY region ORDER BY region');
        expect(rows.rows.map((row) => Number(row.order_count)).reduce((a, b) => a + b, 0)).toBe(ROWS.length);
        await client.query('SELECT channel, MEASURE(order_count) FROM orders GROUP BY channel');
        expect(notices).toEqual([`answered from rollup monthly, data through ${latest}`]);
      } finally {
        await client.end();
        await sql.close();
      }
    });

    it('records the rollup that answered in the query history', async () => {
      await on.t.services.rawSql.flush();
      const rows = await on.t.store.db.selectFrom('query_history').select(['sql', 'status', 'row_count']).where('workspace_id', '=', on.ws.id).where('sql', 'like', '/* rollup monthly:%').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]).toMatchObject({ status: 'success', row_count: 5 });
    });

    it('a dimension no rollup holds: the source answers, with each rollup’s reason', async () => {
      const payload = { node: 'orders', dimensions: ['channel'], measures: ['order_count'], sorts: [{ field: 'channel', direction: 'asc' }] };
      const body = (await query(on, on.allKey, payload)).json();
      expect(body.metadata.rollup).toEqual({
        used: null,
        candidates: [
          { name: 'monthly', reason_code: 'lacks_dimension', reason: 'lacks dimension channel' },
          { name: 'by_status', reason_code: 'lacks_dimension', reason: 'lacks dimension channel' },
        ],
      });
      expect(body.data).toEqual(await fromSource(on, payload));
    });

    it('a caller whose data key field is not in the rollup: the source, with only their rows', async () => {
      const body = (await query(on, on.webKey, byRegion)).json();
      expect(body.metadata.rollup.used).toBeNull();
      expect(body.metadata.rollup.candidates[0]).toEqual({ name: 'monthly', reason_code: 'lacks_data_key_field', reason: 'data key field channel is not in the rollup, so it could not keep each user to their rows' });
      const total = body.data.reduce((sum: number, row: { order_count: number }) => sum + row.order_count, 0);
      expect(total).toBe(ROWS.filter((row) => row.channel === 'web').length);
      expect(total).toBeLessThan(ROWS.length);
      expect(body.data).toEqual(await fromSource(on, byRegion, 'viewer'));
    });

    it('the rollup that could answer was never built: the source, with `not_built`', async () => {
      const body = (await query(on, on.allKey, { node: 'orders', dimensions: ['status'], measures: ['order_count'] })).json();
      expect(body.metadata.rollup.candidates).toContainEqual({ name: 'by_status', reason_code: 'not_built', reason: 'the rollup can answer the query but has not been built' });
      expect(body.sql).toMatch(/main\.orders/);
    });

    it('a rollup answer is kept in the result cache until a build record is written, with its rollup and freshness', async () => {
      const payload = { ...byRegion, dimensions: ['region', 'created_at.year'] };
      const first = await query(on, on.allKey, payload);
      const second = await query(on, on.allKey, payload);
      expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['miss', 'hit']);
      expect(second.json().metadata.rollup).toEqual(first.json().metadata.rollup);
      expect(second.json().metadata.rollup.name).toBe('monthly');
      expect(second.json().data).toEqual(first.json().data);
      // A build anywhere moves the workspace's rollups generation: the kept answer is not read again.
      await buildMonthly(on, [2026]);
      const third = await query(on, on.allKey, payload);
      expect(third.headers['x-cache']).toBe('miss');
      expect(third.json().metadata.rollup.name).toBe('monthly');
      expect(third.json().data).toEqual(first.json().data);
      expect((await query(on, on.allKey, payload)).headers['x-cache']).toBe('hit');
    });

    it('SVC_ROLLUPS=off: built rollups are not read, and metadata says nothing of them', async () => {
      await buildMonthly(off, [2024, 2025, 2026]);
      const body = (await query(off, off.allKey, byRegion)).json();
      expect(body.metadata.rollup).toBeUndefined();
      expect(body.sql).toMatch(/main\.orders/);
      expect(body.data).toEqual((await query(on, on.allKey, byRegion)).json().data);
    });

    it('a stored table that cannot be read: the source answers, with `unreadable`, and the failure is in the history', async () => {
      const live = await on.t.services.models.live(on.ws.id);
      const table = rollupTableName(live.model, live.model.nodes.get('orders')!.rollups.find((r) => r.name === 'monthly')!);
      const store = await on.t.services.rollupStores.of(on.ws.id);
      // The stored table changed under the service: the answer's statement reads a column no longer there.
      // (The store's reader takes a statement without rows for a failed read: the change itself is checked below.)
      await store.query(`ALTER TABLE "${table}" DROP COLUMN revenue`, [], 1).catch(() => undefined);
      // Read from the catalog itself: the store remembers a table's columns (its name pins its definition).
      const columns = await store.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [table], 100);
      expect(columns.rows.map((row) => row.column_name)).toEqual(expect.arrayContaining(['region']));
      expect(columns.rows.map((row) => row.column_name)).not.toContain('revenue');
      const body = (await query(on, on.allKey, byRegion, { 'cache-control': 'no-cache' })).json();
      expect(body.metadata.rollup.candidates).toContainEqual({ name: 'monthly', reason_code: 'unreadable', reason: 'the stored table of the rollup could not be read' });
      expect(body.data).toEqual(await fromSource(on, byRegion));
      await on.t.services.rawSql.flush();
      const failed = await on.t.store.db.selectFrom('query_history').select(['status']).where('workspace_id', '=', on.ws.id).where('sql', 'like', `/* rollup monthly: ${table}%`).where('status', '=', 'error').execute();
      expect(failed).toEqual([{ status: 'error' }]);
    });

    it('a node without rollups has no metadata.rollup', async () => {
      // The model's only node has rollups; a composed query is routed statement by statement and reports none.
      const body = (await query(on, on.allKey, { node: 'orders', dimensions: ['region'], measures: ['order_count'], shares: [{ measure: 'order_count' }] })).json();
      expect(body.metadata.rollup).toBeUndefined();
    });
  });
}

serving('PGlite', async () => undefined);

describe.runIf(withPostgres)('on PostgreSQL', () => {
  serving('PostgreSQL', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    return db.url;
  });
});
