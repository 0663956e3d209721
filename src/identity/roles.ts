import type { Role } from '../store/schema.js';

const RANK: Record<Role, number> = { viewer: 0, tracer: 1, editor: 2, luminary: 3 };

/** The least role that may run raw SQL (the SQL editor, the question API's SQL fallback): raw SQL bypasses data keys. */
export const RAW_SQL_ROLE: Role = 'tracer';

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** Plans that include API access on the workspace surface (B). */
export function planIncludesApi(plan: string): boolean {
  return plan === 'team' || plan === 'enterprise';
}
