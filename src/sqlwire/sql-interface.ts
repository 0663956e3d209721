// The SQL interface: the PostgreSQL-protocol listener of `svc serve`, with who may connect and what
// their statements mean. The password is a structured key (`svc_api_…`) with the `query` scope: its
// member's role and data keys decide what the connection reads; the user name is informational. The
// database is a project of the workspace. A workspace holds at most so many connections at once; each
// statement spends the workspace's rate limit as a request to C's /v1/query does, and first checks the
// key again, so a revoked key fails at its next statement and its connection is closed.
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { loadSqlParser } from '../core/sqlapi/pg-ast.js';
import {
  ADMIN_SHUTDOWN,
  FatalSqlStateError,
  INVALID_AUTHORIZATION_SPECIFICATION,
  INVALID_CATALOG_NAME,
  INVALID_PASSWORD,
  TOO_MANY_CONNECTIONS,
} from '../core/sqlapi/sql-state-error.js';
import { activePrincipal } from '../http/auth.js';
import { spenderOf } from '../http/key-admission.js';
import { spendBudget } from '../http/rate-limit.js';
import { surfaceOfKey } from '../identity/key-formats.js';
import type { Principal } from '../identity/principal.js';
import { hashToken } from '../identity/tokens.js';
import type { Config } from '../config.js';
import type { TlsMaterial } from '../runtime-files.js';
import type { Services } from '../services.js';
import { CatalogMirrors } from './catalog/catalog-mirror.js';
import type { AdmittedConnection, StartupRequest } from './connection.js';
import { startSqlListener, type SqlListener } from './listener.js';
import { SessionSettings } from './session-settings.js';
import { SqlStatementHandler } from './sql-statement-handler.js';
import { sqlStateOf } from './sql-errors.js';

export type SqlInterfaceSettings = NonNullable<Config['sql']>;

export interface SqlInterfaceOptions {
  readonly services: Services;
  readonly settings: SqlInterfaceSettings;
  readonly host: string;
  readonly tls?: Pick<TlsMaterial, 'key' | 'cert'>;
  readonly logger: Logger;
}

export interface SqlInterface extends SqlListener {
  readonly catalog: CatalogMirrors;
}

const authFailed = (user: string, why: string) => new FatalSqlStateError(INVALID_PASSWORD, `password authentication failed for user "${user}"`, why);

/** The principal a key is, or a refusal that says why it cannot connect (never echoing the key). */
async function principalOfKey(services: Services, request: StartupRequest): Promise<Principal> {
  if (surfaceOfKey(request.password) !== 'structured') {
    throw authFailed(request.user, 'The password is a structured API key (svc_api_…) with the query scope: create one on the Keys page of the console.');
  }
  let principal: Principal;
  try {
    principal = activePrincipal(await services.keyResolver.resolve(hashToken(request.password)));
  } catch (error) {
    throw authFailed(request.user, `${(error as Error).message}.`);
  }
  if (!principal.key?.scopes.includes('query')) throw new FatalSqlStateError(INVALID_AUTHORIZATION_SPECIFICATION, 'this key lacks the query scope', 'Create a structured key with the query scope for SQL clients.');
  return principal;
}

export async function startSqlInterface(options: SqlInterfaceOptions): Promise<SqlInterface> {
  const { services, settings, logger } = options;
  // Statements are classified by PostgreSQL's parser (WASM): loaded once, before the first connection.
  await loadSqlParser();
  const { metrics } = services;
  const catalog = new CatalogMirrors();
  const perWorkspace = new Map<string, number>();

  const admit = async (request: StartupRequest): Promise<AdmittedConnection> => {
    try {
      const principal = await principalOfKey(services, request);
      const workspaceId = principal.workspace.id;
      const live = await services.models.live(workspaceId);
      const projects = [...new Set(live.projectOf.values())].sort();
      if (!projects.includes(request.database)) {
        throw new FatalSqlStateError(INVALID_CATALOG_NAME, `database "${request.database}" does not exist`, projects.length ? `The databases are the workspace's projects: ${projects.join(', ')}.` : 'The workspace has no model deployed yet.');
      }
      const held = perWorkspace.get(workspaceId) ?? 0;
      if (held >= settings.maxConnectionsPerWorkspace) {
        throw new FatalSqlStateError(TOO_MANY_CONNECTIONS, `too many connections for this workspace (${settings.maxConnectionsPerWorkspace})`, 'Close idle connections, or ask the operator to raise SVC_SQL_MAX_CONNECTIONS.');
      }
      perWorkspace.set(workspaceId, held + 1);
      metrics.sqlConnectionAttempt('accepted');
      metrics.sqlConnectionOpened();
      const keyHash = hashToken(request.password);
      const sessionSettings = new SessionSettings({ applicationName: request.applicationName, user: request.user, timeZone: principal.workspace.timezone });
      const handler = new SqlStatementHandler({
        services,
        principal,
        database: request.database,
        settings: sessionSettings,
        catalog,
        checkKey: async () => {
          const resolution = await services.keyResolver.resolve(keyHash);
          if (resolution.status !== 'active') {
            throw new FatalSqlStateError(ADMIN_SHUTDOWN, `terminating connection: the key was ${resolution.status === 'unknown' ? 'deleted' : resolution.status}`);
          }
        },
        spend: async () => {
          try {
            await spendBudget(services.shared, 'structured', spenderOf(principal), services.clock.now().getTime());
          } catch (error) {
            throw sqlStateOf(error);
          }
        },
      });
      let released = false;
      return {
        handler,
        workspaceId,
        parameters: { TimeZone: principal.workspace.timezone },
        release: () => {
          if (released) return;
          released = true;
          perWorkspace.set(workspaceId, (perWorkspace.get(workspaceId) ?? 1) - 1);
          metrics.sqlConnectionClosed();
        },
      };
    } catch (error) {
      metrics.sqlConnectionAttempt(error instanceof FatalSqlStateError ? error.sqlstate : 'error');
      throw error instanceof FatalSqlStateError ? error : sqlStateOf(error);
    }
  };

  const listener = await startSqlListener({
    port: settings.port,
    host: options.host,
    ...(options.tls ? { secureContext: createSecureContext({ key: options.tls.key, cert: options.tls.cert }) } : {}),
    allowPlaintext: settings.allowPlaintext,
    idleTimeoutMs: settings.idleSeconds * 1000,
    admit,
    onInternalError: (error) => logger.error({ err: error }, 'SQL interface: statement failed'),
    onStatement: (outcome) => metrics.sqlStatement(outcome),
  });
  return {
    get port() {
      return listener.port;
    },
    get connections() {
      return listener.connections;
    },
    catalog,
    async close() {
      await listener.close();
      await catalog.close();
    },
  };
}
