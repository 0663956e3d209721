// `npm run bench sql-api`: the same governed query through the SQL interface (node-postgres, one
// connection, the extended protocol with a parameter) and through C's /v1/query over HTTPS (one
// keep-alive socket), both over TLS on loopback, interleaved, with the result cache answering (hit) and
// with it off (miss: both read the DuckDB demo). Target: the SQL interface ≤ 1.1× C at p50. And psql
// 15's `\d orders` (its 8 catalog statements) on a warm catalog mirror: target ≤ 20 ms; and the same
// with every statement new to the mirror (nothing kept), for the record.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createLogger } from '../src/logger.js';
import { generateSelfSigned } from '../src/runtime-files.js';
import { setUpDemo } from '../src/demo-setup.js';
import { startSqlInterface } from '../src/sqlwire/sql-interface.js';
import { PSQL_D_ORDERS_LOOKUP, PSQL_D_TABLE } from '../test/sqlwire/catalog-client-queries.js';
import { benchWorkspace, startBenchApp } from './bench-app.js';
import { keepAlivePost } from './http-post.js';
import { interleaved } from './interleave.js';
import { percentile } from './timing.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 20);
const TARGET = 1.1;
const D_TARGET_MS = 20;
const CHANNEL = 'web';
const BODY = { node: 'orders', dimensions: ['status'], measures: ['order_count', 'gross_revenue'], filters: [{ field: 'channel', operator: 'equals', value: CHANNEL }], limit: 500 };
const SQL = 'SELECT status, MEASURE(order_count) AS order_count, MEASURE(gross_revenue) AS gross_revenue FROM orders WHERE channel = $1 GROUP BY status LIMIT 500';

async function measure(label: string, env: Record<string, string>): Promise<string[]> {
  const pems = await generateSelfSigned();
  const { app, services, close } = await startBenchApp({ env, tls: { key: pems.private, cert: pems.cert }, budgetWindowEvery: { readings: 500, windowMs: 60_000 } });
  const sql = await startSqlInterface({ services, settings: { port: 0, explicit: true, allowPlaintext: false, maxConnectionsPerWorkspace: 10, idleSeconds: 600 }, host: '127.0.0.1', tls: { key: pems.private, cert: pems.cert }, logger: createLogger('silent') });
  let client: pg.Client | undefined;
  try {
    const { ws, user, key } = await benchWorkspace(services, 'SqlApi', 'structured');
    await setUpDemo(services, { workspaceId: ws.id, userId: user.id, email: user.email });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const rest = keepAlivePost((app.server.address() as AddressInfo).port, { ca: pems.cert });
    client = new pg.Client({ host: '127.0.0.1', port: sql.port, database: 'demo', user: 'bench', password: key, ssl: { ca: pems.cert, servername: 'localhost' } });
    await client.connect();
    const connected = client;
    const auth = { authorization: `Bearer ${key}` };
    const figures = await interleaved(
      {
        rest: () => rest.post('/v1/query', auth, BODY),
        sql: () => connected.query(SQL, [CHANNEL]),
      },
      { rounds: ROUNDS, perRound: PER_ROUND },
    );
    rest.close();
    const ratio = figures.sql.p50 / figures.rest.p50;
    const lines = [
      `  ${label}: C /v1/query (HTTPS) p50 ${figures.rest.p50.toFixed(2)} ms (p99 ${figures.rest.p99.toFixed(2)}), SQL interface p50 ${figures.sql.p50.toFixed(2)} ms (p99 ${figures.sql.p99.toFixed(2)}): ` +
        `${ratio.toFixed(2)}× (target ≤ ${TARGET}× ${ratio <= TARGET ? 'met' : 'NOT MET'})`,
    ];
    if (label === 'cache hit') lines.push(...(await describeOrders(connected)));
    return lines;
  } finally {
    await client?.end().catch(() => undefined);
    await sql.close();
    await close();
  }
}

/**
 * psql's \d orders: the lookup of the table, then its 8 statements, on a warm mirror: as psql sends
 * them (the mirror has their answers kept), and each made new with a comment (every statement is
 * analysed and run by the mirror's PostgreSQL, as the first time a client sends it).
 */
async function describeOrders(client: pg.Client): Promise<string[]> {
  const once = async (fresh?: number) => {
    const text = (sql: string) => (fresh === undefined ? sql : sql.replace(/^SELECT /, `SELECT /* ${fresh} */ `));
    const { rows } = await client.query(text(PSQL_D_ORDERS_LOOKUP));
    for (const statement of PSQL_D_TABLE) await client.query(text(statement.replaceAll('{oid}', String(rows[0].oid))));
  };
  const measureOnce = async (fresh: boolean) => {
    for (let i = 0; i < 5; i++) await once(fresh ? -i - 1 : undefined);
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const started = performance.now();
      await once(fresh ? i : undefined);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  };
  const kept = await measureOnce(false);
  const fresh = await measureOnce(true);
  const label = `\\d orders (psql 15's ${PSQL_D_TABLE.length + 1} statements, warm mirror, over the wire)`;
  return [
    `  ${label}: p50 ${kept.p50.toFixed(1)} ms, p99 ${kept.p99.toFixed(1)} ms (target ≤ ${D_TARGET_MS} ms ${kept.p50 <= D_TARGET_MS ? 'met' : 'NOT MET'})`,
    `  ${label.replace('statements', 'statements, each new to the mirror')}: p50 ${fresh.p50.toFixed(1)} ms, p99 ${fresh.p99.toFixed(1)} ms`,
  ];
}

export async function benchSqlApi(): Promise<string[]> {
  return [
    `SQL interface (PostgreSQL protocol, pg) vs C /v1/query over HTTPS, interleaved (${ROUNDS} rounds × ${PER_ROUND}), DuckDB demo; ${SQL}`,
    ...(await measure('cache hit', {})),
    ...(await measure('cache miss (result cache off)', { SVC_RESULT_CACHE_SECONDS: '0' })),
  ];
}
