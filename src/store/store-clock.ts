// The store's clock, for leases. A lease is set and compared by the store itself (now() in the claiming
// statement), never from an instance's clock: instances whose clocks disagree still agree on who holds a
// row. PostgreSQL and embedded PGlite both have now() (the start of the current transaction).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from './schema.js';

/** The store's current time. */
export const storeNow: RawBuilder<Date> = sql<Date>`now()`;

/** The end of a lease of `ms` taken now, by the store's clock. */
export function leaseEnd(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + ${ms}::double precision * interval '1 millisecond'`;
}

/** Reads the store's current time: for comparisons with times the store wrote itself (column defaults). */
export async function readStoreNow(db: Kysely<Database>): Promise<Date> {
  const result = await sql<{ now: Date }>`select now() as now`.execute(db);
  return result.rows[0]!.now;
}

/**
 * The rows a claim loop may take (signals, delivery schedules, rollup builds: tables with next_run_at and
 * claimed_until): due by the instance's `now` and not claimed, or claimed under a lease that has run out
 * by the store's clock (a run left behind by an instance that died is retried).
 */
export function claimable(now: Date): RawBuilder<SqlBool> {
  return sql<SqlBool>`((next_run_at <= ${now} and claimed_until is null) or claimed_until <= now())`;
}
