// A workspace member as the APIs show one: the console's /api/members and surface C's /v1/users.
import { z } from 'zod';
import type { WorkspaceMemberRow } from '../store/members-repo.js';
import { ROLES } from '../store/schema.js';

export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  attributes: z.record(z.string(), z.string()),
  /** When the user joined this workspace. */
  created_at: z.string(),
});

export function presentMember(row: WorkspaceMemberRow): z.infer<typeof memberSchema> {
  return { ...row, created_at: row.created_at.toISOString() };
}

export const memberParams = z.object({ user_id: z.string().describe("The user's id (a UUID)") });
