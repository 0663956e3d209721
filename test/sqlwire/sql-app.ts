// The SQL interface on a test app with the demo deployed (project `demo`), over TLS with a certificate
// of its own, and `pg` clients that connect to it with a structured key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { generateSelfSigned } from '../../src/runtime-files.js';
import { startSqlInterface, type SqlInterface, type SqlInterfaceSettings } from '../../src/sqlwire/sql-interface.js';
import { demoAppOn, type METADATA_STORES, type DemoApp } from '../helpers/demo-on-stores.js';

export interface SqlApp extends DemoApp {
  sql: SqlInterface;
  /** The certificate's PEM and a file holding it (for psql's sslrootcert). */
  cert: string;
  certFile: string;
  /** A `pg` client config for `key` (TLS, verified against the certificate), database `demo`. */
  clientConfig(key: string, extra?: Partial<pg.ClientConfig>): pg.ClientConfig;
}

export function sqlAppOn(store: (typeof METADATA_STORES)[number], settings: Partial<SqlInterfaceSettings> = {}) {
  const demo = demoAppOn(store, 400);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-sql-'));
  let app: SqlApp | undefined;
  beforeAll(async () => {
    if (!store.available) return;
    const pems = await generateSelfSigned();
    const certFile = path.join(dir, 'cert.pem');
    writeFileSync(certFile, pems.cert);
    const sql = await startSqlInterface({
      services: demo.app().t.services,
      settings: { port: 0, explicit: true, allowPlaintext: false, maxConnectionsPerWorkspace: 20, idleSeconds: 600, ...settings },
      host: '127.0.0.1',
      tls: { key: pems.private, cert: pems.cert },
      logger: createLogger('warn'),
    });
    app = {
      ...demo.app(),
      sql,
      cert: pems.cert,
      certFile,
      clientConfig: (key, extra = {}) => ({ host: '127.0.0.1', port: sql.port, user: 'analyst', password: key, database: 'demo', ssl: { ca: pems.cert, servername: 'localhost' }, ...extra }),
    };
  }, 120_000);
  afterAll(async () => {
    await app?.sql.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { it: demo.it, app: (): SqlApp => app! };
}

/** A connected client; the caller ends it. */
export async function connect(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  await client.connect();
  return client;
}

/** The error a promise rejects with (it must reject). */
export async function failure(work: Promise<unknown>): Promise<Error & { code?: string; hint?: string; position?: string; severity?: string }> {
  try {
    await work;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a failure');
}
