// The joined view of a member (user + membership + workspace) that both session and key lookups
// resolve to, selected in one place so that both kinds of principal are built the same way.
import type { Kysely } from 'kysely';
import type { Attributes, Database, Plan, Role } from './schema.js';

export interface MemberRow {
  workspace_id: string;
  workspace_name: string;
  workspace_plan: Plan;
  workspace_timezone: string;
  user_id: string;
  user_email: string;
  user_name: string;
  role: Role;
  attributes: Attributes;
}

/** Columns to select from a query that has joined memberships `m`, users `u` and workspaces `w`. */
export const MEMBER_COLUMNS = [
  'w.id as workspace_id',
  'w.name as workspace_name',
  'w.plan as workspace_plan',
  'w.timezone as workspace_timezone',
  'u.id as user_id',
  'u.email as user_email',
  'u.name as user_name',
  'm.role as role',
  'm.attributes as attributes',
] as const;

/** One member of a workspace, as a principal is built from it; undefined when they are not a member. */
export function memberRowOf(db: Kysely<Database>, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(MEMBER_COLUMNS)
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst() as Promise<MemberRow | undefined>;
}
