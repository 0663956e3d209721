// The one place that reads the environment. Parsed once at start, frozen, and passed down:
// nothing else in the code base reads process.env.
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ENDPOINT_CONCURRENCY } from './events/delivery-claims.js';
import type { RetentionPolicy } from './jobs/retention.js';
import { WAREHOUSE_QUERY_TIMEOUT_MS } from './querying/query-time-limit.js';

const onOff = z.enum(['on', 'off']);

// Accepts "true/false/1/0" for TRUST_PROXY as well as a hop count or a list of addresses,
// which is what Fastify's trustProxy option understands.
const trustProxy = z
  .string()
  .transform((raw): boolean | number | string => {
    const value = raw.trim();
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true' || value === '1') return true;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

const url = (schemes: string[]) =>
  z.string().refine((value) => {
    try {
      return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
    } catch {
      return false;
    }
  }, `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`);

/** Days to keep a kind of row; 0 keeps them for ever. */
const retentionDays = z.coerce.number().int().min(0).max(36_500);

/**
 * A signal run's lease guards its evaluation: the warehouse query, bounded by its time limit, and the
 * store reads and writes around it (each bounded by the store's own limits). A shorter lease would let
 * another instance start a run that is still being evaluated.
 */
const SIGNALS_LEASE_MARGIN_SECONDS = 15;
export const MIN_SIGNALS_LEASE_SECONDS = WAREHOUSE_QUERY_TIMEOUT_MS / 1000 + SIGNALS_LEASE_MARGIN_SECONDS;

/** How long one rollup build (one partition, or a table built whole) may run unless SVC_ROLLUP_BUILD_TIMEOUT_MS says otherwise. */
export const DEFAULT_ROLLUP_BUILD_TIMEOUT_MS = 30 * 60_000;

/** Rows the editor's CSV export writes at most unless SVC_CSV_EXPORT_MAX_ROWS says otherwise. */
export const DEFAULT_CSV_EXPORT_MAX_ROWS = 1_000_000;

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    SVC_DATA_DIR: z.string().min(1).default('./.data'),
    SVC_INSTANCE_NAME: z.string().trim().min(1).max(100).optional(),
    DATABASE_URL: url(['postgres', 'postgresql']).optional(),
    REDIS_URL: url(['redis', 'rediss']).optional(),
    TLS: onOff.default('on'),
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    TRUST_PROXY: trustProxy.default(false),
    SVC_ADMIN_EMAIL: z.email().default('admin@example.com'),
    SVC_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    SVC_DEMO: onOff.default('on'),
    SVC_ROLLUPS: onOff.default('on'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SVC_SECRET_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
      .optional(),
    SVC_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(12 * 60),
    SVC_SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(7 * 24),
    SVC_RESULT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    SVC_RESULT_CACHE_MAX_MB: z.coerce.number().int().min(1).max(65_536).default(128),
    SVC_RESULT_CACHE_MAX_ENTRY_KB: z.coerce.number().int().min(1).max(1_048_576).default(2048),
    SVC_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    SVC_ROLLUP_BUILDS: onOff.default('on'),
    SVC_ROLLUP_BUILD_TIMEOUT_MS: z.coerce.number().int().min(1000).max(86_400_000).default(DEFAULT_ROLLUP_BUILD_TIMEOUT_MS),
    SVC_SIGNALS_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    SVC_SIGNALS_LEASE_SECONDS: z.coerce
      .number()
      .int()
      .min(
        MIN_SIGNALS_LEASE_SECONDS,
        `must be at least ${MIN_SIGNALS_LEASE_SECONDS} (the warehouse query time limit of ${WAREHOUSE_QUERY_TIMEOUT_MS / 1000} s plus ${SIGNALS_LEASE_MARGIN_SECONDS} s): a shorter lease lets another instance start a run that is still being evaluated`,
      )
      .max(86_400)
      .default(120),
    SVC_LLM_BASE_URL: url(['http', 'https']).optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    SVC_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
    SVC_LLM_PROSE: onOff.default('on'),
    SVC_VALUES_PER_DIMENSION: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
    SVC_VALUES_REFRESH_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
    SVC_VALUES_MAX_SCOPES: z.coerce.number().int().min(1).default(200),
    SVC_VALUES_MAX_TOTAL: z.coerce.number().int().min(1).default(5_000_000),
    SVC_EVENTS_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
    SVC_WEBHOOK_ALLOW_HOSTS: z.string().default(''),
    SVC_CONSOLE_URL: url(['http', 'https']).optional(),
    SVC_MCP_ALLOWED_HOSTS: z.string().default(''),
    SVC_SQL_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
    SVC_SQL_PLAINTEXT: onOff.default('off'),
    SVC_SQL_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(50),
    SVC_SQL_IDLE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
    SVC_WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(ENDPOINT_CONCURRENCY),
    SVC_CSV_EXPORT_MAX_ROWS: z.coerce.number().int().min(1).max(100_000_000).default(DEFAULT_CSV_EXPORT_MAX_ROWS),
    SVC_RETENTION_EVENTS_DAYS: retentionDays.default(30),
    SVC_RETENTION_DELIVERIES_DAYS: retentionDays.default(30),
    SVC_RETENTION_SIGNAL_EVALUATIONS_DAYS: retentionDays.default(90),
    SVC_RETENTION_QUERY_HISTORY_DAYS: retentionDays.default(90),
    SVC_RETENTION_SCHEDULE_RUNS_DAYS: retentionDays.default(90),
  })
  .refine((c) => Boolean(c.TLS_CERT_FILE) === Boolean(c.TLS_KEY_FILE), {
    message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    path: ['TLS_CERT_FILE'],
  });

type RawConfig = z.output<typeof configSchema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** How this instance names itself where instances differ (/readyz, DuckDB files it lacks): the host name by default. */
  readonly instanceName: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly tls: { readonly enabled: boolean; readonly certFile?: string; readonly keyFile?: string };
  readonly trustProxy: boolean | number | string;
  readonly admin: { readonly email: string; readonly password: string | undefined };
  readonly demo: boolean;
  /** Node queries answered from built rollups when one can (SVC_ROLLUPS=off: always from the source, to compare). */
  readonly rollups: boolean;
  readonly logLevel: RawConfig['LOG_LEVEL'];
  readonly secretKeyHex: string | undefined;
  readonly session: { readonly idleMinutes: number; readonly maxHours: number };
  /**
   * Governed query results: how long they are reused (0 turns the cache off), the most the in-process
   * cache holds in bytes, and the largest answer it stores.
   */
  readonly resultCache: { readonly seconds: number; readonly maxBytes: number; readonly maxEntryBytes: number };
  /** The bearer token GET /metrics takes; without one, the route answers 404. */
  readonly metricsToken: string | undefined;
  /**
   * How long one rollup build may run on its source (SVC_ROLLUP_BUILD_TIMEOUT_MS): its own limit, not
   * the query time limit, since a build reads a whole partition. Build claims last longer than this.
   */
  readonly rollupBuildTimeoutMs: number;
  /**
   * Whether this server instance runs the rollup build loop (SVC_ROLLUP_BUILDS). A rollup file is on the
   * disk of the instance that built it: with several instances, builds run on one of them.
   */
  readonly rollupBuilds: boolean;
  /** How often the signal scheduler looks for due signals. */
  readonly signalsPollMs: number;
  /**
   * How long an instance's claim on a due signal run holds (by the store's clock) before another instance
   * retries it: a run whose instance died mid-evaluation is evaluated again after this. At least the
   * warehouse query time limit plus a margin (MIN_SIGNALS_LEASE_SECONDS), so longer than an evaluation.
   */
  readonly signalsLeaseMs: number;
  /**
   * An OpenAI-compatible server for planning questions, when a base URL or an OpenAI key is given
   * (OpenAI itself when only the key is); otherwise questions are planned offline.
   */
  readonly llm: { readonly baseUrl: string; readonly apiKey: string | undefined; readonly model: string; readonly prose: boolean } | undefined;
  /**
   * The value indexes questions are planned with: distinct values read per dimension, how often an
   * index is rebuilt, and how many scopes and values are kept in memory.
   */
  readonly values: { readonly perDimension: number; readonly refreshSeconds: number; readonly maxScopes: number; readonly maxTotal: number };
  /**
   * Webhook delivery: how often the worker looks for new events and due deliveries, the hosts a webhook
   * may reach although they resolve to loopback or private addresses (and over plain http), and how many
   * attempts one endpoint may have in flight across every instance.
   */
  readonly events: {
    readonly pollMs: number;
    readonly allowHosts: readonly string[];
    readonly endpointConcurrency: number;
    /** The console's address as readers reach it: scheduled deliveries link back to it (a path alone without it). */
    readonly consoleUrl: string | undefined;
  };
  /**
   * Days to keep events (and with them their deliveries), settled webhook deliveries, signal evaluations,
   * query history and delivery schedule runs; 0 keeps them for ever. Pruned hourly, by one instance at a time.
   */
  readonly retention: RetentionPolicy;
  /**
   * Host names (with or without a port) /mcp answers under besides loopback ones: its defence against
   * DNS rebinding refuses any other Host or Origin.
   */
  readonly mcpAllowedHosts: readonly string[];
  /**
   * The SQL interface (PostgreSQL protocol) on `host`: its port (undefined: off; `explicit` says whether
   * the operator chose it, which makes a port in use fatal rather than a warning), whether connections
   * without TLS are accepted, how many connections one workspace may hold, and how long one may idle.
   */
  /**
   * Rows the editor's CSV export (POST /api/studio/query/csv) writes at most: streamed from the driver,
   * so the figure bounds the file and the time it takes, not the memory it holds.
   */
  readonly csvExportMaxRows: number;
  readonly sql: { readonly port: number; readonly explicit: boolean; readonly allowPlaintext: boolean; readonly maxConnectionsPerWorkspace: number; readonly idleSeconds: number } | undefined;
}

