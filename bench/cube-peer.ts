// Cube Core as a benchmark's peer: installed outside this repository (its directory in BENCH_CUBE_DIR,
// see docs/operations.md), started here as a child process in production mode with its in-memory cache
// and queue, over a cube given by the caller: by default one of the same table as the demo model's
// `orders` (the structured API's cache hit, `npm run bench peers`); the rollups benchmark gives its own,
// with pre-aggregations (cube-rollups.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { firstJsonLine } from './child-ready.js';

// The same table and fields as demo/model/orders.cml. The refresh key matches the service's cache
// lifetime in the benchmark (an hour), so that each request within a run is a plain hit.
export const CACHE_HIT_SCHEMA = `cube('orders', {
  sql_table: 'shop.orders',
  refresh_key: { every: '1 hour' },
  dimensions: {
    status: { sql: 'status', type: 'string' },
    channel: { sql: 'channel', type: 'string' },
  },
  measures: {
    order_count: { type: 'count' },
    gross_revenue: { sql: 'amount', type: 'sum' },
  },
});
`;

// Cube 0.35 loads its Rust extension (downloaded from GitHub at install time) for two things off the
// REST path: the SQL API's logger and the Jinja engine of YAML models. Where the download was not
// possible the launcher lets both fail quietly; /cubejs-api/v1/load runs the same JavaScript either way.
const LAUNCHER = `const req = (m) => require(require.resolve(m, { paths: [process.env.BENCH_CUBE_DIR] }));
const native = req('@cubejs-backend/native');
const setupLogger = native.setupLogger;
native.setupLogger = (...args) => { try { return setupLogger(...args); } catch { /* no SQL API */ } };
const newJinjaEngine = native.NativeInstance.prototype.newJinjaEngine;
native.NativeInstance.prototype.newJinjaEngine = function (options) {
  try { return newJinjaEngine.call(this, options); } catch { return undefined; /* no Jinja models */ }
};
const CubejsServer = req('@cubejs-backend/server');
new CubejsServer({ schemaPath: 'model' }).listen().then(({ port, version }) => {
  process.stdout.write(JSON.stringify({ port, version }) + '\\n');
});
`;

export interface CubePeer {
  url: string;
  version: string;
  token: string;
  child: ChildProcess;
  close(): void;
}

/** Cube's installed server version, or undefined when BENCH_CUBE_DIR is unset or holds no Cube. */
export function installedCube(dir: string | undefined): string | undefined {
  const manifest = dir && path.join(dir, 'node_modules/@cubejs-backend/server/package.json');
  if (!manifest || !existsSync(manifest) || !existsSync(path.join(dir, 'node_modules/@cubejs-backend/postgres-driver'))) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** An HS256 JWT with no claims beyond its issue time: Cube's default check of CUBEJS_API_SECRET. */
export function signToken(secret: string, issuedAt = Math.floor(Date.now() / 1000)): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iat: issuedAt })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * Starts Cube on `port` over the PostgreSQL database at `database` with `schema` as its model's
 * orders.js; `env` adds to (or overrides) its settings.
 */
export async function startCube(cubeDir: string, database: URL, port: number, schema = CACHE_HIT_SCHEMA, env: Record<string, string> = {}): Promise<CubePeer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cube-peer-'));
  mkdirSync(path.join(dir, 'model'));
  writeFileSync(path.join(dir, 'model/orders.js'), schema);
  writeFileSync(path.join(dir, 'launch.cjs'), LAUNCHER);
  const secret = 'bench-cube-secret';
  const child = spawn(process.execPath, ['launch.cjs'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      BENCH_CUBE_DIR: cubeDir,
      PORT: String(port),
      CUBEJS_DEV_MODE: 'false',
      CUBEJS_CACHE_AND_QUEUE_DRIVER: 'memory',
      CUBEJS_API_SECRET: secret,
      CUBEJS_TELEMETRY: 'false',
      CUBEJS_DB_TYPE: 'postgres',
      CUBEJS_DB_HOST: database.hostname,
      CUBEJS_DB_PORT: database.port || '5432',
      CUBEJS_DB_NAME: database.pathname.slice(1),
      CUBEJS_DB_USER: database.username,
      ...env,
    },
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  const close = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const started = await firstJsonLine<{ port: number; version: string }>(child, () => errors);
    return { url: `http://127.0.0.1:${started.port}`, version: started.version, token: signToken(secret), child, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** The process's CPU time so far in microseconds, from /proc (Linux), for a child this process did not write. */
export function procCpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}
