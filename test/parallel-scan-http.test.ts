// A large grouped scan asked through the service (surfaces B and D) runs with PostgreSQL's parallel
// workers, as the same SQL does from PostgreSQL's own client: the driver must not read through a
// cursor, which makes PostgreSQL run the whole plan in one process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, seedWorkspace, signIn, startTestApp, type SeededWorkspace, type TestApp } from './helpers/app.js';
import { createTestDatabase, hasService } from './helpers/services.js';

// Which process computed a row: a parallel worker answers with its own pid. PL/pgSQL, so that the
// planner cannot inline it and see pg_backend_pid(), which is parallel-restricted.
const EXECUTOR_PID = `create function executor_pid(int) returns int language plpgsql parallel safe as $$ begin return pg_backend_pid(); end $$`;
const GROUPED_BY_PROCESS = 'select executor_pid(id) as pid, count(*) as n from big group by 1';

describe.skipIf(!(await hasService('postgres')))('parallel plans through the service', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-parallel-'));
  let t: TestApp;
  let ws: SeededWorkspace;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let connectionId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true', SVC_DATA_DIR: dataDir } });
    ws = await seedWorkspace(t.services);
    database = await createTestDatabase();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const url = new URL(database.url);
    const name = url.pathname.slice(1);
    await admin.query('create table big as select g as id from generate_series(1, 200000) g');
    await admin.query('analyze big');
    // Costs that make the planner split even a modest table on a small machine.
    for (const setting of ['parallel_setup_cost = 0', 'parallel_tuple_cost = 0', 'min_parallel_table_scan_size = 0']) {
      await admin.query(`alter database "${name}" set ${setting}`);
    }
    await admin.query(EXECUTOR_PID);
    await admin.end();
    // The baseline: PostgreSQL's own client, on a session opened with the database's new settings, splits the scan.
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    expect((await direct.query(GROUPED_BY_PROCESS)).rows.length).toBeGreaterThan(1);
    await direct.end();
    const settings = { host: url.hostname, port: Number(url.port || 5432), database: name, user: url.username };
    connectionId = (await t.services.connections.create(ws.id, { name: 'pg', engine: 'postgres', settings })).id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('B: POST /api/v1/query', async () => {
    const key = (await createKey(t.services, ws, 'luminary', 'workspace', { rateLimit: 1_000_000 })).value;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/query',
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' },
      payload: { connection_id: connectionId, sql: GROUPED_BY_PROCESS },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().row_count).toBeGreaterThan(1);
  });

  it('D: POST /api/studio/query', async () => {
    const cookie = await signIn(t.app, ws.members.tracer.email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/studio/query',
      headers: { cookie, 'x-forwarded-proto': 'https' },
      payload: { connection: 'pg', sql: GROUPED_BY_PROCESS },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().rows.length).toBeGreaterThan(1);
  });
});
