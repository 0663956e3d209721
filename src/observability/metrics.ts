// What the service counts for GET /metrics (Prometheus text format, prom-client). One registry per
// set of services, not prom-client's global one: several apps may live in one process (tests, the
// benchmarks), and each reports only its own. Gauges that describe the store (webhook backlog,
// scheduler lag, table sizes) are read when scraped, not kept up to date on every change.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResultCacheStats } from '../querying/result-cache.js';

/** Request and warehouse durations: from a cache hit (sub-millisecond) to a warehouse time-out (30 s). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface ScrapeSources {
  cache(): ResultCacheStats;
  /** The store's connection pool, where it has one (PostgreSQL; PGlite has none). */
  storePool(): { total: number; idle: number; waiting: number } | undefined;
  /** The warehouse drivers' pools, summed by engine (PostgreSQL and DuckDB count theirs). */
  warehousePools(): ReadonlyMap<string, { total: number; idle: number; waiting: number }>;
  /** Seconds the oldest due, unclaimed signal has waited past its run time (0 when none waits). */
  schedulerLagSeconds(): Promise<number>;
  /** Webhook deliveries still to be made (pending, first attempts and retries alike). */
  webhookBacklog(): Promise<number>;
  /** Each table of the store: its rows (the store's estimate) and its bytes on disk (indexes included). */
  storeTables(): Promise<readonly TableSize[]>;
}

export interface TableSize {
  table: string;
  rows: number;
  bytes: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly requestSeries = new Map<string, { observe(value: number): void }>();
  private readonly cacheHits: { inc(): void };
  private readonly cacheMisses: { inc(): void };
  private readonly warehouseRuns: Histogram<'engine' | 'outcome'>;
  private readonly cacheLookups: Counter<'result'>;
  private readonly rateLimited: Counter<'route'>;
  private readonly guardRefused: Counter<'engine'>;
  private readonly sqlConnections: Gauge;
  private readonly sqlConnectionAttempts: Counter<'outcome'>;
  private readonly sqlStatements: Counter<'outcome'>;

  constructor() {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, with their latency (its _count is the request count)',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.warehouseRuns = new Histogram({
      name: 'svc_warehouse_run_duration_seconds',
      help: 'Queries run on warehouses, by engine and outcome (success or error)',
      labelNames: ['engine', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.cacheLookups = new Counter({ name: 'svc_result_cache_lookups_total', help: 'Result cache lookups of structured queries, by result (hit or miss)', labelNames: ['result'], registers });
    this.cacheHits = this.cacheLookups.labels({ result: 'hit' });
    this.cacheMisses = this.cacheLookups.labels({ result: 'miss' });
    this.rateLimited = new Counter({ name: 'svc_rate_limit_refusals_total', help: 'Requests refused with 429 (a spent budget or sign-in throttle), by route pattern', labelNames: ['route'], registers });
    this.guardRefused = new Counter({ name: 'svc_sql_guard_refusals_total', help: 'Statements the read-only SQL guard refused, by engine', labelNames: ['engine'], registers });
    for (const result of ['hit', 'miss']) this.cacheLookups.inc({ result }, 0);
    this.sqlConnections = new Gauge({ name: 'svc_sql_connections', help: 'Connections open now on the SQL interface (PostgreSQL protocol), signed in', registers });
    this.sqlConnectionAttempts = new Counter({ name: 'svc_sql_connection_attempts_total', help: 'Sign-ins on the SQL interface, by outcome (accepted, or the reason of the refusal)', labelNames: ['outcome'], registers });
    this.sqlStatements = new Counter({ name: 'svc_sql_statements_total', help: 'Statements run on the SQL interface, by outcome (ok or error)', labelNames: ['outcome'], registers });
    for (const outcome of ['ok', 'error']) this.sqlStatements.inc({ outcome }, 0);
  }

  /** Adds the gauges read at scrape time; called once the services they read exist. */
  watch(sources: ScrapeSources): void {
    const registers = [this.registry];
    new Gauge({ name: 'svc_result_cache_bytes', help: 'Bytes held by the in-process result cache (absent with Redis)', registers, collect() { const { bytes } = sources.cache(); if (bytes !== undefined) this.set(bytes); } });
    new Gauge({ name: 'svc_result_cache_entries', help: 'Entries held by the in-process result cache (absent with Redis)', registers, collect() { const { entries } = sources.cache(); if (entries !== undefined) this.set(entries); } });
    new Gauge({
      name: 'svc_store_pool_connections',
      help: 'Connections of the metadata store pool, by state (total, idle, waiting clients); PostgreSQL stores only',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.storePool();
        if (!pool) return;
        for (const [state, value] of Object.entries(pool)) this.set({ state }, value);
      },
    });
    new Gauge({
      name: 'svc_warehouse_pool_connections',
      help: 'Connections of the warehouse drivers\' pools, by engine and state (total, idle, waiting runs)',
      labelNames: ['engine', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [engine, pool] of sources.warehousePools()) for (const [state, value] of Object.entries(pool)) this.set({ engine, state }, value);
      },
    });
    new Gauge({ name: 'svc_signal_scheduler_lag_seconds', help: 'How long the oldest due signal has waited past its run time', registers, async collect() { this.set(await sources.schedulerLagSeconds()); } });
    new Gauge({ name: 'svc_webhook_backlog', help: 'Webhook deliveries not yet made (pending)', registers, async collect() { this.set(await sources.webhookBacklog()); } });
    // Both table gauges come from one reading per scrape: the first to collect starts it, the second takes it.
    let reading: Promise<readonly TableSize[]> | undefined;
    const sizes = (first: boolean) => {
      if (first || !reading) reading = sources.storeTables();
      const taken = reading;
      if (!first) reading = undefined;
      return taken;
    };
    new Gauge({
      name: 'svc_store_table_rows',
      help: "Rows of each table of the metadata store: the store's estimate (as of its last analyze), exact for a table never analyzed",
      labelNames: ['table'],
      registers,
      async collect() {
        this.reset();
        for (const { table, rows } of await sizes(true)) this.set({ table }, rows);
      },
    });
    new Gauge({
      name: 'svc_store_table_bytes',
      help: 'Bytes of each table of the metadata store on disk, with its indexes and TOAST',
      labelNames: ['table'],
      registers,
      async collect() {
        this.reset();
        for (const { table, bytes } of await sizes(false)) this.set({ table }, bytes);
      },
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    // Every request lands here: its series is found by one string instead of prom-client hashing a
    // labels object each time. Bounded: route patterns, HTTP methods and statuses are few.
    const name = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(name);
    if (!series) this.requestSeries.set(name, (series = this.requests.labels({ method, route, status: String(status) })));
    series.observe(seconds);
  }

  warehouseRun(engine: string, outcome: 'success' | 'error', seconds: number): void {
    this.warehouseRuns.observe({ engine, outcome }, seconds);
  }

  cacheLookup(hit: boolean): void {
    (hit ? this.cacheHits : this.cacheMisses).inc();
  }

  rateLimitRefused(route: string): void {
    this.rateLimited.inc({ route });
  }

  guardRefusal(engine: string): void {
    this.guardRefused.inc({ engine });
  }

  sqlConnectionAttempt(outcome: string): void {
    this.sqlConnectionAttempts.inc({ outcome });
  }

  sqlConnectionOpened(): void {
    this.sqlConnections.inc();
  }

  sqlConnectionClosed(): void {
    this.sqlConnections.dec();
  }

  sqlStatement(outcome: 'ok' | 'error'): void {
    this.sqlStatements.inc({ outcome });
  }
}