/** The SQL interface's port when SVC_SQL_PORT is not set: next to PostgreSQL's own 5432. */
export const DEFAULT_SQL_PORT = 5433;

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError whose message is one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as they do in most .env files and compose files.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = issue.path.join('.') || 'environment';
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const c = parsed.data;
  return Object.freeze({
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.SVC_DATA_DIR),
    instanceName: c.SVC_INSTANCE_NAME ?? hostname(),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    tls: Object.freeze({ enabled: c.TLS === 'on', certFile: c.TLS_CERT_FILE, keyFile: c.TLS_KEY_FILE }),
    trustProxy: c.TRUST_PROXY,
    admin: Object.freeze({ email: c.SVC_ADMIN_EMAIL.toLowerCase(), password: c.SVC_ADMIN_PASSWORD }),
    demo: c.SVC_DEMO === 'on',
    rollups: c.SVC_ROLLUPS === 'on',
    logLevel: c.LOG_LEVEL,
    secretKeyHex: c.SVC_SECRET_KEY,
    session: Object.freeze({ idleMinutes: c.SVC_SESSION_IDLE_MINUTES, maxHours: c.SVC_SESSION_MAX_HOURS }),
    resultCache: Object.freeze({
      seconds: c.SVC_RESULT_CACHE_SECONDS,
      maxBytes: c.SVC_RESULT_CACHE_MAX_MB * 1024 * 1024,
      maxEntryBytes: c.SVC_RESULT_CACHE_MAX_ENTRY_KB * 1024,
    }),
    metricsToken: c.SVC_METRICS_TOKEN,
    rollupBuildTimeoutMs: c.SVC_ROLLUP_BUILD_TIMEOUT_MS,
    rollupBuilds: c.SVC_ROLLUP_BUILDS === 'on',
    signalsPollMs: c.SVC_SIGNALS_POLL_MS,
    signalsLeaseMs: c.SVC_SIGNALS_LEASE_SECONDS * 1000,
    llm:
      c.SVC_LLM_BASE_URL || c.OPENAI_API_KEY
        ? Object.freeze({ baseUrl: c.SVC_LLM_BASE_URL ?? 'https://api.openai.com/v1', apiKey: c.OPENAI_API_KEY, model: c.SVC_LLM_MODEL, prose: c.SVC_LLM_PROSE === 'on' })
        : undefined,
    values: Object.freeze({
      perDimension: c.SVC_VALUES_PER_DIMENSION,
      refreshSeconds: c.SVC_VALUES_REFRESH_SECONDS,
      maxScopes: c.SVC_VALUES_MAX_SCOPES,
      maxTotal: c.SVC_VALUES_MAX_TOTAL,
    }),
    events: Object.freeze({
      pollMs: c.SVC_EVENTS_POLL_MS,
      allowHosts: listOf(c.SVC_WEBHOOK_ALLOW_HOSTS),
      endpointConcurrency: c.SVC_WEBHOOK_ENDPOINT_CONCURRENCY,
      consoleUrl: c.SVC_CONSOLE_URL?.replace(/\/+$/, ''),
    }),
    retention: Object.freeze({
      eventsDays: c.SVC_RETENTION_EVENTS_DAYS,
      deliveriesDays: c.SVC_RETENTION_DELIVERIES_DAYS,
      signalEvaluationsDays: c.SVC_RETENTION_SIGNAL_EVALUATIONS_DAYS,
      queryHistoryDays: c.SVC_RETENTION_QUERY_HISTORY_DAYS,
      scheduleRunsDays: c.SVC_RETENTION_SCHEDULE_RUNS_DAYS,
    }),
    csvExportMaxRows: c.SVC_CSV_EXPORT_MAX_ROWS,
    mcpAllowedHosts: listOf(c.SVC_MCP_ALLOWED_HOSTS.toLowerCase()),
    sql:
      c.SVC_SQL_PORT === 'off'
        ? undefined
        : Object.freeze({
            port: c.SVC_SQL_PORT ?? DEFAULT_SQL_PORT,
            explicit: c.SVC_SQL_PORT !== undefined,
            allowPlaintext: c.SVC_SQL_PLAINTEXT === 'on',
            maxConnectionsPerWorkspace: c.SVC_SQL_MAX_CONNECTIONS,
            idleSeconds: c.SVC_SQL_IDLE_SECONDS,
          }),
  });
}

/** A comma-separated setting as a frozen list, blanks dropped. */
function listOf(text: string): readonly string[] {
  return Object.freeze(text.split(',').map((h) => h.trim()).filter(Boolean));
}
