// Delivery schedules and their runs in the metadata store: rows, keyset pages, the claim of due runs
// (as signals are claimed: FOR UPDATE SKIP LOCKED, next_run_at advanced in the claim's transaction, a
// lease on the store's clock) with a token, so that only the holder of the current claim records a run.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DeliveryScheduleRunsTable, DeliverySchedulesTable, DeliveryStatus } from '../store/schema.js';
import { readPage, type Page, type PageRequest } from '../store/keyset-page.js';
import { claimable, leaseEnd } from '../store/store-clock.js';

export type ScheduleRow = Selectable<DeliverySchedulesTable>;
export type ScheduleRunRow = Selectable<DeliveryScheduleRunsTable>;
/** A run with the state of the delivery it queued (null when it failed before queuing one, or the log was pruned). */
export type ScheduleRunView = ScheduleRunRow & { delivery_status: DeliveryStatus | null; delivery_attempts: number | null; delivery_last_error: string | null };
export type ClaimedSchedule = ScheduleRow & { claim: string };
type Db = Kysely<Database> | Transaction<Database>;

export interface ScheduleValues {
  name: string;
  target_kind: 'scene' | 'mosaic';
  target_id: string;
  endpoint_id: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  next_run_at: Date | null;
}

export function schedulesRepo(db: Kysely<Database>) {
  return {
    db,
    async insert(workspaceId: string, ownerId: string, values: ScheduleValues, at: Date): Promise<ScheduleRow> {
      return db
        .insertInto('delivery_schedules')
        .values({ ...values, workspace_id: workspaceId, owner_id: ownerId, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async get(workspaceId: string, id: string): Promise<ScheduleRow | undefined> {
      return db.selectFrom('delivery_schedules').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    /** Oldest first; `ownerId` limits the page to one owner's schedules. */
    async page(workspaceId: string, options: PageRequest & { ownerId?: string | undefined }): Promise<Page<ScheduleRow>> {
      let query = db.selectFrom('delivery_schedules').selectAll().where('workspace_id', '=', workspaceId);
      if (options.ownerId) query = query.where('owner_id', '=', options.ownerId);
      return readPage(query, { time: 'created_at', id: 'id', direction: 'asc' }, options);
    },

    async update(workspaceId: string, id: string, values: Partial<ScheduleValues> & { owner_id?: string; last_error?: string | null; stopped_reason?: string | null; failed_runs?: number }, at: Date): Promise<ScheduleRow | undefined> {
      return db.updateTable('delivery_schedules').set({ ...values, updated_at: at }).where('workspace_id', '=', workspaceId).where('id', '=', id).returningAll().executeTakeFirst();
    },

    async remove(workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom('delivery_schedules').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Newest first, each with its delivery's state as the delivery log has it now. */
    async runs(scheduleId: string, options: PageRequest): Promise<Page<ScheduleRunView>> {
      const query = db
        .selectFrom('delivery_schedule_runs as r')
        .leftJoin('webhook_deliveries as d', 'd.id', 'r.delivery_id')
        .selectAll('r')
        .select(['d.status as delivery_status', 'd.attempts as delivery_attempts', 'd.last_error as delivery_last_error'])
        .where('r.schedule_id', '=', scheduleId);
      return readPage(query, { time: 'r.ran_at', id: 'r.id', direction: 'desc' }, options);
    },

    /**
     * Claims up to `limit` runs: schedules whose next run is reached and that nobody holds, and those
     * whose holder's lease ran out (it died mid-run: the run is retried). The claim advances next_run_at
     * (runs missed while no instance ran are sent once, not replayed) and hands out a fresh token.
     */
    async claimDue(now: Date, leaseMs: number, limit: number, advance: (row: ScheduleRow) => Date | null): Promise<ClaimedSchedule[]> {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('delivery_schedules')
          .selectAll()
          .where('enabled', '=', true)
          .where(claimable(now))
          .orderBy('next_run_at')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        const claimed: ClaimedSchedule[] = [];
        for (const row of due) {
          const nextRunAt = row.next_run_at !== null && row.next_run_at <= now ? advance(row) : row.next_run_at;
          const claim = randomUUID();
          const updated = await trx
            .updateTable('delivery_schedules')
            .set({ claimed_until: leaseEnd(leaseMs), claimed_by: claim, next_run_at: nextRunAt })
            .where('id', '=', row.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          claimed.push({ ...updated, claim });
        }
        return claimed;
      });
    },

    /**
     * Ends the claim `claim` in `trx`; false when it is no longer the holder's (its lease ran out and
     * another instance claimed the run again): then the run must not be recorded twice.
     */
    async release(trx: Db, id: string, claim: string): Promise<boolean> {
      const row = await trx.updateTable('delivery_schedules').set({ claimed_until: null, claimed_by: null }).where('id', '=', id).where('claimed_by', '=', claim).returning('id').executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type SchedulesRepo = ReturnType<typeof schedulesRepo>;
