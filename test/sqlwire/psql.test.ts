// psql, the PostgreSQL client on this machine, against the SQL interface over verified TLS: the tables
// (\dt) and a table's columns with their descriptions (\d+), the database (\l) and the collations
// (\dO), a governed query, an error with its HINT, and \copy of a governed query to a CSV file. On the
// embedded store (the wire does not touch it).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { hasTool } from '../helpers/services.js';
import { sqlAppOn } from './sql-app.js';

const run = promisify(execFile);
const psql = hasTool('psql', ['--version'], 'to test the SQL interface with psql');

describe.skipIf(!psql)('psql against the SQL interface', () => {
  const { it, app } = sqlAppOn(METADATA_STORES[0]!);
  const psqlRun = async (command: string, key: string) => {
    const conninfo = `host=127.0.0.1 port=${app().sql.port} dbname=demo user=analyst sslmode=verify-full sslrootcert=${app().certFile}`;
    try {
      const { stdout, stderr } = await run('psql', ['-X', '-v', 'ON_ERROR_STOP=1', conninfo, '-c', command], { env: { PATH: process.env.PATH, PGPASSWORD: key, PGCONNECT_TIMEOUT: '10' } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const key = async () => (await createKey(app().t.services, app().ws, 'luminary', 'structured')).value;

  it('lists the tables (\\dt) and describes one with its column comments (\\d+ orders)', async () => {
    const k = await key();
    const tables = await psqlRun('\\dt', k);
    expect(tables.stderr).toBe('');
    for (const table of ['customers', 'order_items', 'orders', 'products']) expect(tables.stdout).toMatch(new RegExp(`public \\| ${table} +\\| table`));
    const described = await psqlRun('\\d+ orders', k);
    expect(described.stderr).toBe('');
    expect(described.stdout).toMatch(/Table "public\.orders"/);
    expect(described.stdout).toMatch(/status +\| text/);
    expect(described.stdout).toMatch(/order_count +\| bigint/);
    expect(described.stdout).toMatch(/"customers\.\w+"|customers\.\w+/);
  });

  it('lists the project database (\\l, which psql 15 writes with a column PostgreSQL 17 renamed) and the collations (\\dO)', async () => {
    const k = await key();
    const databases = await psqlRun('\\l', k);
    expect(databases.stderr).toBe('');
    expect(databases.stdout).toMatch(/List of databases/);
    expect(databases.stdout).toMatch(/^ demo +\| postgres +\| UTF8 +\|/m);
    expect(databases.stdout).toMatch(/\(1 row\)/);
    const collations = await psqlRun('\\dO', k);
    expect(collations).toMatchObject({ code: 0, stderr: '' });
    expect(collations.stdout).toMatch(/List of collations/);
  });

  it('runs a governed query, and shows an error with its HINT', async () => {
    const k = await key();
    const answer = await psqlRun('SELECT channel, MEASURE(order_count) AS orders FROM orders GROUP BY channel ORDER BY channel', k);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/channel +\| orders/);
    expect(answer.stdout).toMatch(/\(\d+ rows?\)/);
    const refused = await psqlRun('SELECT MEASURE(order_count) FROM ordres', k);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/ERROR: +relation "ordres" does not exist/);
    expect(refused.stderr).toMatch(/HINT: +.*orders/);
  });

  it('copies a governed query to a CSV file with \\copy', async () => {
    const file = path.join(path.dirname(app().certFile), 'out.csv');
    const copied = await psqlRun(`\\copy (SELECT status, MEASURE(order_count) AS n FROM orders GROUP BY status ORDER BY status) TO '${file}' WITH (FORMAT csv, HEADER)`, await key());
    expect(copied.stderr).toBe('');
    expect(copied.stdout).toMatch(/^COPY \d+/m);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('status,n');
    expect(lines.length).toBeGreaterThan(1);
  });
});
