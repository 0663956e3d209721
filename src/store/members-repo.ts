// Workspaces, users and their memberships: the tenancy aggregate.
import { sql, type Kysely } from 'kysely';
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

/** A user as a member of one workspace: what the structured API lists and edits. */
export interface WorkspaceMemberRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  attributes: Attributes;
  /** When the user joined the workspace (not when the account was made, which other workspaces may see). */
  created_at: Date;
}

/** Attribute changes: a string sets the attribute, null removes it. */
export type AttributePatch = Record<string, string | null>;

// A non-UUID would make PostgreSQL refuse the query; it names no member either way.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const WORKSPACE_MEMBER_COLUMNS = [
  'u.id as id',
  'u.email as email',
  'u.name as name',
  'm.role as role',
  'm.attributes as attributes',
  'm.created_at as created_at',
] as const;

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

    /** Every member of the workspace, by e-mail. */
    async listMembers(workspaceId: string): Promise<WorkspaceMemberRow[]> {
      return db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(WORKSPACE_MEMBER_COLUMNS)
        .where('m.workspace_id', '=', workspaceId)
        .orderBy('u.email')
        .execute();
    },

    /** The member, or undefined when the user is not in this workspace (or the id is no UUID). */
    async getMember(workspaceId: string, userId: string): Promise<WorkspaceMemberRow | undefined> {
      if (!UUID.test(userId)) return undefined;
      return db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(WORKSPACE_MEMBER_COLUMNS)
        .where('m.workspace_id', '=', workspaceId)
        .where('m.user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * Merges the patch into the member's attributes and returns the member as changed; undefined when
     * the user is not in this workspace. The merge is one UPDATE computed from the row as it stands, so
     * two concurrent patches of different attributes both survive: the second waits for the first's
     * row lock and then merges into its result.
     */
    async patchAttributes(workspaceId: string, userId: string, patch: AttributePatch): Promise<WorkspaceMemberRow | undefined> {
      if (!UUID.test(userId)) return undefined;
      // `||` sets every key of the patch, nulls included; stripping the nulls then removes exactly the
      // keys the patch named with null (stored attributes are strings, never null).
      const merged = sql<string>`jsonb_strip_nulls(attributes || ${JSON.stringify(patch)}::jsonb)`;
      return db
        .with('m', (qb) =>
          qb
            .updateTable('memberships')
            .set({ attributes: merged })
            .where('workspace_id', '=', workspaceId)
            .where('user_id', '=', userId)
            .returning(['user_id', 'role', 'attributes', 'created_at']),
        )
        .selectFrom('m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(WORKSPACE_MEMBER_COLUMNS)
        .executeTakeFirst();
    },
  };
}

export type MembersRepo = ReturnType<typeof membersRepo>;
