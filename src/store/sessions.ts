import type { Kysely } from 'kysely';
import { MEMBER_COLUMNS, type MemberRow } from './members.js';
import type { Database } from './schema.js';

export type ResolvedSessionRow = MemberRow & {
  session_id: string;
  last_seen_at: Date;
  expires_at: Date;
};

export function sessionsRepo(db: Kysely<Database>) {
  return {
    async insert(values: { tokenHash: string; workspaceId: string; userId: string; now: Date; expiresAt: Date }) {
      const row = await db
        .insertInto('sessions')
        .values({
          token_hash: values.tokenHash,
          workspace_id: values.workspaceId,
          user_id: values.userId,
          created_at: values.now,
          last_seen_at: values.now,
          expires_at: values.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async findByHash(tokenHash: string): Promise<ResolvedSessionRow | undefined> {
      return db
        .selectFrom('sessions as s')
        .innerJoin('memberships as m', (j) => j.onRef('m.workspace_id', '=', 's.workspace_id').onRef('m.user_id', '=', 's.user_id'))
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(MEMBER_COLUMNS)
        .select(['s.id as session_id', 's.last_seen_at', 's.expires_at'])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    /** Removes sessions past their absolute expiry or idle for longer than `idleMs`. */
    async deleteExpired(now: Date, idleMs: number): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', new Date(now.getTime() - idleMs))]))
        .execute();
    },
  };
}

export type SessionsRepo = ReturnType<typeof sessionsRepo>;
