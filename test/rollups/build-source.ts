// A small source for rollup build tests: an embedded DuckDB file with one event an hour for the last
// `days` days up to the test clock's current hour (UTC), and a model with a rollup partitioned by day
// refreshed hourly and one built whole at each deploy. The warehouse opens the file read-only, so a
// change to the table closes it first (`change`) and reopens it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import { Registry } from 'prom-client';
import { compileModel } from '../../src/core/cml/index.js';
import type { SemanticModel } from '../../src/core/semantic/model.js';
import { openWarehouse } from '../../src/core/warehouse/index.js';
import type { Warehouse } from '../../src/core/warehouse/types.js';
import type { Clock } from '../../src/clock.js';
import { RollupBuildMetrics } from '../../src/observability/rollup-build-metrics.js';
import { RollupBuildService } from '../../src/rollups/rollup-builds.js';
import { RollupPartitionCache } from '../../src/rollups/rollup-partition-cache.js';
import { RollupStores } from '../../src/rollups/rollup-stores.js';
import type { SharedState } from '../../src/shared-state/shared-state.js';
import type { Store } from '../../src/store/db.js';
import { rollupBuildsRepo } from '../../src/store/rollup-builds-repo.js';
import { rollupPartitionsRepo } from '../../src/store/rollup-partitions-repo.js';
import type { MetadataStore, StoreTestApp } from '../helpers/metadata-stores.js';

const HOUR = 3_600_000;

export const EVENTS_CML = (totals = 'measures: [event_count]') => `node events {
  connection: warehouse  table: main.events
  dimension id { type: number  primary_key: true }
  dimension kind { type: string }
  dimension amount { type: number }
  dimension happened_at { type: timestamp }
  measure event_count { type: count }
  measure total { type: sum  sql: \${amount} }
  rollup daily { dimensions: [kind]  measures: [event_count, total]  time: happened_at  grain: hour  partition: day  refresh: "1 hour" }
  rollup totals { dimensions: [kind]  ${totals}  refresh: on_deploy }
}
`;

export function eventsModel(totals?: string): SemanticModel {
  const { model, diagnostics } = compileModel([{ path: 'events.cml', content: EVENTS_CML(totals) }]);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !model) throw new Error(`events.cml: ${errors.map((d) => d.message).join('; ')}`);
  return model;
}

/** One event an hour from the start of the day `days - 1` days before `now` (UTC) up to now's hour. */
export function eventTimes(now: Date, days: number): Date[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const times: Date[] = [];
  for (let at = today - (days - 1) * 24 * HOUR; at <= now.getTime(); at += HOUR) times.push(new Date(at));
  return times;
}

const wallText = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

export class EventSource {
  private warehouse: Warehouse | undefined;
  private nextId = 1;

  constructor(readonly file: string) {}

  /** Creates the table with events at `times`. */
  async create(times: readonly Date[]): Promise<void> {
    await this.change(async (run) => {
      await run('CREATE TABLE events (id INTEGER PRIMARY KEY, kind VARCHAR, amount INTEGER, happened_at TIMESTAMP)');
    });
    await this.add(times);
  }

  async add(times: readonly Date[]): Promise<void> {
    await this.change(async (run) => {
      for (const at of times) {
        const id = this.nextId++;
        await run(`INSERT INTO events VALUES (${id}, '${id % 2 === 0 ? 'even' : 'odd'}', ${id % 7}, TIMESTAMP '${wallText(at)}')`);
      }
    });
  }

  /** Runs statements on the file, the warehouse closed meanwhile (it holds the file read-only). */
  async change(work: (run: (sql: string) => Promise<unknown>) => Promise<void>): Promise<void> {
    await this.warehouse?.close();
    this.warehouse = undefined;
    const instance = await DuckDBInstance.create(this.file);
    const connection = await instance.connect();
    try {
      await work((sql) => connection.run(sql));
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  source(): Warehouse {
    this.warehouse ??= openWarehouse({ engine: 'duckdb', path: this.file });
    return this.warehouse;
  }

  async close(): Promise<void> {
    await this.warehouse?.close();
  }
}

/**
 * A build service (builds limited to `timeoutMs`) over `store` whose workspaces' live model is `model()`
 * and whose source is `events`; with `shared`, its changes to build records are announced to the
 * returned `partitionCache`, as the service's are to routing.
 */
export function buildService(store: Store, clock: Clock, dataDir: string, events: EventSource, model: () => SemanticModel, timeoutMs = 60_000, shared?: SharedState) {
  const registry = new Registry();
  const stores = new RollupStores(dataDir);
  const repo = rollupBuildsRepo(store.db);
  const partitionCache = shared ? new RollupPartitionCache(rollupPartitionsRepo(store.db), shared) : undefined;
  const service = new RollupBuildService({
    repo,
    models: { live: async () => ({ model: model() }) },
    source: async () => events.source(),
    stores,
    clock,
    metrics: new RollupBuildMetrics(registry),
    timeoutMs,
    ...(partitionCache ? { partitionsChanged: (workspaceId: string) => partitionCache.changed(workspaceId) } : {}),
  });
  /** Builds started so far, as /metrics counts them. */
  const started = async () => (await registry.getSingleMetric('svc_rollup_builds_started_total')!.get()).values.reduce((sum, v) => sum + v.value, 0);
  return { service, repo, stores, registry, started, partitionCache };
}

export interface BuildSuite {
  readonly dir: string;
  readonly events: EventSource;
  /** Events in the source table when the suite started. */
  sourceRows: number;
  t: StoreTestApp;
  builds: ReturnType<typeof buildService>;
}

/**
 * Before the enclosing describe's tests: an app on `metadata`, a source with `days` days of events and a
 * build service over them (in a directory of the suite's own); all closed and removed after.
 */
export function buildSuite(metadata: MetadataStore, days: number, model: () => SemanticModel, timeoutMs?: number): BuildSuite {
  const dir = mkdtempSync(path.join(tmpdir(), 'rollup-builds-'));
  const suite = { dir, events: new EventSource(path.join(dir, 'source.duckdb')), sourceRows: 0 } as BuildSuite;
  beforeAll(async () => {
    suite.t = await metadata.start();
    const times = eventTimes(suite.t.clock.now(), days);
    suite.sourceRows = times.length;
    await suite.events.create(times);
    suite.builds = buildService(suite.t.store, suite.t.clock, path.join(dir, 'data'), suite.events, model, timeoutMs, suite.t.services.shared);
  }, 60_000);
  afterAll(async () => {
    await suite.builds?.stores.close();
    await suite.events.close();
    await suite.t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return suite;
}
