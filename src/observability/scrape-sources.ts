// The store-backed readings of GET /metrics: each a single indexed aggregate, read when scraped.
import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { WarehouseRegistry } from '../core/warehouse/index.js';
import type { ResultCache } from '../querying/result-cache.js';
import type { Store } from '../store/db.js';
import type { ScrapeSources } from './metrics.js';

export function scrapeSources(store: Store, cache: ResultCache, clock: Clock, warehouses: WarehouseRegistry): ScrapeSources {
  return {
    cache: () => cache.stats(),
    storePool: () => store.poolStats?.(),
    warehousePools: () => warehouses.poolStats(),
    async schedulerLagSeconds() {
      const now = clock.now();
      const row = await store.db
        .selectFrom('signals')
        .select(sql<Date | null>`min(next_run_at)`.as('oldest'))
        .where('enabled', '=', true)
        .where('next_run_at', '<=', now)
        .where('claimed_until', 'is', null)
        .executeTakeFirst();
      const oldest = row?.oldest ? new Date(row.oldest) : undefined;
      return oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0;
    },
    async webhookBacklog() {
      const row = await store.db.selectFrom('webhook_deliveries').select(sql<number>`count(*)`.as('pending')).where('status', '=', 'pending').executeTakeFirst();
      return Number(row?.pending ?? 0);
    },
  };
}
