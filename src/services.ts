// Wires the framework-free services from their parts. The HTTP app and the CLI both start here.
import { AnswerService } from './answering/answer-service.js';
import type { Clock } from './clock.js';
import { ConnectionService } from './connections/connection-service.js';
import { DuckDbFileCheck } from './connections/duckdb-file-check.js';
import { SecretBox } from './crypto/secret-box.js';
import type { Config } from './config.js';
import { KeyResolver } from './identity/key-resolver.js';
import { KeyService } from './identity/key-service.js';
import { LastUsedRecorder } from './identity/last-used.js';
import { createOauthServices } from './identity/oauth/oauth-services.js';
import { SessionService } from './identity/session-service.js';
import { TenancyService } from './identity/tenancy-service.js';
import { ModelService } from './modeling/model-service.js';
import type { GenerationSnapshot, SharedState } from './shared-state/shared-state.js';
import { apiKeysRepo } from './store/api-keys.js';
import type { Store } from './store/db.js';
import { historyRepo } from './store/history-repo.js';
import { HistoryWriter } from './store/history-writer.js';
import { ServiceMetrics } from './observability/metrics.js';
import { scrapeSources } from './observability/scrape-sources.js';
import { membersRepo } from './store/members-repo.js';
import { modelsRepo } from './store/models-repo.js';
import { GovernedQueryService } from './querying/governed-query-service.js';
import { RawSqlService } from './querying/raw-sql-service.js';
import { rollupPartitionsRepo, type RollupPartitionRow } from './store/rollup-partitions-repo.js';
import { WAREHOUSE_QUERY_TIMEOUT_MS } from './querying/query-time-limit.js';
import { SchemaCache } from './connections/schema-cache.js';
import { memoryResultCache, resultCacheLimits, type ResultCache } from './querying/result-cache.js';
import { sessionsRepo } from './store/sessions.js';
import { mosaicsRepo, scenesRepo } from './store/scenes-repo.js';
import { vaultsRepo } from './store/vaults-repo.js';
import { VaultService } from './content/vault-service.js';
import { SceneService } from './content/scene-service.js';
import { MosaicService } from './content/mosaic-service.js';
import { sceneRevalidation } from './content/scene-revalidation.js';
import { ContentGeneration } from './content/content-generation.js';
import { SignalService } from './signals/signal-service.js';
import { DeliveryScheduleService } from './deliveries/schedule-service.js';
import { schedulesRepo } from './deliveries/schedules-repo.js';
import { signalsRepo } from './signals/signals-repo.js';
import { WebhookService } from './events/webhook-service.js';
import { WebhookRecovery } from './events/webhook-recovery.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from './events/delivery-worker.js';
import { JobRunner } from './jobs/job-runner.js';
import { retentionJob } from './jobs/retention.js';
import { MODEL_CONNECTION } from './connections/connection-service.js';
import { RollupBuildMetrics } from './observability/rollup-build-metrics.js';
import { RollupBuildService } from './rollups/rollup-builds.js';
import { RollupStores } from './rollups/rollup-stores.js';
import { RollupPartitionCache } from './rollups/rollup-partition-cache.js';
import { rollupBuildsRepo } from './store/rollup-builds-repo.js';
import { rollupAnswersRepo } from './store/rollup-answers-repo.js';
import { RollupAnswerCounts } from './rollups/rollup-answer-counts.js';
import { RollupOverviews } from './rollups/rollup-overview.js';
import type { RollupReport } from './querying/rollup-route.js';

/** Time limit of a raw SQL run on a warehouse. */
export const RAW_SQL_TIMEOUT_MS = WAREHOUSE_QUERY_TIMEOUT_MS;
/** History rows are written together every so often, or as soon as this many wait (history-writer.ts). */
const HISTORY_BATCH = { flushMs: 50, maxRows: 200 };
/** How often each instance looks for due store-wide jobs (retention pruning runs hourly). */
const JOBS_POLL_MS = 60_000;
/** Connection schemas (the editor's schema browser, the SQL fallback's table choice) are kept this long. */
const SCHEMA_CACHE_MS = 60_000;

