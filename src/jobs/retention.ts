// Retention: rows older than their table's setting are deleted, oldest first, in small batches (each its
// own short statement, so no table is locked for long and requests interleave), up to a bound per run;
// a run that stops at the bound asks to run again soon. A row is aged by the clock that stamped it: an
// event by the store's (its created_at is the store's now() when it was written), the rest by the
// service's, which writes their times; so an instance whose clock runs days ahead of the store's never
// prunes events the store wrote a moment ago, nor keeps old ones for a clock behind. A delivery goes
// with its event (the foreign key cascades), so it is kept at most as long as its event; a delivery
// still pending is never pruned on its own. The embedded store has no autovacuum: after pruning, the
// job vacuums and analyzes the tables it pruned there, so that their space is used again and their row
// estimates (GET /metrics) follow. PostgreSQL's autovacuum does both on its own.
import { sql, type RawBuilder } from 'kysely';
import type { Clock } from '../clock.js';
import type { Store } from '../store/db.js';
import type { Job } from './job-runner.js';

/** Days to keep each kind of row; 0 keeps them for ever. */
export interface RetentionPolicy {
  readonly eventsDays: number;
  readonly deliveriesDays: number;
  readonly signalEvaluationsDays: number;
  readonly queryHistoryDays: number;
  /** Delivery schedule runs (each schedule's history), by when they ran. */
  readonly scheduleRunsDays: number;
}

export interface PruneLimits {
  /** Rows one statement deletes at most. */
  readonly batchSize: number;
  /** Deleting statements one run makes at most. */
  readonly maxBatches: number;
}

export const PRUNE_LIMITS: PruneLimits = { batchSize: 1000, maxBatches: 200 };
/** Hourly: a day's growth is pruned in 24 small runs rather than one large one. */
export const RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

type PrunedTable = 'webhook_deliveries' | 'events' | 'signal_evaluations' | 'query_history' | 'delivery_schedule_runs' | 'oauth_tokens' | 'oauth_grants';

interface TableRule {
  readonly table: PrunedTable;
  /** The time a row is aged by (indexed, migration 0012). */
  readonly column: string;
  /** Whose clock wrote `column`: the store's (a column default of now()) or the service's (written by it). */
  readonly stampedBy: 'store' | 'service';
  readonly days: (policy: RetentionPolicy) => number;
  /** Only rows that match this may be pruned on their own (the others wait for their parent's pruning). */
  readonly only?: string;
}

// Deliveries first: pruning an event deletes its deliveries too, so they are not counted twice.
const RULES: readonly TableRule[] = [
  { table: 'webhook_deliveries', column: 'updated_at', stampedBy: 'service', days: (p) => p.deliveriesDays, only: "status <> 'pending'" },
  { table: 'events', column: 'created_at', stampedBy: 'store', days: (p) => p.eventsDays },
  { table: 'signal_evaluations', column: 'evaluated_at', stampedBy: 'service', days: (p) => p.signalEvaluationsDays },
  { table: 'query_history', column: 'created_at', stampedBy: 'service', days: (p) => p.queryHistoryDays },
  // A run keeps its row after its event and delivery are pruned (their columns go null): it is the
  // schedule's own history, kept by a setting of its own (migration 0019 indexes ran_at).
  { table: 'delivery_schedule_runs', column: 'ran_at', stampedBy: 'service', days: (p) => p.scheduleRunsDays },
  // OAuth tokens a day past their expiry, and consents whose code was never exchanged, serve nobody: a
  // spent refresh token is kept while it could still be replayed (reuse revokes its grant), not after.
  { table: 'oauth_tokens', column: 'expires_at', stampedBy: 'service', days: () => 1 },
  { table: 'oauth_grants', column: 'code_expires_at', stampedBy: 'service', days: () => 1, only: 'code_used_at is null' },
];

export interface PruneReport {
  deleted: Partial<Record<PrunedTable, number>>;
  /** Stopped at the bound with old rows left. */
  more: boolean;
}

/** One bounded pass over every table with a retention; `stopping` ends it between batches. */
export async function pruneExpired(store: Store, clock: Clock, policy: RetentionPolicy, limits: PruneLimits = PRUNE_LIMITS, stopping?: AbortSignal): Promise<PruneReport> {
  const now = clock.now().getTime();
  const deleted: PruneReport['deleted'] = {};
  let batches = 0;
  let more = false;
  outer: for (const rule of RULES) {
    const days = rule.days(policy);
    if (days <= 0) continue;
    const cutoff = rule.stampedBy === 'store' ? sql<Date>`now() - ${days}::double precision * interval '1 day'` : sql<Date>`${new Date(now - days * DAY_MS)}::timestamptz`;
    for (;;) {
      if (batches >= limits.maxBatches || stopping?.aborted) {
        more = true;
        break outer;
      }
      const count = await deleteBatch(store, rule, cutoff, limits.batchSize);
      if (!count) break;
      // Only statements that deleted count: one that finds nothing is an index probe.
      batches++;
      deleted[rule.table] = (deleted[rule.table] ?? 0) + count;
      if (count < limits.batchSize) break;
    }
  }
  if (store.kind === 'pglite') for (const table of Object.keys(deleted)) await sql`vacuum (analyze) ${sql.table(table)}`.execute(store.db);
  return { deleted, more };
}

async function deleteBatch(store: Store, rule: TableRule, cutoff: RawBuilder<Date>, batchSize: number): Promise<number> {
  const table = sql.table(rule.table);
  const column = sql.ref(rule.column);
  const only = rule.only ? sql` and ${sql.raw(rule.only)}` : sql``;
  const result = await sql`
    delete from ${table} where id in (
      select id from ${table} where ${column} < ${cutoff}${only} order by ${column} limit ${batchSize}
    )`.execute(store.db);
  return Number(result.numAffectedRows ?? 0);
}

/** The hourly job that prunes every table with a retention; nothing when every setting keeps for ever. */
export function retentionJob(store: Store, clock: Clock, policy: RetentionPolicy, limits: PruneLimits = PRUNE_LIMITS): Job {
  return {
    name: 'retention',
    everyMs: RETENTION_EVERY_MS,
    // A run makes at most maxBatches statements, each bounded by the store's statement limit.
    leaseMs: 15 * 60_000,
    async run(stopping) {
      const { more } = await pruneExpired(store, clock, policy, limits, stopping);
      return { more };
    },
  };
}
