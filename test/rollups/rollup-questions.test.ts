// Questions (POST /api/v1/ask, the offline planner) answered from a built rollup of the reveal's base
// node: the same value, rows, freshness and "no rows visible" answer as the source gives (an app with
// SVC_ROLLUPS=off on the same rows), and provenance.rollups naming the rollup of each statement. A
// question reading a field the rollup lacks or a joined node's field is answered from the source with
// the candidates' reasons; an asker limited by a data key whose field the rollup lacks never reads it.
// `explain` names the rollup that would answer, without running. On DuckDB and PostgreSQL warehouses.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROWS } from '../../src/core/semantic/compile.js';
import { rowMarkerOf, latestOf } from '../../src/core/semantic/row-facts.js';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import { principalOf } from '../../src/identity/principal.js';
import { buildRollup } from '../../src/rollups/build-rollup.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { dropPostgresSchema, factRows, loadDuckDbFacts, loadPostgresFacts } from './fact-table.js';

const ROWS = factRows(1500, 23);
const NOW = new Date('2026-06-17T10:00:00Z');
const withPostgres = await hasService('postgres');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const model = (table: string) => `node orders {
  domain: sales
  connection: warehouse  table: ${table}
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension status { type: string }
  dimension channel { type: string }
  dimension amount { type: number }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  measure avg_amount { type: avg  sql: \${amount} }
  join managers { relationship: many_to_one  on: \${orders.region} = \${managers.region} }
  data_key region { dimension: region  attribute: region }
  data_key channel { dimension: channel  attribute: channel }
  rollup daily { dimensions: [region, status]  measures: [revenue, order_count, avg_amount]  time: created_at  grain: day  refresh: on_deploy }
}

node managers {
  domain: sales
  connection: warehouse
  sql: SELECT 'east' AS region, 'Avery' AS manager UNION ALL SELECT 'west', 'Blake'
  dimension region { type: string  primary_key: true }
  dimension manager { type: string }
}

reveal sales {
  domain: sales
  label: "Sales"
  base: orders
  time: orders.created_at
  metric revenue { label: "Revenue"  unit: dollars  measure: orders.revenue }
  metric orders { label: "Orders"  unit: count  measure: orders.order_count }
  metric average_order { label: "Average order"  unit: dollars  measure: orders.avg_amount }
}
`;

interface Setup {
  t: TestApp;
  ws: SeededWorkspace;
  key: string;
}

async function setUp(env: Record<string, string>, warehouse: 'duckdb' | 'postgres', databaseUrl?: string): Promise<Setup> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rollask-'));
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, ...env }, clock: new TestClock(NOW), ...(databaseUrl ? { databaseUrl } : {}) });
  cleanups.push(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const ws = await seedWorkspace(t.services);
  let table = 'main.orders';
  if (warehouse === 'duckdb') {
    const directory = t.services.connections.directoryOf(ws.id);
    mkdirSync(directory, { recursive: true });
    await loadDuckDbFacts(path.join(directory, 'facts.duckdb'), ROWS);
    await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'duckdb', settings: { path: 'facts.duckdb' } });
  } else {
    const url = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const schema = `rollask_${ws.id.replace(/-/g, '').slice(0, 12)}`;
    await loadPostgresFacts(url, schema, ROWS);
    cleanups.push(() => dropPostgresSchema(url, schema));
    const parsed = new URL(url);
    await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'postgres', settings: { host: parsed.hostname, port: Number(parsed.port), database: parsed.pathname.slice(1), user: parsed.username } });
    table = `${schema}.orders`;
  }
  await setAttributes({ t, ws, key: '' }, 'luminary', { region: ALL_ROWS, channel: ALL_ROWS });
  const lum = ws.members.luminary;
  await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'sales', [{ path: 'sales.cml', content: model(table) }], { message: 'sales', projectName: 'Sales' });
  return { t, ws, key: (await createKey(t.services, ws, 'luminary', 'question')).value };
}

async function setAttributes({ t, ws }: Setup, role: 'luminary' | 'viewer', attributes: Record<string, string>): Promise<void> {
  await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify(attributes) }).where('workspace_id', '=', ws.id).where('user_id', '=', ws.members[role].id).execute();
  await t.services.shared.bump(IDENTITY_GENERATION);
}

