// Workspaces, users and their memberships: the tenancy aggregate.
import type { Kysely } from 'kysely';
import type { Attributes, Database, Plan, Role } from './schema.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: Plan;
  timezone: string;
  created_at: Date;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: Date;
}

export interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: Role;
  attributes: Attributes;
}

export function membersRepo(db: Kysely<Database>) {
  return {
    async createWorkspace(values: { name: string; plan: Plan }): Promise<WorkspaceRow> {
      return db.insertInto('workspaces').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async getWorkspace(id: string): Promise<WorkspaceRow | undefined> {
      return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findWorkspaceByName(name: string): Promise<WorkspaceRow | undefined> {
      return db.selectFrom('workspaces').selectAll().where('name', '=', name).orderBy('created_at').executeTakeFirst();
    },

    async countWorkspaces(): Promise<number> {
      const row = await db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return row.n;
    },

    async createUser(values: { email: string; name: string; passwordHash: string | null }): Promise<UserRow> {
      return db
        .insertInto('users')
        .values({ email: values.email.toLowerCase(), name: values.name, password_hash: values.passwordHash })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },

    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },

    async addMembership(values: { workspaceId: string; userId: string; role: Role; attributes?: Attributes }) {
      await db
        .insertInto('memberships')
        .values({
          workspace_id: values.workspaceId,
          user_id: values.userId,
          role: values.role,
          attributes: JSON.stringify(values.attributes ?? {}),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: values.role }))
        .execute();
    },

    /** The user's memberships, oldest first: the first one is where a sign-in lands by default. */
    async membershipsOf(userId: string): Promise<MembershipRow[]> {
      return db
        .selectFrom('memberships')
        .select(['workspace_id', 'user_id', 'role', 'attributes'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('workspace_id')
        .execute();
    },
  };
}

export type MembersRepo = ReturnType<typeof membersRepo>;
