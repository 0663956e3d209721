import type { Role } from '../store/schema.js';

const RANK: Record<Role, number> = { viewer: 0, tracer: 1, editor: 2, luminary: 3 };

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** Plans that include API access on the workspace surface (B). */
export function planIncludesApi(plan: string): boolean {
  return plan === 'team' || plan === 'enterprise';
}
