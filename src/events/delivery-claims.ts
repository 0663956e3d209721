// Claiming due deliveries, endpoint by endpoint. Each endpoint has its own bound on attempts in flight,
// counted in the store (rows whose lease runs), so a receiver that hangs ties up at most that many
// attempts, on every instance together, and never the worker: the other endpoints' deliveries are claimed
// beside it.
//
// A claim is one short transaction of two statements. The first locks the endpoints that have due work
// and room (FOR NO KEY UPDATE SKIP LOCKED: another instance claiming for the same endpoint skips it, and
// the lock does not block the foreign-key checks of new delivery rows). The second, which in READ
// COMMITTED sees everything committed before the locks were taken, counts each endpoint's attempts in
// flight and claims up to its bound: it counts the attempt and sets the lease, on the store's clock.
// Whether a row is due is judged by the service's clock (`now`): retry times are the service's; only
// leases are the store's.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { leaseEnd } from '../store/store-clock.js';
import type { DeliveryRow, EndpointRow } from './webhook-service.js';

/** What an attempt needs of its endpoint, read with the claim (under the claim's lock on the endpoint). */
export type ClaimedEndpoint = Pick<EndpointRow, 'id' | 'url' | 'format' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_at' | 'failing_since'>;

/** A claimed delivery, with its event's payload and its endpoint: the attempt reads nothing more. */
export interface ClaimedDelivery extends DeliveryRow {
  payload: Record<string, unknown>;
  endpoint: ClaimedEndpoint;
}

/** Attempts in flight to one endpoint, across every instance, unless SVC_WEBHOOK_ENDPOINT_CONCURRENCY says otherwise. */
export const ENDPOINT_CONCURRENCY = 8;

export interface ClaimOptions {
  /** The service's clock: rows whose next attempt is at or before it are due. */
  now: Date;
  leaseMs: number;
  /** The most rows to claim (the worker's free slots). */
  limit: number;
  /** The most attempts in flight per endpoint. */
  perEndpoint: number;
}

/** A pending row nobody holds: never claimed, or its holder's lease has run out by the store's clock. */
const unheld = (alias: string) => sql.raw(`${alias}.status = 'pending' and (${alias}.claimed_until is null or ${alias}.claimed_until <= now())`);

export async function claimDeliveries(db: Kysely<Database>, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, leaseMs, limit, perEndpoint } = options;
  if (limit <= 0) return [];
  const inFlight = (endpoint: string) =>
    sql<number>`(select count(*) from webhook_deliveries a where a.endpoint_id = ${sql.raw(endpoint)} and a.status = 'pending' and a.claimed_until > now())`;
  return db.transaction().execute(async (trx) => {
    // Endpoints with due work and room, the longest waiting first; those another instance is claiming for are skipped.
    const endpoints = await sql<{ id: string }>`
      select e.id from webhook_endpoints e
      cross join lateral (
        select d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = e.id and ${unheld('d')} and d.next_attempt_at <= ${now}::timestamptz
        order by d.next_attempt_at limit 1
      ) oldest
      where e.enabled and ${inFlight('e.id')} < ${perEndpoint}
      order by oldest.next_attempt_at
      limit ${limit}
      for no key update of e skip locked`.execute(trx);
    if (!endpoints.rows.length) return [];
    const ids = endpoints.rows.map((r) => r.id);
    // The picked ids are materialized first, then updated by primary key: as a plain `id in (…)` the
    // planner re-runs the pick for every pending row of the table.
    type Row = DeliveryRow & { payload: Record<string, unknown> } & { [K in keyof ClaimedEndpoint as `endpoint_${K}`]: ClaimedEndpoint[K] };
    const claimed = await sql<Row>`
      with picked as materialized (
        select p.id from webhook_endpoints l
        cross join lateral (
          select d.id from webhook_deliveries d
          where d.endpoint_id = l.id and ${unheld('d')} and d.next_attempt_at <= ${now}::timestamptz
          order by d.next_attempt_at, d.created_at
          limit greatest(0, ${perEndpoint} - ${inFlight('l.id')})
        ) p
        where l.id in (${sql.join(ids)})
        limit ${limit}
      )
      update webhook_deliveries w
      set attempts = w.attempts + 1, claimed_until = ${leaseEnd(leaseMs)}, updated_at = ${now}::timestamptz
      from picked, events e, webhook_endpoints ep
      where w.id = picked.id and ${unheld('w')} and e.id = w.event_id and ep.id = w.endpoint_id
      returning w.*, e.payload, ep.id as endpoint_id, ep.url as endpoint_url, ep.format as endpoint_format, ep.secret_sealed as endpoint_secret_sealed,
        ep.previous_secret_sealed as endpoint_previous_secret_sealed, ep.previous_secret_expires_at as endpoint_previous_secret_expires_at,
        ep.failing_since as endpoint_failing_since`.execute(trx);
    return claimed.rows.map((row) => {
      const { endpoint_url, endpoint_format, endpoint_secret_sealed, endpoint_previous_secret_sealed, endpoint_previous_secret_expires_at, endpoint_failing_since, ...delivery } = row;
      const endpoint = { id: row.endpoint_id, url: endpoint_url, format: endpoint_format, secret_sealed: endpoint_secret_sealed, previous_secret_sealed: endpoint_previous_secret_sealed, previous_secret_expires_at: endpoint_previous_secret_expires_at, failing_since: endpoint_failing_since };
      return { ...delivery, endpoint };
    });
  });
}
