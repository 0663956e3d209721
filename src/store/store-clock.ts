// The store's clock, for leases. A lease is set and compared by the store itself (now() in the claiming
// statement), never from an instance's clock: instances whose clocks disagree still agree on who holds a
// row. PostgreSQL and embedded PGlite both have now() (the start of the current transaction).
import { sql, type RawBuilder } from 'kysely';

/** The store's current time. */
export const storeNow: RawBuilder<Date> = sql<Date>`now()`;

/** The end of a lease of `ms` taken now, by the store's clock. */
export function leaseEnd(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + ${ms}::double precision * interval '1 millisecond'`;
}
