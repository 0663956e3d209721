// One app for the differential test of the SQL interface: HTTPS for C and the SQL interface on the same
// certificate, the result cache off (each side runs its own query on the warehouse), and per warehouse a
// workspace whose `warehouse` connection holds the demo data (DuckDB in the workspace's directory, or a
// fresh PostgreSQL database), the demo model deployed as project `demo`, and two members whose `region`
// attributes give them different rows of `orders` (its data key), each with a structured key.
// The generated demo data has no NULLs; a few columns get some here (the same rows on every engine), so
// that SQL's three-valued logic is tested against C's operators.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { loadDuckDb, loadPostgres } from '../../src/core/demo/index.js';
import { DEMO_CONNECTION, DEMO_MODEL_DIR, DEMO_PROJECT, DEMO_WAREHOUSE_FILE, readModelDir } from '../../src/demo-setup.js';
import { IDENTITY_GENERATION } from '../../src/identity/generations.js';
import { createLogger } from '../../src/logger.js';
import { generateSelfSigned } from '../../src/runtime-files.js';
import { startSqlInterface, type SqlInterface } from '../../src/sqlwire/sql-interface.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_NOW } from '../helpers/clock.js';
import { request } from '../helpers/http-client.js';
import { createTestDatabase } from '../helpers/services.js';

export type WarehouseEngine = 'duckdb' | 'postgres';

/** Orders in each warehouse: enough for every status × channel × month to have rows. */
export const DIFFERENTIAL_ORDERS = 2_000;

/** Rows set to NULL after loading, by id: the same rows on every engine. */
const NULLS: ReadonlyArray<{ table: string; column: string; where: string }> = [
  { table: 'orders', column: 'channel', where: 'id % 7 = 0' },
  { table: 'orders', column: 'status', where: 'id % 11 = 3' },
  { table: 'orders', column: 'created_at', where: 'id % 29 = 5' },
  { table: 'customers', column: 'segment', where: 'id % 5 = 0' },
  { table: 'products', column: 'category', where: 'id % 13 = 0' },
  { table: 'order_items', column: 'quantity', where: 'id % 17 = 0' },
];
const NULLS_SQL = NULLS.flatMap(({ table, column, where }) => [
  `ALTER TABLE shop.${table} ALTER COLUMN ${column} DROP NOT NULL`,
  `UPDATE shop.${table} SET ${column} = NULL WHERE ${where}`,
]);

export interface Member {
  /** The member's `region` attribute: the only `orders.ship_region` whose rows they read. */
  readonly region: string;
  /** A structured key with the query scope, for C and for the SQL connection alike. */
  readonly key: string;
}

export interface WarehouseWorkspace {
  readonly engine: WarehouseEngine;
  readonly timezone: string;
  readonly members: readonly [Member, Member];
}

export interface DifferentialApp {
  readonly t: TestApp;
  readonly sql: SqlInterface;
  /** A `pg` client config for the SQL interface: TLS verified, every value left as PostgreSQL's text. */
  clientConfig(key: string): pg.ClientConfig;
  /** POST /v1/query over HTTPS with `key`: the status and the parsed body. */
  queryC(key: string, body: object): Promise<{ status: number; body: { data?: Array<Record<string, unknown>>; metadata?: { truncated: boolean; cached: boolean }; error?: unknown } }>;
  /** A workspace on `engine`, with the demo and its two members (made once per engine). */
  workspace(engine: WarehouseEngine, timezone: string): Promise<WarehouseWorkspace>;
}

const RAW_TEXT: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

/** Starts the app before the file's tests and closes it, and what it made, after them. */
export function differentialApp(): () => DifferentialApp {
  let app: DifferentialApp | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'svc-sql-diff-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const pems = await generateSelfSigned();
    const tls = { key: pems.private, cert: pems.cert };
    const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, SVC_RESULT_CACHE_SECONDS: '0' }, tls });
    cleanups.unshift(() => t.close());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const httpsPort = (t.app.server.address() as { port: number }).port;
    const sql = await startSqlInterface({
      services: t.services,
      settings: { port: 0, explicit: true, allowPlaintext: false, maxConnectionsPerWorkspace: 20, idleSeconds: 600 },
      host: '127.0.0.1',
      tls,
      logger: createLogger('warn'),
    });
    cleanups.unshift(() => sql.close());
    app = {
      t,
      sql,
      clientConfig: (key) => ({ host: '127.0.0.1', port: sql.port, user: 'analyst', password: key, database: DEMO_PROJECT, ssl: { ca: pems.cert, servername: 'localhost' }, types: RAW_TEXT }),
      async queryC(key, body) {
        const response = await request(`https://127.0.0.1:${httpsPort}/v1/query`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          ca: pems.cert,
        });
        return { status: response.status, body: JSON.parse(response.body) };
      },
      workspace: (engine, timezone) => warehouseWorkspace(t, engine, timezone, cleanups),
    };
  }, 120_000);
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });
  return () => app!;
}

async function warehouseWorkspace(t: TestApp, engine: WarehouseEngine, timezone: string, cleanups: Array<() => Promise<void>>): Promise<WarehouseWorkspace> {
  const { services } = t;
  const ws = await seedWorkspace(services);
  const demo = { orders: DIFFERENTIAL_ORDERS, now: TEST_NOW };
  if (engine === 'duckdb') {
    const directory = services.connections.directoryOf(ws.id);
    await mkdir(directory, { recursive: true });
    const file = path.join(directory, DEMO_WAREHOUSE_FILE);
    await loadDuckDb(file, demo);
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    for (const statement of NULLS_SQL) await connection.run(statement);
    connection.closeSync();
    instance.closeSync();
    await services.connections.create(ws.id, { name: DEMO_CONNECTION, engine: 'duckdb', settings: { path: DEMO_WAREHOUSE_FILE } });
  } else {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    await loadPostgres(db.url, demo);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    for (const statement of NULLS_SQL) await client.query(statement);
    await client.end();
    const url = new URL(db.url);
    await services.connections.create(ws.id, { name: DEMO_CONNECTION, engine: 'postgres', settings: { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: url.username } });
  }
  const lum = ws.members.luminary;
  await services.models.deploy({ workspaceId: ws.id, userId: lum.id, email: lum.email }, DEMO_PROJECT, await readModelDir(DEMO_MODEL_DIR), { projectName: 'Demo' });
  await t.store.db.updateTable('workspaces').set({ timezone }).where('id', '=', ws.id).execute();
  // Two members, each reading one region's orders: a viewer and an editor (both may hold a query key).
  const regions = { viewer: 'Europe', editor: 'North America' } as const;
  for (const [role, region] of Object.entries(regions)) {
    await t.store.db.updateTable('memberships').set({ attributes: JSON.stringify({ region }) }).where('workspace_id', '=', ws.id).where('user_id', '=', ws.members[role as keyof typeof regions].id).execute();
  }
  await services.shared.bump(IDENTITY_GENERATION);
  const keyOf = async (role: keyof typeof regions) => ({ region: regions[role], key: (await createKey(services, ws, role, 'structured', { scopes: ['query'] })).value });
  return { engine, timezone, members: [await keyOf('viewer'), await keyOf('editor')] };
}
