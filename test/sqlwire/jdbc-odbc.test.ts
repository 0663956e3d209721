// The SQL interface through the drivers BI tools ship with: pgJDBC (Debian's libpostgresql-jdbc-java on
// the machine's Java) reading DatabaseMetaData and running a PreparedStatement past its prepare
// threshold, and psqlODBC through unixODBC's isql listing tables (SQLTables) and columns (SQLColumns)
// and running a governed query. Both over verified TLS with a structured key.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { hasTool } from '../helpers/services.js';
import { sqlAppOn } from './sql-app.js';

const run = promisify(execFile);
const JDBC_JAR = '/usr/share/java/postgresql.jar';
const java = hasTool('java', ['-version'], 'to test the SQL interface with pgJDBC') && hasTool('test', ['-f', JDBC_JAR], 'to test the SQL interface with pgJDBC (libpostgresql-jdbc-java)');
const odbc = hasTool('isql', ['--version'], 'to test the SQL interface with psqlODBC (unixodbc)') && hasTool('sh', ['-c', "odbcinst -q -d | grep -q 'PostgreSQL Unicode'"], 'to test the SQL interface with psqlODBC (odbc-postgresql)');

describe('drivers against the SQL interface', () => {
  const { app } = sqlAppOn(METADATA_STORES[0]!);
  const key = async () => (await createKey(app().t.services, app().ws, 'luminary', 'structured')).value;

  test.skipIf(!java)('pgJDBC: DatabaseMetaData, a PreparedStatement past the prepare threshold, an error with its SQLSTATE', async () => {
    const url = `jdbc:postgresql://127.0.0.1:${app().sql.port}/demo?sslmode=verify-full&sslrootcert=${encodeURIComponent(app().certFile)}`;
    const probe = path.resolve(import.meta.dirname, 'clients/JdbcProbe.java');
    const { stdout } = await run('java', ['-cp', JDBC_JAR, probe, url, await key(), 'web'], { timeout: 60_000 });
    const lines = stdout.trim().split('\n');
    expect(lines).toContain('schema public');
    expect(lines).toContain('schema commerce');
    expect(lines.filter((l) => l.startsWith('table ')).map((l) => l.split(' | ')[0])).toEqual(['table public.customers', 'table public.order_items', 'table public.orders', 'table public.products']);
    expect(lines).toContainEqual(expect.stringMatching(/^column status text \| /));
    expect(lines).toContainEqual(expect.stringMatching(/^column order_count int8 \| /));
    expect(Number(lines.find((l) => l.startsWith('types '))!.split(' ')[1])).toBeGreaterThan(10);
    const runs = lines.filter((l) => l.startsWith('run '));
    expect(runs).toHaveLength(7);
    // The same rows every time, whether the driver sent the statement unnamed or prepared on the server.
    expect(new Set(runs.map((l) => l.replace(/^run \d+:/, ''))).size).toBe(1);
    expect(runs[0]).toMatch(/^run 1: \w+=\d+\/[\d.]+/);
    expect(lines).toContainEqual(expect.stringMatching(/^error 42P01 \| ERROR: relation "ordres" does not exist/));
  }, 90_000);

  test.skipIf(!odbc)('psqlODBC: tables and columns as ODBC lists them, and a governed query', async () => {
    const dir = path.dirname(app().certFile);
    const odbcIni = path.join(dir, 'odbc.ini');
    writeFileSync(odbcIni, `[governed]\nDriver = PostgreSQL Unicode\nServername = 127.0.0.1\nPort = ${app().sql.port}\nDatabase = demo\nSSLmode = verify-full\n`);
    const isql = async (input: string) =>
      (await run('sh', ['-c', `printf '%s\\n' "$1" | isql -b -d'|' governed analyst "$2"`, 'isql', input, await key()], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ODBCINI: odbcIni, PGSSLROOTCERT: app().certFile }, timeout: 60_000 })).stdout;
    const tables = await isql('help');
    for (const table of ['customers', 'order_items', 'orders', 'products']) expect(tables).toMatch(new RegExp(`\\|public\\|${table}\\|TABLE\\|`));
    const columns = await isql('help orders');
    expect(columns).toMatch(/\|orders\|status\|/);
    expect(columns).toMatch(/\|orders\|order_count\|/);
    const answer = await isql('SELECT channel, MEASURE(order_count) AS n FROM orders GROUP BY channel ORDER BY channel');
    expect(answer).toMatch(/^mobile\|\d+$/m);
    expect(answer).toMatch(/^web\|\d+$/m);
  }, 90_000);
});
