// Workspaces, users and their memberships: the tenancy aggregate.
import { sql, type Kysely, type RawBuilder } from 'kysely';
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

/** A workspace as the operator's list shows it. */
export interface WorkspaceSummaryRow extends WorkspaceRow {
  members: number;
  luminaries: number;
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
  /** Updates one membership in one statement and returns the member as changed (undefined: not a member). */
  async function updateMembership(
    workspaceId: string,
    userId: string,
    changes: { role: Role } | { attributes: RawBuilder<string> },
  ): Promise<WorkspaceMemberRow | undefined> {
    if (!UUID.test(userId)) return undefined;
    return db
      .with('m', (qb) =>
        qb
          .updateTable('memberships')
          .set(changes)
          .where('workspace_id', '=', workspaceId)
          .where('user_id', '=', userId)
          .returning(['user_id', 'role', 'attributes', 'created_at']),
      )
      .selectFrom('m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(WORKSPACE_MEMBER_COLUMNS)
      .executeTakeFirst();
  }

  return {
    async createWorkspace(values: { name: string; plan: Plan }): Promise<WorkspaceRow> {
      return db.insertInto('workspaces').values(values).returningAll().executeTakeFirstOrThrow();
    },

    /** The workspace, or undefined when there is none with this id (or the id is no UUID). */
    async getWorkspace(id: string): Promise<WorkspaceRow | undefined> {
      if (!UUID.test(id)) return undefined;
      return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Every workspace, oldest first, with how many members and luminaries it has. */
    async listWorkspaces(): Promise<WorkspaceSummaryRow[]> {
      return db
        .selectFrom('workspaces as w')
        .leftJoin('memberships as m', 'm.workspace_id', 'w.id')
        .selectAll('w')
        .select((eb) => [
          eb.fn.count<number>('m.user_id').as('members'),
          eb.fn.count<number>('m.user_id').filterWhere('m.role', '=', 'luminary').as('luminaries'),
        ])
        .groupBy('w.id')
        .orderBy('w.created_at')
        .orderBy('w.id')
        .execute();
    },

    /** Changes the plan and/or name; returns the workspace as changed, undefined when there is none. */
    async updateWorkspace(id: string, changes: { plan?: Plan; name?: string }): Promise<WorkspaceRow | undefined> {
      if (!UUID.test(id)) return undefined;
      if (changes.plan === undefined && changes.name === undefined) return this.getWorkspace(id);
      return db.updateTable('workspaces').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
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

    /** Adds the user to the workspace. An existing membership is an error: a role changes through `setRole`. */
    async addMembership(values: { workspaceId: string; userId: string; role: Role; attributes?: Attributes }) {
      await db
        .insertInto('memberships')
        .values({
          workspace_id: values.workspaceId,
          user_id: values.userId,
          role: values.role,
          attributes: JSON.stringify(values.attributes ?? {}),
        })
        .execute();
    },

    /** Sets the member's role; returns the member as changed, undefined when the user is not in this workspace. */
    async setRole(workspaceId: string, userId: string, role: Role): Promise<WorkspaceMemberRow | undefined> {
      return updateMembership(workspaceId, userId, { role });
    },

    async countLuminaries(workspaceId: string): Promise<number> {
      const row = await db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('role', '=', 'luminary')
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /**
     * Takes the user out of the workspace. Their keys and sessions of this workspace go with the
     * membership (the schema cascades), so neither can come back should the user join again. False
     * when not a member.
     */
    async removeMember(workspaceId: string, userId: string): Promise<boolean> {
      if (!UUID.test(userId)) return false;
      const removed = await db
        .deleteFrom('memberships')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return removed.numDeletedRows > 0n;
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
      // `||` sets every key of the patch, nulls included; stripping the nulls then removes exactly the
      // keys the patch named with null (stored attributes are strings, never null).
      const merged = sql<string>`jsonb_strip_nulls(attributes || ${JSON.stringify(patch)}::jsonb)`;
      return updateMembership(workspaceId, userId, { attributes: merged });
    },
  };
}

export type MembersRepo = ReturnType<typeof membersRepo>;

/**
 * Runs `work` in one transaction with a repo bound to it. With `lockWorkspace`, the workspace's row is
 * locked first, which serialises membership changes of that workspace: a check such as "another
 * luminary remains" then holds until the change commits, even when two luminaries demote each other
 * at the same moment on two instances. `work` gets undefined when there is no such workspace.
 */
export async function inMembersTransaction<T>(
  db: Kysely<Database>,
  work: (repo: MembersRepo, workspace: WorkspaceRow | undefined) => Promise<T>,
  lockWorkspace?: string,
): Promise<T> {
  // Inside the transaction every statement goes through `trx` (on PGlite, `db` would wait for the
  // connection the transaction holds).
  return db.transaction().execute(async (trx) => {
    const workspace =
      lockWorkspace && UUID.test(lockWorkspace)
        ? await trx.selectFrom('workspaces').selectAll().where('id', '=', lockWorkspace).forUpdate().executeTakeFirst()
        : undefined;
    return work(membersRepo(trx), workspace);
  });
}
