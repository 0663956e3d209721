// `npm run bench overhead`: what a warehouse run through the service costs beside the engine's own
// client sending the same SQL over the same kind of socket (pg over TCP to 127.0.0.1:5432, mysql2 over
// TCP to MariaDB, a kept-open @duckdb/node-api connection on the same file). The service listens on a
// real port and is asked over loopback HTTP with keep-alive; in-process figures (app.inject, and the
// driver's run() alone) are shown beside. Rounds are interleaved (bench/interleave.ts); figures are
// medians of per-round medians. Writes bench/results/<section>.json. `npm run bench raw-sql` is this
// bench restricted to the raw SQL rows (surfaces B and D), with the same baselines.
// Every baseline ends with the rows in JavaScript, as the service's answer needs them: pg and mysql2
// return them parsed; DuckDB's client materialises the result natively and getRows() reads it out.
// The service's metadata store is a scratch PostgreSQL database and its shared state Redis, when Redis
// answers (else in process, as the title says). Each row is also given as its floor (GET /healthz over
// the same socket plus the engine client's own time) and the route's own work above it, in µs; an
// authenticated, rate-limited no-op is set beside a bare one, its requests per second as a fraction.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { NO_OP_ROUTES, noOpRoutes, startBenchApp } from './bench-app.js';
import { keepAlivePost } from './http-post.js';
import { hostPort, reachable } from './platform-bench.js';
import { interleaved, type Interleaved } from './interleave.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';
import { hashPassword } from '../src/identity/passwords.js';
import { loadMysql, loadPostgres } from '../src/core/demo/index.js';
import { compileQuery } from '../src/core/semantic/compile.js';
import { semanticQuerySchema } from '../src/core/semantic/query.js';
import { DIALECTS } from '../src/core/sql/dialects.js';
import { setUpDemo } from '../src/demo-setup.js';

const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 40);
const BIG_ROWS = Number(process.env.BENCH_BIG_ROWS ?? 2_000_000);
/** Only the rows whose label starts with this (say `D` or `C`); every row when unset. */
const ONLY = process.env.BENCH_ONLY;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const LOOKUP = { node: 'orders', dimensions: ['id', 'status', 'channel'], measures: ['gross_revenue'], filters: [{ field: 'id', operator: 'equals', value: 4242 }] };
const ONE_ROW_SQL = 'SELECT id, status, channel, amount FROM shop.orders WHERE id = 4242';
const ONE_ROW_MYSQL_SQL = 'SELECT id, status, channel, amount FROM orders WHERE id = 4242';
const THOUSAND_ROWS_SQL = 'SELECT id, status, channel, amount, created_at FROM shop.orders ORDER BY id LIMIT 1000';
const GROUPED_SQL = 'SELECT k, count(*) AS n, sum(v) AS total FROM shop.big GROUP BY k';

export interface OverheadOptions {
  /** The section's name: the title and the results file (bench/results/<name>.json). */
  readonly name: string;
  readonly title: string;
  /** The rows whose label starts with one of these; every row when absent (BENCH_ONLY narrows further). */
  readonly only?: readonly string[];
}

const OVERHEAD: OverheadOptions = { name: 'overhead', title: 'Warehouse overhead' };
/** Raw SQL through surfaces B (/api/v1/query) and D (/api/studio/query), every engine that answers. */
export const RAW_SQL: OverheadOptions = { name: 'raw-sql', title: 'Raw SQL (surfaces B and D) overhead', only: ['B ', 'D '] };

interface Row {
  readonly label: string;
  readonly target: string;
  readonly client: Interleaved;
  readonly driver: Interleaved;
  readonly inProcess: Interleaved;
  readonly http: Interleaved;
}

