// The store-backed readings of GET /metrics, read when scraped: each a single indexed aggregate, or the
// catalogue's statistics for table sizes.
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
    async storeTables() {
      // The catalogue's estimate costs nothing whatever the table's size; a table never analyzed (-1)
      // has no estimate and is counted instead (new tables, small ones autovacuum has not reached yet).
      const { rows } = await sql<{ name: string; estimate: number; bytes: number }>`
        select c.relname as name, c.reltuples::float8 as estimate, pg_total_relation_size(c.oid)::float8 as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
        order by c.relname`.execute(store.db);
      return Promise.all(
        rows.map(async ({ name, estimate, bytes }) => ({
          table: name,
          rows: estimate >= 0 ? Math.round(estimate) : await exactCount(store, name),
          bytes: Number(bytes),
        })),
      );
    },
  };
}

async function exactCount(store: Store, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
  return Number(rows[0]?.n ?? 0);
}
