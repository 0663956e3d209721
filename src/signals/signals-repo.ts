// Signals and their evaluation history in the metadata store: rows, keyset pages, the owner's member
// row (whose data keys an evaluation uses), and the claim of due signals by the scheduler.
import { type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ComparedJson, Database, SignalEvaluationsTable, SignalsTable } from '../store/schema.js';
import { memberRowOf, type MemberRow } from '../store/members.js';
import { emptyPage, readPage, type Page, type PageRequest } from '../store/keyset-page.js';
import { claimable, leaseEnd, readStoreNow } from '../store/store-clock.js';

export type SignalRow = Selectable<SignalsTable>;
export type SignalEvaluationRow = Selectable<SignalEvaluationsTable>;
type Db = Kysely<Database> | Transaction<Database>;

export interface SignalValues {
  vault_id: string;
  name: string;
  watch: Record<string, unknown>;
  condition: string;
  threshold: number;
  cron: string | null;
  timezone: string | null;
  interval_seconds: number | null;
  enabled: boolean;
  next_run_at: Date | null;
}

/** What an update may also set: a new owner, and the state a redefinition starts again from. */
export interface SignalChanges extends Partial<SignalValues> {
  owner_id?: string;
  state?: string;
  holding?: boolean;
  last_value?: number | null;
  last_compared?: ComparedJson | null;
  last_error?: string | null;
  stopped_reason?: string | null;
}

/** A jsonb value as the driver takes it: its text, or null. */
export function jsonOrNull(value: object | null): string | null {
  return value === null ? null : JSON.stringify(value);
}

export function signalsRepo(db: Kysely<Database>) {
  const jsonOf = ({ watch, last_compared, ...values }: SignalChanges) => ({
    ...values,
    ...(watch ? { watch: JSON.stringify(watch) } : {}),
    ...(last_compared !== undefined ? { last_compared: jsonOrNull(last_compared) } : {}),
  });
  return {
    db,
    async insert(workspaceId: string, ownerId: string, values: SignalValues, at: Date): Promise<SignalRow> {
      return db
        .insertInto('signals')
        .values({ ...values, watch: JSON.stringify(values.watch), workspace_id: workspaceId, owner_id: ownerId, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async get(workspaceId: string, id: string, trx: Db = db): Promise<SignalRow | undefined> {
      return trx.selectFrom('signals').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    /** The row locked for the transaction: evaluations of one signal apply one after the other. */
    async lock(trx: Transaction<Database>, id: string): Promise<SignalRow | undefined> {
      return trx.selectFrom('signals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async page(workspaceId: string, options: PageRequest & { vaultIds?: readonly string[] }): Promise<Page<SignalRow>> {
      let query = db.selectFrom('signals').selectAll().where('workspace_id', '=', workspaceId);
      if (options.vaultIds) {
        if (options.vaultIds.length === 0) return emptyPage(options);
        query = query.where('vault_id', 'in', options.vaultIds);
      }
      return readPage(query, { time: 'created_at', id: 'id', direction: 'asc' }, options);
    },

    async update(workspaceId: string, id: string, values: SignalChanges, at: Date): Promise<SignalRow | undefined> {
      return db.updateTable('signals').set({ ...jsonOf(values), updated_at: at }).where('workspace_id', '=', workspaceId).where('id', '=', id).returningAll().executeTakeFirst();
    },

    async remove(workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom('signals').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** The owner as a member of the signal's workspace, or undefined when they left it. */
    owner(workspaceId: string, userId: string): Promise<MemberRow | undefined> {
      return memberRowOf(db, workspaceId, userId);
    },

    /** The attributes (data-key values) of those of `userIds` who are members of the workspace. */
    async memberAttributes(workspaceId: string, userIds: readonly string[]): Promise<Map<string, Record<string, string>>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.selectFrom('memberships').select(['user_id', 'attributes']).where('workspace_id', '=', workspaceId).where('user_id', 'in', [...userIds]).execute();
      return new Map(rows.map((r) => [r.user_id, r.attributes]));
    },

    /** Newest first: the next page holds older evaluations. */
    async evaluations(signalId: string, options: PageRequest): Promise<Page<SignalEvaluationRow>> {
      const query = db.selectFrom('signal_evaluations').selectAll().where('signal_id', '=', signalId);
      return readPage(query, { time: 'evaluated_at', id: 'id', direction: 'desc' }, options);
    },

    async appendEvaluation(trx: Db, row: Omit<SignalEvaluationRow, 'id' | 'compared'> & { compared?: ComparedJson | null }): Promise<void> {
      await trx.insertInto('signal_evaluations').values({ ...row, compared: jsonOrNull(row.compared ?? null) }).execute();
    },

    /**
     * Claims up to `limit` runs: signals whose next_run_at is reached and that nobody holds, and
     * signals whose holder's lease ran out (it crashed mid-evaluation: the run is retried). Rows another
     * transaction is claiming are skipped (SKIP LOCKED); the claim sets the lease and advances
     * next_run_at in the same transaction, so once it commits no other instance sees the run as due.
     */
    async claimDue(now: Date, leaseMs: number, limit: number, advance: (row: SignalRow) => Date | null): Promise<SignalRow[]> {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('signals')
          .selectAll()
          .where('enabled', '=', true)
          // The lease is compared, and set, by the store's clock: an instance whose clock runs ahead does not
          // take over a run another still holds.
          .where(claimable(now))
          .orderBy('next_run_at')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        const claimed: SignalRow[] = [];
        for (const row of due) {
          // A retried run (expired lease) was advanced by its first claim already; it moves again only
          // if that next run has passed meanwhile (missed runs are evaluated once, not replayed).
          const nextRunAt = row.next_run_at !== null && row.next_run_at <= now ? advance(row) : row.next_run_at;
          const { claimed_until } = await trx.updateTable('signals').set({ claimed_until: leaseEnd(leaseMs), next_run_at: nextRunAt }).where('id', '=', row.id).returning('claimed_until').executeTakeFirstOrThrow();
          claimed.push({ ...row, claimed_until, next_run_at: nextRunAt });
        }
        return claimed;
      });
    },

    /** Releases the claim of a run once its evaluation is recorded. */
    async release(trx: Db, id: string): Promise<void> {
      await trx.updateTable('signals').set({ claimed_until: null }).where('id', '=', id).execute();
    },

    now(): Promise<Date> {
      return readStoreNow(db);
    },
  };
}

export type SignalsRepo = ReturnType<typeof signalsRepo>;
