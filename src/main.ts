// `svc serve`: loadConfig → open store, migrate → buildApp → listen; graceful close on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { bootstrapDemo, type BootstrapResult } from './bootstrap.js';
import type { Config } from './config.js';
import type { Logger } from 'pino';
import { answerPlainHttpOnTlsPort } from './http/plain-http-on-tls-port.js';
import { openAdminChannel, type AdminChannel } from './cli/admin-channel-server.js';
import { createLogger } from './logger.js';
import { loadTls, type TlsMaterial } from './runtime-files.js';
import { openOwnedRuntime } from './owned-runtime.js';
import { startSqlInterface, type SqlInterface } from './sqlwire/sql-interface.js';

/** A started server: what the banner tells, and how to stop it. */
export interface StartedServer {
  port: number;
  tls: TlsMaterial | undefined;
  bootstrap: BootstrapResult;
  sqlInterface: SqlInterface | undefined;
  /** With the embedded store, where `svc` commands find the server (cli/admin-channel-server.ts). */
  adminChannel: AdminChannel | undefined;
  close(): Promise<void>;
}

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  printBanner(config, server.port, server.tls, server.bootstrap, server.sqlInterface);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Opens the store, migrates, listens; no signal handlers and no banner (serve adds them). */
export async function startServer(config: Config, logger: Logger): Promise<StartedServer> {
  // With the embedded store, this process owns it until it stops: a second server is refused, and `svc`
  // commands run here through the admin channel rather than write to a copy that would be lost.
  const owner = { holder: 'server' as const, command: 'svc serve', onNote: (note: string) => logger.warn({ note }, 'metadata store') };
  const runtime = await openOwnedRuntime(config, owner, {
    onBackgroundError: (error) => logger.error({ err: error }, 'background task failed'),
    onNote: (note) => logger.warn({ note }, 'language model output not used as is'),
    signals: true,
  });
  if (runtime.migrations.length) logger.info({ migrations: runtime.migrations }, 'migrations applied');
  const bootstrap = await bootstrapDemo(runtime.services);
  for (const note of bootstrap.upgradeNotes) logger.warn({ note }, 'data directory upgraded');
  const tls = await loadTls(config);
  const app = await buildApp({ services: runtime.services, logger, ...(tls ? { tls } : {}) });
  // Plain HTTP to the HTTPS port gets 403 https_required (or a redirect, for a browser) instead of a dropped connection.
  if (tls) answerPlainHttpOnTlsPort(app.server);
  await app.listen({ port: config.port, host: config.host });
  // Webhook deliveries: every server instance polls; row claims keep them from sending one twice.
  runtime.services.deliveries.start();
  // Retention pruning: every instance looks; the job's row lets one at a time run it.
  runtime.services.jobs.start();

  const sqlInterface = await startSql(config, runtime.services, tls, logger);
  const adminChannel = await openAdminChannel(config, runtime.services, logger);

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    port,
    tls,
    bootstrap,
    sqlInterface,
    adminChannel,
    async close() {
      await adminChannel?.close();
      await sqlInterface?.close();
      await app.close();
      await runtime.services.jobs.stop();
      await runtime.services.deliveries.stop();
      await runtime.close();
    },
  };
}

/**
 * The SQL interface, unless SVC_SQL_PORT=off. A port the operator chose that is in use stops the start; the
 * default one (5433, often a second PostgreSQL on a laptop) only costs the interface, with a warning.
 */
async function startSql(config: Config, services: Parameters<typeof startSqlInterface>[0]['services'], tls: TlsMaterial | undefined, logger: Logger): Promise<SqlInterface | undefined> {
  if (!config.sql) return undefined;
  try {
    return await startSqlInterface({ services, settings: config.sql, host: config.host, ...(tls ? { tls } : {}), logger });
  } catch (error) {
    if (config.sql.explicit || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn(`SQL interface not started: port ${config.sql.port} is in use; set SVC_SQL_PORT to another port (or off)`);
    return undefined;
  }
}

function printBanner(config: Config, port: number, tls: TlsMaterial | undefined, bootstrap: BootstrapResult, sql: SqlInterface | undefined) {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const curl = tls ? `curl --cacert ${tls.certFile}` : 'curl';
  const password = bootstrap.generatedPassword ?? (config.admin.password ? '<SVC_ADMIN_PASSWORD>' : '<your password>');
  const lines = [
    '',
    `  Governed Analytics Service is listening on ${base}`,
    `    Console:       ${base}/   (sign in in a browser)`,
    `    API docs:      ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
    `    Health:        ${base}/healthz, ${base}/readyz`,
    `    Store:         ${runtimeStore(config)}; shared state: ${config.redisUrl ? 'Redis' : 'in-process'}`,
  ];
  if (sql) {
    // sslmode=verify-full with the generated certificate: the same trust as the curl lines below.
    const ssl = tls ? `sslmode=verify-full sslrootcert=${tls.certFile}` : 'sslmode=disable';
    lines.push(`    SQL (psql):    psql "host=${host} port=${sql.port} dbname=demo user=me ${ssl}"   (password: a structured key with the query scope)`);
  }
  if (bootstrap.created) {
    lines.push('', `  Created workspace "Demo" (Team plan) with luminary ${bootstrap.adminEmail}.`);
    if (bootstrap.demo) {
      lines.push(
        `  Demo warehouse: ${bootstrap.demo.orders.toLocaleString('en-US')} orders in ${bootstrap.demo.warehouseFile} (DuckDB, connection "warehouse"),`,
        `  demo model deployed as project "demo" (${(bootstrap.demo.elapsedMs / 1000).toFixed(1)} s).`,
      );
    }
    if (bootstrap.generatedPassword) {
      lines.push(`  Generated password (shown once, keep it): ${bootstrap.generatedPassword}`);
    }
  }
  if (bootstrap.empty) {
    lines.push(
      '',
      '  The store has no workspace yet (SVC_DEMO=off). Create one and its first luminary with:',
      "    npm run svc -- users create --email you@example.com --role luminary --new-workspace 'My team'",
    );
  }
  if (config.demo) {
    lines.push(
      '',
      '  Try it:',
      `    ${curl} -c cookies.txt -H 'content-type: application/json' \\`,
      `      -d '{"email":"${bootstrap.adminEmail}","password":"${password}"}' ${base}/api/auth/login`,
      `    ${curl} -b cookies.txt -H 'content-type: application/json' \\`,
      `      -d '{"name":"my workspace key","surface":"workspace"}' ${base}/api/keys`,
      `    ${curl} -H "Authorization: Bearer <value from the previous answer>" ${base}/api/v1/workspace`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function runtimeStore(config: Config): string {
  return config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}/metadata`;
}
