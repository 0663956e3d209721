// `npm run bench csv-export`: the editor's CSV export of a million rows over HTTP, streamed from the
// driver, on DuckDB and (when it answers) PostgreSQL and MariaDB: the process's resident memory is
// sampled while the file comes in, and its growth over the start compared with what holding the same
// rows as one result costs (the driver's run(), which the export used before it streamed). Each
// engine's export runs twice: the first pays one-time costs (on PostgreSQL, the read-only guard's
// parser, libpg-query's WebAssembly, spikes RSS by about 500 MiB for a few seconds after its first use,
// outside the JS heap, with no export running at all: that spike, not the rows, is the first figure);
// the second is the steady state the target is about.
// Target: the second streamed export's RSS growth stays under 64 MiB, whatever the row count.
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import mysql from 'mysql2/promise';
import { workspaceDirectory } from '../src/connections/workspace-files.js';
import { hashPassword } from '../src/identity/passwords.js';
import { mysqlNumbers } from '../test/helpers/mysql-numbers.js';
import { startBenchApp } from './bench-app.js';
import { peakGrowth } from './rss.js';
import { createScratchPostgres, type ScratchPostgres } from './scratch-postgres.js';

const ROWS = 1_000_000;
const TARGET_MIB = 64;
const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const MiB = 1024 * 1024;

const SQL: Record<string, string> = {
  duckdb: `SELECT range + 1 AS n, 'row ' || (range + 1) AS label, (range + 1) * 1.5 AS half FROM range(${ROWS})`,
  postgres: `SELECT n, 'row ' || n AS label, n * 1.5 AS half FROM generate_series(1, ${ROWS}) AS n`,
  mysql: `SELECT n, CONCAT('row ', n) AS label, n * 1.5 AS half FROM (${mysqlNumbers(6)}) AS s`,
};

/** Reads the export's body, counting bytes only (the client keeps nothing). */
function download(port: number, cookie: string, connection: string, sql: string): Promise<{ bytes: number; trailers: NodeJS.Dict<string> }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/api/studio/query/csv', method: 'POST', headers: { cookie, 'content-type': 'application/json' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve({ bytes, trailers: res.trailers }) : reject(new Error(`status ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ connection, sql }));
  });
}

export async function benchCsvExport(): Promise<string[]> {
  const lines = [`CSV export of ${ROWS.toLocaleString('en-US')} rows (n, label, half) over HTTP, RSS growth at its peak (target: the second streamed export under ${TARGET_MIB} MiB)`];
  const bench = await startBenchApp();
  const { app, services } = bench;
  let scratch: ScratchPostgres | undefined;
  let mysqlDatabase: string | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const ws = await services.members.createWorkspace({ name: 'Csv', plan: 'team' });
    const user = await services.members.createUser({ email: 'csv-bench@example.com', name: 'Csv', passwordHash: await hashPassword('bench password') });
    await services.members.addMembership({ workspaceId: ws.id, userId: user.id, role: 'luminary' });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'csv-bench@example.com', password: 'bench password' } });
    const cookie = `svc_session=${login.cookies.find((c) => c.name === 'svc_session')!.value}`;

    const dir = workspaceDirectory(services.config.dataDir, ws.id);
    mkdirSync(dir, { recursive: true });
    const loader = await DuckDBInstance.create(path.join(dir, 'bench.duckdb'));
    const writer = await loader.connect();
    await writer.run('CREATE TABLE marker AS SELECT 1 AS x');
    writer.closeSync();
    loader.closeSync();
    await services.connections.create(ws.id, { name: 'duckdb', engine: 'duckdb', settings: { path: 'bench.duckdb' } });
    const engines = ['duckdb'];
    try {
      scratch = await createScratchPostgres('svc_csv_bench');
      await services.connections.create(ws.id, { name: 'postgres', engine: 'postgres', settings: scratch.settings });
      engines.push('postgres');
    } catch {
      lines.push('  postgres: skipped (PostgreSQL does not answer)');
    }
    try {
      const admin = await mysql.createConnection(MYSQL_URL);
      mysqlDatabase = `svc_csv_bench_${process.pid}`;
      await admin.query(`CREATE DATABASE ${mysqlDatabase}`);
      await admin.end();
      const url = new URL(MYSQL_URL);
      await services.connections.create(ws.id, {
        name: 'mysql',
        engine: 'mysql',
        settings: { host: url.hostname, port: Number(url.port || 3306), database: mysqlDatabase, user: decodeURIComponent(url.username) },
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      });
      engines.push('mysql');
    } catch {
      lines.push('  mysql: skipped (MySQL/MariaDB does not answer)');
    }

    for (const engine of engines) {
      // One small export first: pools, parsers and type caches are warm before memory is measured.
      await download(port, cookie, engine, SQL[engine]!.replace(String(ROWS), '10'));
      const first = await peakGrowth(() => download(port, cookie, engine, SQL[engine]!));
      const streamed = await peakGrowth(() => download(port, cookie, engine, SQL[engine]!));
      for (const run of [first, streamed]) {
        if (run.value.trailers['x-row-count'] !== String(ROWS)) throw new Error(`${engine}: ${run.value.trailers['x-row-count']} rows exported`);
      }
      const held = await peakGrowth(() =>
        services.rawSql.run({ workspaceId: ws.id, userId: user.id, connection: { name: engine }, sql: SQL[engine]!, maxRows: ROWS, surface: 'studio' }),
      );
      const verdict = streamed.growthMiB < TARGET_MIB ? 'ok' : 'OVER TARGET';
      lines.push(
        `  ${engine.padEnd(8)} streamed: +${streamed.growthMiB.toFixed(1)} MiB RSS (first export +${first.growthMiB.toFixed(1)}), ${(streamed.value.bytes / MiB).toFixed(1)} MiB in ${(streamed.ms / 1000).toFixed(2)} s ` +
          `(${Math.round(ROWS / (streamed.ms / 1000)).toLocaleString('en-US')} rows/s) ${verdict}; held as one result: +${held.growthMiB.toFixed(1)} MiB RSS`,
      );
    }
  } finally {
    await bench.close();
    await scratch?.drop();
    if (mysqlDatabase) {
      const admin = await mysql.createConnection(MYSQL_URL).catch(() => undefined);
      await admin?.query(`DROP DATABASE IF EXISTS ${mysqlDatabase}`);
      await admin?.end();
    }
  }
  return lines;
}