/** Builds the rollup whole and records the build, as a build job would: the latest source time it holds, and when it was built. */
async function buildDaily({ t, ws }: Setup): Promise<{ latest: string | null; builtAt: string }> {
  const live = await t.services.models.live(ws.id);
  const rollup = live.model.nodes.get('orders')!.rollups.find((r) => r.name === 'daily')!;
  const { warehouse } = await t.services.connections.warehouse(ws.id, 'warehouse');
  const store = await t.services.rollupStores.of(ws.id);
  const built = await buildRollup({ model: live.model, rollup, source: warehouse, store, now: t.clock.now(), maxRows: 100_000, timeoutMs: 30_000 });
  const builtAt = t.clock.now();
  await t.services.rollupPartitions.record({
    workspace_id: ws.id,
    table_name: built.table,
    node: 'orders',
    rollup: 'daily',
    partition_start: '',
    partition_end: '',
    row_count: built.rows,
    built_at: builtAt,
    source_max_time: built.sourceMaxTime,
    duration_ms: 1,
  });
  return { latest: built.sourceMaxTime, builtAt: builtAt.toISOString() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
async function ask({ t }: Setup, key: string, question: string): Promise<any> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/ask', headers: { authorization: `Bearer ${key}` }, payload: { question } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** An answer without what tells its routes apart: what must be the same from a rollup and from the source. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
function figures(body: any) {
  const { rollups: _rollups, ...provenance } = body.provenance;
  return { answer: body.answer, data: body.data, provenance };
}

function questions(name: string, warehouse: 'duckdb' | 'postgres', databaseUrl: () => Promise<string | undefined>) {
  describe(`questions answered from rollups (${name})`, () => {
    let on: Setup;
    let off: Setup;
    let latest: string | null;
    let builtAt: string;
    beforeAll(async () => {
      const url = await databaseUrl();
      on = await setUp({}, warehouse, url);
      off = await setUp({ SVC_ROLLUPS: 'off' }, warehouse, url);
      ({ latest, builtAt } = await buildDaily(on));
    }, 120_000);

    // The last: the default window (the last 30 days) holds no order; the rollup says so as the source does.
    it.each([
      ['revenue in 2025', 1, true],
      ['revenue by region in 2025', 2, true],
      ['top 2 regions by revenue in 2025', 2, true],
      ['average order in 2025', 1, true],
      ['orders by status in 2024', 2, true],
      ['how many orders', 1, false],
    ])('%s: the same answer as the source, each statement from the rollup', async (question, statements, fresh) => {
      const [fromRollup, fromSource] = [await ask(on, on.key, question), await ask(off, off.key, question)];
      expect(fromRollup.provenance.reveal).toBe('sales');
      expect(fromRollup.provenance.freshness !== null).toBe(fresh);
      expect(fromRollup.provenance.assumptions.map((a: { code: string }) => a.code).includes('no_rows')).toBe(!fresh);
      const { provenance, data, answer } = figures(fromRollup);
      const source = figures(fromSource);
      expect(answer).toBe(source.answer);
      expect(provenance).toEqual(source.provenance);
      expect(data.rows).toHaveLength(source.data.rows.length);
      // Sums and counts exactly; an average within the documented relative 1e-9.
      data.rows.forEach((row: Record<string, unknown>, i: number) => {
        for (const [key, value] of Object.entries(row)) {
          const expected = source.data.rows[i][key];
          if (typeof value === 'number' && !Number.isInteger(value)) expect(Math.abs(value - expected) / Math.abs(expected)).toBeLessThan(1e-9);
          else expect(value).toEqual(expected);
        }
      });
      expect(data.value === undefined).toBe(source.data.value === undefined);
      if (data.value !== undefined) expect(Math.abs(data.value - source.data.value)).toBeLessThanOrEqual(Math.abs(source.data.value) * 1e-9);
      expect(fromSource.provenance.rollups).toBeUndefined();
      expect(fromRollup.provenance.rollups).toHaveLength(statements);
      for (const entry of fromRollup.provenance.rollups) {
        expect(entry).toEqual({ statement: expect.stringMatching(/^(headline|breakdown)$/), name: 'daily', table: expect.stringMatching(/^orders__daily__/), partitions_built_at: builtAt, data_through: latest });
      }
    });

    it('a comparison of two years reads each period from the rollup, and says so per statement', async () => {
      const question = 'revenue by region in 2025 compared with 2024';
      const [fromRollup, fromSource] = [await ask(on, on.key, question), await ask(off, off.key, question)];
      expect(figures(fromRollup)).toEqual(figures(fromSource));
      expect(fromRollup.provenance.rollups.map((entry: { statement: string; name?: string }) => [entry.statement, entry.name])).toEqual([
        ['headline', 'daily'],
        ['current', 'daily'],
        ['comparison', 'daily'],
      ]);
    });

    it('a ranking leaves out the empty region from the stored groups as from the source', async () => {
      const body = await ask(on, on.key, 'top 2 regions by revenue in 2025');
      expect(body.provenance.assumptions.map((a: { code: string }) => a.code)).toContain('null_group_excluded');
    });

    it('is as fresh as the latest order in the period, read from the stored groups', async () => {
      const inYear = ROWS.filter((row) => row.createdAt.startsWith('2024')).map((row) => row.createdAt).sort();
      const body = await ask(on, on.key, 'revenue in 2024');
      expect(body.provenance.rollups[0].name).toBe('daily');
      expect(body.provenance.freshness).toBe(inYear.at(-1)!.slice(0, 10));
      expect(latest!.slice(0, 4)).toBe('2025');
    });

    it('says no rows are visible from the rollup as the source does, when data keys leave the asker nothing', async () => {
      await setAttributes(on, 'viewer', { region: 'atlantis', channel: ALL_ROWS });
      await setAttributes(off, 'viewer', { region: 'atlantis', channel: ALL_ROWS });
      const [onKey, offKey] = [(await createKey(on.t.services, on.ws, 'viewer', 'question')).value, (await createKey(off.t.services, off.ws, 'viewer', 'question')).value];
      const fromRollup = await ask(on, onKey, 'revenue in 2025');
      const fromSource = await ask(off, offKey, 'revenue in 2025');
      expect(fromRollup.provenance.assumptions.map((a: { code: string }) => a.code)).toContain('no_rows_visible');
      expect(fromRollup.provenance.rollups).toEqual([expect.objectContaining({ statement: 'headline', name: 'daily' })]);
      expect(figures(fromRollup)).toEqual(figures(fromSource));
    });

    it('never reads the rollup for an asker limited by a data key whose field it lacks', async () => {
      await setAttributes(on, 'viewer', { region: ALL_ROWS, channel: 'web' });
      await setAttributes(off, 'viewer', { region: ALL_ROWS, channel: 'web' });
      const [onKey, offKey] = [(await createKey(on.t.services, on.ws, 'viewer', 'question')).value, (await createKey(off.t.services, off.ws, 'viewer', 'question')).value];
      const fromRollup = await ask(on, onKey, 'revenue by region in 2025');
      expect(fromRollup.provenance.rollups).toEqual([
        { statement: 'headline', used: null, candidates: [{ name: 'daily', reason_code: 'lacks_data_key_field', reason: 'data key field channel is not in the rollup, so it could not keep each user to their rows' }] },
        { statement: 'breakdown', used: null, candidates: [{ name: 'daily', reason_code: 'lacks_data_key_field', reason: 'data key field channel is not in the rollup, so it could not keep each user to their rows' }] },
      ]);
      expect(figures(fromRollup)).toEqual(figures(await ask(off, offKey, 'revenue by region in 2025')));
    });

    it('answers from the source, with the reason, a question filtering on a field the rollup lacks or on a joined node', async () => {
      const byChannel = await ask(on, on.key, 'revenue in 2025 in channel web');
      expect(byChannel.provenance.rollups[0]).toEqual({ statement: 'headline', used: null, candidates: [{ name: 'daily', reason_code: 'lacks_filter_field', reason: 'lacks dimension channel, which a filter reads' }] });
      expect(figures(byChannel)).toEqual(figures(await ask(off, off.key, 'revenue in 2025 in channel web')));
      const byManager = await ask(on, on.key, 'revenue in 2025 for manager Avery');
      expect(byManager.provenance.rollups[0]).toEqual({ statement: 'headline', used: null, candidates: [{ name: 'daily', reason_code: 'lacks_filter_field', reason: 'lacks dimension managers.manager, which a filter reads' }] });
      expect(figures(byManager)).toEqual(figures(await ask(off, off.key, 'revenue in 2025 for manager Avery')));
    });

    it('explain names the rollup a question’s statement would be answered from, without running it', async () => {
      const principal = principalOf((await on.t.services.signalRows.owner(on.ws.id, on.ws.members.luminary.id))!, 'session');
      const live = await on.t.services.models.live(on.ws.id);
      const base = live.model.nodes.get('orders')!;
      const derived = [latestOf('__freshness', { kind: 'dimension', node: 'orders', name: 'created_at' }), rowMarkerOf('__visible', base)!];
      const query = { reveal: 'sales', metrics: ['revenue'], dimensions: ['region'], filters: [{ field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-12-31'] }], sorts: [], limit: 10 };
      const explained = await on.t.services.governed.explain({ principal, query: { kind: 'reveal', query, derived }, cache: 'off', maxRows: 10 });
      expect(explained.rollup).toEqual({ used: { name: 'daily', table: expect.stringMatching(/^orders__daily__/), partitionsBuiltAt: builtAt, dataThrough: latest } });
      expect(explained.sql).toMatch(/orders/);
      const joined = await on.t.services.governed.explain({ principal, query: { kind: 'reveal', query: { ...query, dimensions: ['managers.manager'] }, derived }, cache: 'off', maxRows: 10 });
      expect(joined.rollup).toEqual({ used: null, candidates: [{ name: 'daily', reasonCode: 'lacks_dimension', reason: 'lacks dimension managers.manager' }] });
    });
  });
}

questions('DuckDB warehouse', 'duckdb', async () => undefined);
if (withPostgres) {
  questions('PostgreSQL warehouse and metadata store', 'postgres', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    return database.url;
  });
}
