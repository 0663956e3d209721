// Routing keeps a rollup's build records in process (rollup-partition-cache.ts) under the workspace's
// rollups generation: a build that succeeds moves it, so the next query reads the new records, on the
// instance that built and, through Redis, on every other. On PGlite and PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClaimedRollupBuild } from '../../src/store/rollup-builds-repo.js';
import { createKey, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';
import { createTestDatabase, hasService, REDIS_URL } from '../helpers/services.js';
import { factRows, loadDuckDbFacts } from './fact-table.js';

const ROWS = factRows(500, 5);
/** Each test starts its own app(s), store included: PGlite's start alone can take seconds on a busy machine. */
const SETUP_MS = 120_000;
const withPostgres = await hasService('postgres');
const withRedis = withPostgres && (await hasService('redis'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const MODEL = `node orders {
  connection: warehouse  table: main.orders
  dimension id { type: number  primary_key: true }
  dimension region { type: string }
  dimension amount { type: number }
  dimension created_at { type: timestamp }
  measure order_count { type: count }
  measure revenue { type: sum  sql: \${amount} }
  rollup yearly { dimensions: [region]  measures: [revenue, order_count]  time: created_at  grain: month  partition: year  refresh: on_deploy }
}
`;
const BY_REGION = { node: 'orders', dimensions: ['region'], measures: ['revenue', 'order_count'], sorts: [{ field: 'region', direction: 'asc' }] };

async function startApp(dataDir: string, databaseUrl?: string, redisUrl?: string): Promise<TestApp> {
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir }, ...(databaseUrl ? { databaseUrl } : {}), ...(redisUrl ? { redisUrl } : {}) });
  cleanups.push(() => t.close());
  return t;
}

/** A workspace on `t` with the fact table and the model deployed (its builds planned, none run). */
async function workspaceWithRollup(t: TestApp, dataDir: string): Promise<{ ws: SeededWorkspace; key: string }> {
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const ws = await seedWorkspace(t.services);
  const directory = t.services.connections.directoryOf(ws.id);
  mkdirSync(directory, { recursive: true });
  await loadDuckDbFacts(path.join(directory, 'facts.duckdb'), ROWS);
  await t.services.connections.create(ws.id, { name: 'warehouse', engine: 'duckdb', settings: { path: 'facts.duckdb' } });
  const lum = ws.members.luminary;
  await t.services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, 'facts', [{ path: 'facts.cml', content: MODEL }], { message: 'facts', projectName: 'Facts' });
  return { ws, key: (await createKey(t.services, ws, 'luminary', 'structured')).value };
}

/** Runs every planned build but the latest partition's, which is returned claimed and not run. */
async function buildAllButLatest(t: TestApp): Promise<ClaimedRollupBuild> {
  const claimed = await t.services.rollupBuildRows.claimDue(t.clock.now(), 600_000, 100);
  expect(claimed.length).toBeGreaterThan(1);
  const latest = claimed.reduce((a, b) => (b.partition_start > a.partition_start ? b : a));
  for (const row of claimed) if (row !== latest) expect(await t.services.rollupBuilds.runClaimed(row)).toBe(true);
  return latest;
}

function ask(t: TestApp, key: string) {
  return t.app.inject({ method: 'POST', url: '/v1/query', headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' }, payload: BY_REGION });
}

async function rollupOf(t: TestApp, key: string): Promise<{ used?: null; name?: string; candidates?: Array<{ name: string; reason_code: string }> }> {
  const response = await ask(t, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().metadata.rollup;
}

function afterABuild(name: string, databaseUrl: () => Promise<string | undefined>) {
  it(`a query after a new build reads its record, not the records kept before it (${name})`, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rollcache-'));
    const t = await startApp(dataDir, await databaseUrl());
    const { key } = await workspaceWithRollup(t, dataDir);
    const latest = await buildAllButLatest(t);
    // Twice: the second is answered from the records kept by the first.
    for (let i = 0; i < 2; i++) expect((await rollupOf(t, key)).candidates).toEqual([expect.objectContaining({ name: 'yearly', reason_code: 'partial' })]);
    expect(await t.services.rollupBuilds.runClaimed(latest)).toBe(true);
    expect(await rollupOf(t, key)).toMatchObject({ name: 'yearly' });
  }, SETUP_MS);
}

describe('rollup build records kept for routing', () => {
  afterABuild('PGlite', async () => undefined);

  describe.runIf(withPostgres)('on PostgreSQL', () => {
    afterABuild('PostgreSQL', async () => {
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      return db.url;
    });
  });

  describe.runIf(withRedis)('two instances sharing PostgreSQL and Redis', () => {
    it('a build on one instance is read by the other on its next query', async () => {
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      const dataDir = mkdtempSync(path.join(tmpdir(), 'rollcache-two-'));
      const one = await startApp(dataDir, db.url, REDIS_URL);
      const two = await startApp(dataDir, db.url, REDIS_URL);
      const { key } = await workspaceWithRollup(one, dataDir);
      const latest = await buildAllButLatest(one);
      for (let i = 0; i < 2; i++) expect((await rollupOf(two, key)).candidates).toEqual([expect.objectContaining({ name: 'yearly', reason_code: 'partial' })]);
      expect(await one.services.rollupBuilds.runClaimed(latest)).toBe(true);
      expect(await rollupOf(two, key)).toMatchObject({ name: 'yearly' });
    }, SETUP_MS);
  });
});