export async function benchOverhead(options: OverheadOptions = OVERHEAD): Promise<string[]> {
  const wanted = (label: string) => (!options.only || options.only.some((prefix) => label.startsWith(prefix))) && (!ONLY || label.startsWith(ONLY));
  const results = fileURLToPath(new URL(`./results/${options.name}.json`, import.meta.url));
  // The metadata store on PostgreSQL and the shared state in Redis, as in production. Redis counts
  // surface C's budget per workspace (1,000 a minute): keep BENCH_ROUNDS × BENCH_PER_ROUND × 2 below it.
  const storeDb = await createScratchPostgres('svc_bench_store');
  const redisUrl = (await reachable(hostPort(REDIS_URL, 6379))) ? REDIS_URL : undefined;
  const bench = await startBenchApp({
    env: { TRUST_PROXY: 'true' },
    budgetWindowEvery: { readings: 500, windowMs: 60_000 },
    databaseUrl: storeDb.url,
    ...(redisUrl ? { redisUrl } : {}),
    extraRoutes: noOpRoutes,
  });
  const { app, services } = bench;
  let scratch: ScratchPostgres | undefined;
  let pgClient: pg.Client | undefined;
  // MariaDB's scratch database, named like PostgreSQL's (dropped below when it was made).
  let mariaDbName = '';
  let duck: DuckDBInstance | undefined;
  let maria: mysql.Connection | undefined;
  const rows: Row[] = [];
  const lines = [
    `${options.title}: ${ROUNDS} interleaved rounds × ${PER_ROUND}; ms, median of round medians (p99 over all samples); store PostgreSQL, shared state ${redisUrl ? 'Redis' : 'in process (Redis not reachable)'}`,
    '  client = the engine\'s own client, same SQL; driver = warehouse.run() in process; inject = the route in process; HTTP = a listening server over loopback',
  ];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const http = keepAlivePost(port);

    const passwordHash = await hashPassword('bench password');
    const workspace = async (name: string) => {
      const ws = await services.members.createWorkspace({ name, plan: 'team' });
      const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`;
      const user = await services.members.createUser({ email, name, passwordHash });
      await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
      const actor = { workspace: { id: ws.id, plan: 'team' }, user: { id: user.id }, role: 'luminary' as const };
      const structuredKey = (await services.keys.create(actor, { name: 'bench-c', surface: 'structured' })).value;
      const workspaceKey = (await services.keys.create(actor, { name: 'bench-b', surface: 'workspace', rateLimit: 2_000_000_000 })).value;
      const questionKey = (await services.keys.create(actor, { name: 'bench-a', surface: 'question', rateLimit: 2_000_000_000 })).value;
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'bench password' } });
      const cookie = `svc_session=${login.cookies.find((c) => c.name === 'svc_session')!.value}`;
      return { ws, user, email, structuredKey, workspaceKey, questionKey, cookie };
    };

    // PostgreSQL: the demo data (100k orders) and a table big enough for a parallel grouped scan.
    scratch = await createScratchPostgres();
    const dbName = (mariaDbName = scratch.name);
    await loadPostgres(scratch.url, { orders: 100_000, now: new Date() });
    const client = (pgClient = new pg.Client({ connectionString: scratch.url }));
    await client.connect();
    await client.query(`create table shop.big as select g as id, g % 1000 as k, (g % 977)::float8 as v from generate_series(1, ${BIG_ROWS}) g`);
    await client.query('vacuum analyze shop.big');
    const pgSpace = await workspace('Pg');
    await services.connections.create(pgSpace.ws.id, {
      name: 'warehouse',
      engine: 'postgres',
      settings: scratch.settings,
    });
    await setUpDemo(services, { workspaceId: pgSpace.ws.id, userId: pgSpace.user.id, email: pgSpace.email }, { orders: 1_000 });
    const duckSpace = await workspace('Duck');
    const { warehouseFile } = await setUpDemo(services, { workspaceId: duckSpace.ws.id, userId: duckSpace.user.id, email: duckSpace.email });

    // MariaDB, when it answers: the demo data in a database of its own, read by mysql2 over TCP.
    if (wanted('B raw SQL, 1 row, MariaDB')) {
      try {
        const mysqlUrl = new URL(MYSQL_URL);
        await loadMysql(MYSQL_URL, { orders: 20_000, now: new Date(), database: dbName });
        maria = await mysql.createConnection({ host: mysqlUrl.hostname, port: Number(mysqlUrl.port || 3306), user: decodeURIComponent(mysqlUrl.username), database: dbName });
        await services.connections.create(pgSpace.ws.id, {
          name: 'maria',
          engine: 'mysql',
          settings: { host: mysqlUrl.hostname, port: Number(mysqlUrl.port || 3306), database: dbName, user: decodeURIComponent(mysqlUrl.username) },
        });
      } catch (error) {
        lines.push(`  MariaDB: skipped (${error instanceof Error ? error.message : String(error)})`);
        maria = undefined;
      }
    }

    // The baselines: pg over TCP with the same SQL and values; DuckDB's client on a kept-open connection.
    duck = await DuckDBInstance.create(warehouseFile, { access_mode: 'READ_ONLY' });
    const duckConnection = await duck.connect();

    const structured = async (space: typeof pgSpace, label: string, maxRows = 5000) => {
      if (!wanted(label)) return;
      const live = await services.models.live(space.ws.id);
      const { connection, warehouse } = await services.connections.warehouse(space.ws.id, 'warehouse');
      const compiled = compileQuery(live.model, semanticQuerySchema.parse(LOOKUP), { dialect: DIALECTS[connection.engine], attributes: { region: '*' }, now: new Date() });
      const headers = { authorization: `Bearer ${space.structuredKey}`, 'cache-control': 'no-cache' };
      const baseline =
        connection.engine === 'postgres'
          ? () => client.query({ text: compiled.sql, values: [...compiled.params], rowMode: 'array' })
          : async () => (await duckConnection.runAndReadAll(compiled.sql, compiled.params as DuckDBValue[])).getRows();
      const figures = await interleaved(
        {
          client: baseline,
          driver: () => warehouse.run(compiled.sql, compiled.params, { maxRows, timeoutMs: 30_000 }),
          inProcess: async () => {
            const r = await app.inject({ method: 'POST', url: '/v1/query', headers, payload: LOOKUP });
            if (r.statusCode !== 200) throw new Error(r.body);
          },
          http: () => http.post('/v1/query', headers, LOOKUP),
        },
        { rounds: ROUNDS, perRound: PER_ROUND },
      );
      rows.push({ label, target: connection.engine, ...figures });
    };

    // Raw SQL on the PostgreSQL connection, or on another (of another workspace) with its own client.
    const raw = async (surface: 'B' | 'D', label: string, sql: string, perRound = PER_ROUND, on?: { space?: typeof pgSpace; name?: string; client: () => Promise<unknown> }) => {
      if (!wanted(`${surface} ${label}`)) return;
      const space = on?.space ?? pgSpace;
      const name = on?.name ?? 'warehouse';
      const { connection, warehouse } = await services.connections.warehouse(space.ws.id, name);
      const route = surface === 'B' ? '/api/v1/query' : '/api/studio/query';
      const headers: Record<string, string> = surface === 'B' ? { authorization: `Bearer ${space.workspaceKey}`, 'x-forwarded-proto': 'https' } : { cookie: space.cookie };
      const body = surface === 'B' ? { connection_id: connection.id, sql } : { connection: name, sql, limit: 1000 };
      const figures = await interleaved(
        {
          client: on?.client ?? (() => client.query({ text: sql, rowMode: 'array' })),
          driver: () => warehouse.run(sql, [], { maxRows: 1000, timeoutMs: 30_000 }),
          inProcess: async () => {
            const r = await app.inject({ method: 'POST', url: route, headers, payload: body });
            if (r.statusCode !== 200) throw new Error(r.body);
          },
          http: () => http.post(route, headers, body),
        },
        { rounds: ROUNDS, perRound, warmUp: Math.min(20, perRound) },
      );
      rows.push({ label: `${surface} ${label}`, target: connection.engine, ...figures });
    };

    await structured(pgSpace, 'C uncached, 1-row indexed lookup');
    await structured(duckSpace, 'C uncached, 1-row lookup');
    await raw('B', 'raw SQL, 1 row', ONE_ROW_SQL);
    await raw('D', 'raw SQL, 1 row', ONE_ROW_SQL);
    await raw('B', 'raw SQL, 1,000 rows', THOUSAND_ROWS_SQL);
    await raw('D', 'raw SQL, 1,000 rows', THOUSAND_ROWS_SQL);
    // DuckDB: the same SQL through @duckdb/node-api on its kept-open connection to the same file.
    const onDuck = (sql: string) => ({ space: duckSpace, client: async () => (await duckConnection.runAndReadAll(sql)).getRows() });
    await raw('B', 'raw SQL, 1 row, DuckDB', ONE_ROW_SQL, PER_ROUND, onDuck(ONE_ROW_SQL));
    await raw('D', 'raw SQL, 1 row, DuckDB', ONE_ROW_SQL, PER_ROUND, onDuck(ONE_ROW_SQL));
    await raw('B', 'raw SQL, 1,000 rows, DuckDB', THOUSAND_ROWS_SQL, PER_ROUND, onDuck(THOUSAND_ROWS_SQL));
    await raw('D', 'raw SQL, 1,000 rows, DuckDB', THOUSAND_ROWS_SQL, PER_ROUND, onDuck(THOUSAND_ROWS_SQL));
    if (maria) {
      const own = maria;
      await raw('B', 'raw SQL, 1 row, MariaDB', ONE_ROW_MYSQL_SQL, PER_ROUND, { name: 'maria', client: () => own.query({ sql: ONE_ROW_MYSQL_SQL, rowsAsArray: true }) });
    }
    await raw('B', `grouped scan of ${BIG_ROWS.toLocaleString('en')} rows`, GROUPED_SQL, Math.max(3, Math.round(PER_ROUND / 10)));
    // The floor: what a request that does nothing costs through the same client and server.
    const floor = await interleaved({ client: () => client.query({ text: ONE_ROW_SQL, rowMode: 'array' }), http: () => http.get('/healthz') }, { rounds: ROUNDS, perRound: PER_ROUND });
    // An authenticated, rate-limited no-op beside a bare one, one keep-alive socket each in turn: its
    // share of the bare route's requests per second is the inverse ratio of their latencies.
    const authedHeaders = { authorization: `Bearer ${pgSpace.questionKey}` };
    const noOp = await interleaved(
      { bare: () => http.get(NO_OP_ROUTES.bare), authed: () => http.post(NO_OP_ROUTES.authed, authedHeaders) },
      { rounds: ROUNDS, perRound: PER_ROUND, warmUp: 20 },
    );
    http.close();
    duckConnection.closeSync();

    const fmt = (r: Interleaved) => `${r.p50.toFixed(2).padStart(7)} (${r.p99.toFixed(1)})`;
    const ratio = (r: Interleaved, base: Interleaved) => `${(r.p50 / base.p50).toFixed(2)}×`.padStart(6);
    for (const row of rows) {
      lines.push(`  ${row.label.padEnd(34)} ${row.target.padEnd(8)} client ${fmt(row.client)}`);
      lines.push(`    driver ${fmt(row.driver)} ${ratio(row.driver, row.client)}   inject ${fmt(row.inProcess)} ${ratio(row.inProcess, row.client)}   HTTP ${fmt(row.http)} ${ratio(row.http, row.client)}`);
    }
    lines.push(`  HTTP floor: GET /healthz (no work) ${floor.http.p50.toFixed(2)} ms, ${(floor.http.p50 / floor.client.p50).toFixed(2)}× the pg 1-row lookup (${floor.client.p50.toFixed(2)} ms)`);
    // The route's own work: its HTTP time less the floor (GET /healthz, and the engine's own client).
    const µs = (ms: number) => `${Math.round(ms * 1000)}`.padStart(6);
    const aboveFloor = (row: Row) => row.http.p50 - floor.http.p50 - row.client.p50;
    lines.push(`  Above the floor (µs; floor = GET /healthz + the engine client's own time; target ≤ 150 for C uncached):`);
    for (const row of rows) lines.push(`    ${row.label.padEnd(34)} ${row.target.padEnd(8)} floor ${µs(floor.http.p50 + row.client.p50)}   route ${µs(aboveFloor(row))}`);
    const noOpShare = noOp.bare.p50 / noOp.authed.p50;
    lines.push(
      `  No-op: bare ${(noOp.bare.p50 * 1000).toFixed(0)} µs, authenticated + rate-limited ${(noOp.authed.p50 * 1000).toFixed(0)} µs (${µs(noOp.authed.p50 - noOp.bare.p50).trim()} µs above); ` +
        `rps ${(noOpShare * 100).toFixed(0)} % of bare on one socket, so bound by latency (the ≥ 80 % target is for 32 connections: \`npm run bench platform\`)`,
    );
    mkdirSync(path.dirname(results), { recursive: true });
    const json = rows.map((row) => ({
      ...row,
      ratios: { driver: row.driver.p50 / row.client.p50, inProcess: row.inProcess.p50 / row.client.p50, http: row.http.p50 / row.client.p50 },
      floorMs: floor.http.p50 + row.client.p50,
      aboveFloorMs: aboveFloor(row),
    }));
    const noOpJson = { ...noOp, rpsShareOfBare: noOpShare };
    writeFileSync(results, `${JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, perRound: PER_ROUND, redis: Boolean(redisUrl), rows: json, httpFloor: floor, noOp: noOpJson }, null, 2)}\n`);
    lines.push(`  written to ${path.relative(process.cwd(), results)}`);
  } finally {
    duck?.closeSync();
    if (maria) {
      await maria.query(`drop database if exists \`${mariaDbName}\``).catch(() => {});
      await maria.end().catch(() => {});
    }
    await pgClient?.end().catch(() => {});
    await bench.close();
    await scratch?.drop();
    await storeDb.drop();
  }
  return lines;
}
