// Opens what a running service (or a CLI command) needs: the store, migrated; the shared state; the
// services. Closing releases them in reverse order.
import path from 'node:path';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { loadSecretKey } from './runtime-files.js';
import { closeServices, createServices, type Services } from './services.js';
import { memorySharedState } from './shared-state/memory.js';
import { redisSharedState } from './shared-state/redis.js';
import { redisResultCache, resultCacheLimits } from './querying/result-cache.js';
import { openStore, type StoreLocation } from './store/db.js';
import { migrate } from './store/migrate.js';
import { SignalScheduler } from './signals/signal-scheduler.js';
import { DeliveryScheduler } from './deliveries/schedule-scheduler.js';
import { RollupBuildScheduler } from './rollups/rollup-build-scheduler.js';

export function storeLocation(config: Config): StoreLocation {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'metadata') };
}

export async function openRuntime(
  config: Config,
  options: {
    clock?: Clock;
    onBackgroundError?: (error: unknown) => void;
    onNote?: (note: string) => void;
    /** Evaluate due signals in the background (the server does; CLI commands do not). */
    signals?: boolean;
  } = {},
): Promise<{ services: Services; migrations: string[]; close(): Promise<void> }> {
  const clock = options.clock ?? systemClock;
  const location = storeLocation(config);
  const applied = location.kind === 'postgres' ? await migratePostgres(location) : [];
  const store = await openStore(location);
  try {
    if (location.kind === 'pglite') applied.push(...(await migrate(store)).applied);
    const shared = config.redisUrl ? await redisSharedState(config.redisUrl) : memorySharedState(clock);
    const secretKey = await loadSecretKey(config);
    const resultCache = config.redisUrl ? await redisResultCache(config.redisUrl, resultCacheLimits(config)) : undefined;
    const services = createServices({ config, secretKey, store, shared, clock, resultCache, onBackgroundError: options.onBackgroundError, onNote: options.onNote });
    const scheduler = options.signals
      ? new SignalScheduler(services.signalRows, services.signals, clock, { pollMs: config.signalsPollMs, leaseMs: config.signalsLeaseMs, ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}) })
      : undefined;
    // Scheduled deliveries run where signals do: in the server, not in CLI commands.
    const deliveries = options.signals
      ? new DeliveryScheduler(services.scheduleRows, services.deliverySchedules, clock, { pollMs: config.signalsPollMs, ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}) })
      : undefined;
    // Rollup builds too (a CLI command never writes a workspace's rollup file), unless SVC_ROLLUP_BUILDS
    // is off: an instance that does not build has no rollup files of its own.
    const rollups = options.signals && config.rollupBuilds
      ? new RollupBuildScheduler(services.rollupBuildRows, services.rollupBuilds, clock, config.rollupBuildTimeoutMs, { pollMs: config.signalsPollMs, ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}) })
      : undefined;
    scheduler?.start();
    deliveries?.start();
    rollups?.start();
    return {
      services,
      migrations: applied,
      async close() {
        await scheduler?.stop();
        await deliveries?.stop();
        await rollups?.stop();
        await closeServices(services);
        await shared.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * Migrations run over their own short-lived pool, without the time limits that protect requests: they
 * may wait for another instance's migration lock and rebuild large tables. (PGlite has one owner and no
 * such limits: it migrates on the store itself.)
 */
async function migratePostgres(location: StoreLocation): Promise<string[]> {
  const store = await openStore(location, { unbounded: true });
  try {
    return (await migrate(store)).applied;
  } finally {
    await store.close();
  }
}
