// The signed-in user as GET /api/auth/me and POST /api/auth/login describe them.
export interface Me {
  user: { id: string; email: string; name?: string | null };
  workspace: { id: string; name: string; plan: string };
  role: 'viewer' | 'tracer' | 'editor' | 'luminary';
  attributes: Record<string, unknown>;
}

const RANK = { viewer: 0, tracer: 1, editor: 2, luminary: 3 } as const;

export function atLeast(me: Me, role: keyof typeof RANK): boolean {
  return RANK[me.role] >= RANK[role];
}
