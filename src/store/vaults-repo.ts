// Vaults and their members: the folders scenes and mosaics live in.
import { sql, type Kysely } from 'kysely';
import type { Database, VaultAccess } from './schema.js';

export interface VaultRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  personal_user_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface VaultMemberRow {
  vault_id: string;
  user_id: string;
  email: string;
  name: string;
  access: VaultAccess;
}

export function vaultsRepo(db: Kysely<Database>) {
  return {
    async get(workspaceId: string, id: string): Promise<VaultRow | undefined> {
      return db.selectFrom('vaults').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    },

    async listForWorkspace(workspaceId: string): Promise<VaultRow[]> {
      return db.selectFrom('vaults').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
    },

    /** The vaults a user is a member of or owns as personal vault, with the access membership gives. */
    async listForUser(workspaceId: string, userId: string): Promise<Array<VaultRow & { access: VaultAccess | null }>> {
      return db
        .selectFrom('vaults as v')
        .leftJoin('vault_members as m', (join) => join.onRef('m.vault_id', '=', 'v.id').on('m.user_id', '=', userId))
        .selectAll('v')
        .select('m.access')
        .where('v.workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('m.user_id', 'is not', null), eb('v.personal_user_id', '=', userId)]))
        .orderBy('v.created_at')
        .orderBy('v.id')
        .execute();
    },

    async personal(workspaceId: string, userId: string): Promise<VaultRow | undefined> {
      return db.selectFrom('vaults').selectAll().where('workspace_id', '=', workspaceId).where('personal_user_id', '=', userId).executeTakeFirst();
    },

    /** The user's personal vault, created on first use; two requests racing both get the same one. */
    async ensurePersonal(workspaceId: string, userId: string, name: string, at: Date): Promise<VaultRow> {
      await db
        .insertInto('vaults')
        .values({ workspace_id: workspaceId, name, personal_user_id: userId, created_by: userId, created_at: at, updated_at: at })
        .onConflict((oc) => oc.columns(['workspace_id', 'personal_user_id']).where('personal_user_id', 'is not', null).doNothing())
        .execute();
      return (await this.personal(workspaceId, userId))!;
    },

    async create(values: { workspaceId: string; name: string; description: string; createdBy: string; at: Date }): Promise<VaultRow> {
      return db
        .insertInto('vaults')
        .values({ workspace_id: values.workspaceId, name: values.name, description: values.description, created_by: values.createdBy, created_at: values.at, updated_at: values.at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async update(workspaceId: string, id: string, patch: { name?: string; description?: string }, at: Date): Promise<VaultRow | undefined> {
      return db
        .updateTable('vaults')
        .set({ ...patch, updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async remove(workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom('vaults').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },

    /** Scenes and mosaics in the vault. */
    async contentCount(id: string): Promise<number> {
      const row = await sql<{ n: number }>`select (select count(*) from scenes where vault_id = ${id}) + (select count(*) from mosaics where vault_id = ${id}) + (select count(*) from signals where vault_id = ${id}) as n`.execute(db);
      return Number(row.rows[0]?.n ?? 0);
    },

    async members(id: string): Promise<VaultMemberRow[]> {
      return db
        .selectFrom('vault_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.vault_id', 'm.user_id', 'u.email', 'u.name', 'm.access'])
        .where('m.vault_id', '=', id)
        .orderBy('u.email')
        .execute();
    },

    async access(id: string, userId: string): Promise<VaultAccess | undefined> {
      const row = await db.selectFrom('vault_members').select('access').where('vault_id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row?.access;
    },

    async setMember(id: string, userId: string, access: VaultAccess): Promise<void> {
      await db
        .insertInto('vault_members')
        .values({ vault_id: id, user_id: userId, access })
        .onConflict((oc) => oc.columns(['vault_id', 'user_id']).doUpdateSet({ access }))
        .execute();
    },

    async removeMember(id: string, userId: string): Promise<boolean> {
      const result = await db.deleteFrom('vault_members').where('vault_id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type VaultsRepo = ReturnType<typeof vaultsRepo>;