export interface ServiceDeps {
  config: Config;
  /** 32 bytes: seals secrets kept in the store (SVC_SECRET_KEY). */
  secretKey: Buffer;
  store: Store;
  shared: SharedState;
  clock: Clock;
  /** Structured query results; in process when not given. */
  resultCache?: ResultCache;
  onBackgroundError?: (error: unknown) => void;
  /** Why a language model's output was not used as is (refused modes, fallbacks): worth a warning, not an error. */
  onNote?: (note: string) => void;
}

export function createServices({ config, secretKey, store, shared, clock, resultCache, onBackgroundError, onNote }: ServiceDeps) {
  const keysRepo = apiKeysRepo(store.db);
  const members = membersRepo(store.db);
  const lastUsed = new LastUsedRecorder(keysRepo, 10_000, onBackgroundError);
  const box = new SecretBox(secretKey);
  const connections = new ConnectionService(store, box, config.dataDir, shared, config.instanceName);
  // A deploy starts the new model's value indexes; the answer service is created below.
  const models = new ModelService(store, shared, clock);
  const metrics = new ServiceMetrics();
  const history = new HistoryWriter(historyRepo(store.db), { ...HISTORY_BATCH, ...(onBackgroundError ? { onError: onBackgroundError } : {}) });
  const rawSql = new RawSqlService(connections, history, clock, RAW_SQL_TIMEOUT_MS, metrics);
  const schemas = new SchemaCache(SCHEMA_CACHE_MS, () => clock.now().getTime());
  const cache = resultCache ?? memoryResultCache(resultCacheLimits(config), () => clock.now().getTime());
  // Every workspace's rollup file, opened once, and the rollup schemas of connections that name one;
  // answers read them when SVC_ROLLUPS is on.
  const rollupStores = new RollupStores(config.dataDir, {
    named: async (workspaceId, name, generations) => {
      const { connection, warehouse } = await connections.warehouse(workspaceId, name, { ...MODEL_CONNECTION, generations });
      const schema = connection.settings['rollup_schema'];
      return { rollupSchema: typeof schema === 'string' ? schema : undefined, warehouse };
    },
    withRollupSchema: async (workspaceId) => (await connections.list(workspaceId, { includeInternal: true })).filter((c) => typeof c.settings['rollup_schema'] === 'string').map((c) => c.name),
  });
  const partitions = rollupPartitionsRepo(store.db);
  // What routing reads of the build records on each query, kept in process until a build record changes.
  const partitionCache = new RollupPartitionCache(partitions, shared);
  const rollupMetrics = new RollupBuildMetrics(metrics.registry);
  const rollupAnswers = new RollupAnswerCounts(rollupAnswersRepo(store.db), rollupMetrics, 10_000, onBackgroundError);
  const rollupRouting = config.rollups
    ? {
        existing: (workspaceId: string, connection: string, generations?: GenerationSnapshot) => rollupStores.existing(workspaceId, connection, generations),
        partitions: (workspaceId: string, table: string, generations?: GenerationSnapshot) => partitionCache.list(workspaceId, table, generations),
        generation: (workspaceId: string, generations?: GenerationSnapshot) => partitionCache.generation(workspaceId, generations),
        answered: (workspaceId: string, node: string, report: RollupReport) => rollupAnswers.answered(workspaceId, node, report),
      }
    : undefined;
  const governed = new GovernedQueryService(models, connections, rawSql, cache, clock, metrics, rollupRouting);
  metrics.watch(scrapeSources(store, cache, clock, connections.registry));
  const values = { perDimension: config.values.perDimension, refreshMs: config.values.refreshSeconds * 1000, maxScopes: config.values.maxScopes, maxValues: config.values.maxTotal };
  const answers = new AnswerService({ models, connections, rawSql, governed, schemas, clock, llm: config.llm, values, ...(onNote ? { onNote } : {}), ...(onBackgroundError ? { onBackgroundError } : {}) });
  // A deploy starts building the new model's value indexes in the background; nothing waits for them.
  models.onDeploy(async ({ workspaceId }) => {
    answers.modelDeployed(workspaceId);
    return {};
  });
  const rollupBuildRows = rollupBuildsRepo(store.db);
  const rollupBuilds = new RollupBuildService({
    repo: rollupBuildRows,
    models,
    source: async (workspaceId, connection) => (await connections.warehouse(workspaceId, connection, MODEL_CONNECTION)).warehouse,
    stores: rollupStores,
    clock,
    metrics: rollupMetrics,
    timeoutMs: config.rollupBuildTimeoutMs,
    partitionsChanged: (workspaceId) => partitionCache.changed(workspaceId),
  });
  // A deploy plans its rollups' builds (the build loop runs them) and drops the tables of removed definitions.
  models.onDeploy(async ({ workspaceId, live }) => {
    try {
      await rollupBuilds.deployed(workspaceId, live.model);
    } catch (error) {
      // The deploy stands; the next deploy plans again.
      onBackgroundError?.(error);
    }
    return {};
  });
  const sceneRows = scenesRepo(store.db);
  const contentGeneration = new ContentGeneration(shared);
  const vaults = new VaultService(vaultsRepo(store.db), members, clock, contentGeneration);
  const scenes = new SceneService(sceneRows, vaults, governed, clock, contentGeneration);
  models.onDeploy(sceneRevalidation(sceneRows, contentGeneration));
  const signalRows = signalsRepo(store.db);
  const deliveryWorker = (overrides: Partial<DeliveryWorkerOptions> = {}) =>
    new DeliveryWorker({ store, box, clock, allowHosts: config.events.allowHosts, pollMs: config.events.pollMs, endpointConcurrency: config.events.endpointConcurrency, ...(onBackgroundError ? { onError: onBackgroundError } : {}), ...overrides });
  const webhooks = new WebhookService(store, box, clock, config.events.allowHosts);
  const mosaics = new MosaicService(mosaicsRepo(store.db), vaults, scenes, governed, clock);
  const scheduleRows = schedulesRepo(store.db);
  // Jobs one instance at a time runs for the whole store; started by the server (src/main.ts).
  const jobs = new JobRunner(store, clock, [retentionJob(store, clock, config.retention)], { pollMs: JOBS_POLL_MS, ...(onBackgroundError ? { onError: onBackgroundError } : {}) });
  return {
    config,
    store,
    shared,
    clock,
    members,
    tenancy: new TenancyService(store.db, members, shared),
    lastUsed,
    keyResolver: new KeyResolver(keysRepo, shared, clock),
    keys: new KeyService(keysRepo, shared, clock, lastUsed),
    oauth: createOauthServices(store, shared, clock, onBackgroundError),
    models,
    answers,
    connections,
    duckDbFiles: new DuckDbFileCheck(store, config.dataDir, clock),
    projects: modelsRepo(store.db),
    history,
    metrics,
    resultCache: cache,
    governed,
    rollupStores,
    /** The build records; `record` also tells every instance's routing (tests and tools record builds here). */
    rollupPartitions: { ...partitions, record: (row: RollupPartitionRow) => partitionCache.record(row) },
    vaults,
    scenes,
    sceneRows,
    signals: new SignalService(signalRows, vaults, scenes, governed, clock),
    signalRows,
    webhooks,
    webhookRecovery: new WebhookRecovery(store, webhooks, clock),
    // Not started here: the server starts it (src/main.ts); CLI commands never deliver.
    deliveries: deliveryWorker(),
    /** Another delivery worker over the same secrets (tests: other stores, shorter schedules). */
    deliveryWorker,
    jobs,
    rollupBuildRows,
    rollupBuilds,
    rollupAnswers,
    rollupOverviews: new RollupOverviews({ models, builds: rollupBuilds, repo: rollupBuildRows, partitions, answers: rollupAnswers, clock, dataDir: config.dataDir, stores: rollupStores }),
    mosaics,
    scheduleRows,
    deliverySchedules: new DeliveryScheduleService(scheduleRows, { scenes, mosaics }, clock, config.events.consoleUrl),
    rawSql,
    schemas,
    sessions: new SessionService(members, sessionsRepo(store.db), shared, clock, {
      idleMs: config.session.idleMinutes * 60_000,
      maxAgeMs: config.session.maxHours * 3_600_000,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Stops what the services run in the background, then closes their connections, in the order that keeps
 * a background read off a closed warehouse: deliveries and value builds end before the drivers close.
 * The store and the shared state belong to the caller.
 */
export async function closeServices(services: Services): Promise<void> {
  await services.jobs.stop();
  await services.deliveries.stop();
  await services.answers.close();
  await services.lastUsed.stop();
  await services.oauth.lastUsed.stop();
  await services.rollupAnswers.stop();
  await services.rawSql.flush();
  await services.connections.close();
  await services.rollupStores.close();
  await services.resultCache.close();
}
