import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has working defaults for a laptop', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      redisUrl: undefined,
      tls: { enabled: true },
      trustProxy: false,
      admin: { email: 'admin@example.com', password: undefined },
      demo: true,
      logLevel: 'info',
    });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8443',
      HOST: '0.0.0.0',
      SVC_DATA_DIR: '/var/lib/svc',
      DATABASE_URL: 'postgres://u:p@db:5432/svc',
      REDIS_URL: 'redis://cache:6379',
      TLS: 'off',
      TRUST_PROXY: '2',
      SVC_ADMIN_EMAIL: 'Ops@Example.com',
      SVC_ADMIN_PASSWORD: 'a long enough password',
      SVC_DEMO: 'off',
      LOG_LEVEL: 'warn',
      SVC_SECRET_KEY: 'ab'.repeat(32),
    });
    expect(config).toMatchObject({
      port: 8443,
      host: '0.0.0.0',
      dataDir: '/var/lib/svc',
      databaseUrl: 'postgres://u:p@db:5432/svc',
      redisUrl: 'redis://cache:6379',
      tls: { enabled: false },
      trustProxy: 2,
      admin: { email: 'ops@example.com', password: 'a long enough password' },
      demo: false,
      logLevel: 'warn',
      secretKeyHex: 'ab'.repeat(32),
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT /],
    [{ PORT: '70000' }, /PORT/],
    [{ TLS: 'maybe' }, /^Invalid configuration: TLS /],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must be a URL/],
    [{ SVC_SECRET_KEY: 'short' }, /SVC_SECRET_KEY must be 64 hexadecimal characters/],
    [{ SVC_ADMIN_PASSWORD: 'short' }, /SVC_ADMIN_PASSWORD must be at least 12 characters/],
    [{ SVC_ADMIN_EMAIL: 'not-an-email' }, /SVC_ADMIN_EMAIL/],
    [{ TLS_CERT_FILE: '/tmp/cert.pem' }, /TLS_CERT_FILE and TLS_KEY_FILE must be set together/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SVC_EVENTS_POLL_MS: '0' }, /SVC_EVENTS_POLL_MS/],
    // A signal run's lease must outlast the evaluation it guards: the warehouse time limit and a margin.
    [{ SVC_SIGNALS_LEASE_SECONDS: '30' }, /^Invalid configuration: SVC_SIGNALS_LEASE_SECONDS must be at least 45 \(the warehouse query time limit of 30 s plus 15 s\)/],
    [{ SVC_SIGNALS_LEASE_SECONDS: '44' }, /SVC_SIGNALS_LEASE_SECONDS must be at least 45/],
  ])('refuses %o with one clear line', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('takes a signals lease of the warehouse time limit plus the margin, or longer', () => {
    expect(loadConfig({}).signalsLeaseMs).toBe(120_000);
    expect(loadConfig({ SVC_SIGNALS_LEASE_SECONDS: '45' }).signalsLeaseMs).toBe(45_000);
  });

  it("reads the CSV export's row cap: a million by default, a positive whole number", () => {
    expect(loadConfig({}).csvExportMaxRows).toBe(1_000_000);
    expect(loadConfig({ SVC_CSV_EXPORT_MAX_ROWS: '250000' }).csvExportMaxRows).toBe(250_000);
    expect(() => loadConfig({ SVC_CSV_EXPORT_MAX_ROWS: '0' })).toThrow(/^Invalid configuration: SVC_CSV_EXPORT_MAX_ROWS /);
    expect(() => loadConfig({ SVC_CSV_EXPORT_MAX_ROWS: 'lots' })).toThrow(/SVC_CSV_EXPORT_MAX_ROWS/);
  });

  it("reads the rollup build settings: builds on, a time limit of half an hour by default, apart from the query time limit", () => {
    expect(loadConfig({}).rollupBuildTimeoutMs).toBe(1_800_000);
    expect(loadConfig({ SVC_ROLLUP_BUILD_TIMEOUT_MS: '120000' }).rollupBuildTimeoutMs).toBe(120_000);
    expect(() => loadConfig({ SVC_ROLLUP_BUILD_TIMEOUT_MS: '10' })).toThrow(/^Invalid configuration: SVC_ROLLUP_BUILD_TIMEOUT_MS /);
    expect(() => loadConfig({ SVC_ROLLUP_BUILD_TIMEOUT_MS: 'long' })).toThrow(/SVC_ROLLUP_BUILD_TIMEOUT_MS/);
    expect(loadConfig({}).rollupBuilds).toBe(true);
    expect(loadConfig({ SVC_ROLLUP_BUILDS: 'off' }).rollupBuilds).toBe(false);
  });

  it('reads the retention settings: days to keep each kind of row, 0 for ever', () => {
    expect(loadConfig({}).retention).toEqual({ eventsDays: 30, deliveriesDays: 30, signalEvaluationsDays: 90, queryHistoryDays: 90, scheduleRunsDays: 90 });
    expect(
      loadConfig({ SVC_RETENTION_EVENTS_DAYS: '7', SVC_RETENTION_DELIVERIES_DAYS: '3', SVC_RETENTION_SIGNAL_EVALUATIONS_DAYS: '0', SVC_RETENTION_QUERY_HISTORY_DAYS: '365', SVC_RETENTION_SCHEDULE_RUNS_DAYS: '14' }).retention,
    ).toEqual({ eventsDays: 7, deliveriesDays: 3, signalEvaluationsDays: 0, queryHistoryDays: 365, scheduleRunsDays: 14 });
    expect(() => loadConfig({ SVC_RETENTION_EVENTS_DAYS: '-1' })).toThrow(/^Invalid configuration: SVC_RETENTION_EVENTS_DAYS /);
    expect(() => loadConfig({ SVC_RETENTION_QUERY_HISTORY_DAYS: 'a week' })).toThrow(/SVC_RETENTION_QUERY_HISTORY_DAYS/);
  });

  it('reads the SQL interface settings: port 5433 unless set (off turns it off), TLS only, 50 connections a workspace, 900 s idle', () => {
    expect(loadConfig({}).sql).toEqual({ port: 5433, explicit: false, allowPlaintext: false, maxConnectionsPerWorkspace: 50, idleSeconds: 900 });
    expect(loadConfig({ SVC_SQL_PORT: '6543', SVC_SQL_PLAINTEXT: 'on', SVC_SQL_MAX_CONNECTIONS: '5', SVC_SQL_IDLE_SECONDS: '60' }).sql).toEqual({ port: 6543, explicit: true, allowPlaintext: true, maxConnectionsPerWorkspace: 5, idleSeconds: 60 });
    expect(loadConfig({ SVC_SQL_PORT: 'off' }).sql).toBeUndefined();
    expect(() => loadConfig({ SVC_SQL_PORT: 'on' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_SQL_PORT: '70000' })).toThrow(/SVC_SQL_PORT/);
    expect(() => loadConfig({ SVC_SQL_IDLE_SECONDS: '1' })).toThrow(/SVC_SQL_IDLE_SECONDS/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it('reads the webhook settings: poll interval (1 s by default), allowed hosts and attempts in flight per endpoint (8)', () => {
    expect(loadConfig({}).events).toEqual({ pollMs: 1000, allowHosts: [], endpointConcurrency: 8 });
    expect(loadConfig({ SVC_EVENTS_POLL_MS: '250', SVC_WEBHOOK_ALLOW_HOSTS: ' 127.0.0.1, localhost ,', SVC_WEBHOOK_ENDPOINT_CONCURRENCY: '2' }).events).toEqual({
      pollMs: 250,
      allowHosts: ['127.0.0.1', 'localhost'],
      endpointConcurrency: 2,
    });
    expect(() => loadConfig({ SVC_WEBHOOK_ENDPOINT_CONCURRENCY: '0' })).toThrow(/SVC_WEBHOOK_ENDPOINT_CONCURRENCY/);
  });

  it('reads the result cache limits (128 MiB, 2 MiB an answer by default) and the metrics token', () => {
    expect(loadConfig({})).toMatchObject({ resultCache: { seconds: 60, maxBytes: 128 * 1024 * 1024, maxEntryBytes: 2048 * 1024 }, metricsToken: undefined });
    const config = loadConfig({ SVC_RESULT_CACHE_SECONDS: '30', SVC_RESULT_CACHE_MAX_MB: '16', SVC_RESULT_CACHE_MAX_ENTRY_KB: '256', SVC_METRICS_TOKEN: 'a-scraper-token-of-length' });
    expect(config).toMatchObject({ resultCache: { seconds: 30, maxBytes: 16 * 1024 * 1024, maxEntryBytes: 256 * 1024 }, metricsToken: 'a-scraper-token-of-length' });
    expect(() => loadConfig({ SVC_RESULT_CACHE_MAX_MB: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_RESULT_CACHE_MAX_ENTRY_KB: 'lots' })).toThrow(/SVC_RESULT_CACHE_MAX_ENTRY_KB/);
    expect(() => loadConfig({ SVC_METRICS_TOKEN: 'short' })).toThrow(/SVC_METRICS_TOKEN must be at least 16 characters/);
  });
});
