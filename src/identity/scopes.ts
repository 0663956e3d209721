// Permission scopes of structured API keys (surface C). A key's power is the intersection of its
// scopes and its user's role: a scope is only granted to a user whose role could use it.
import type { Role } from '../store/schema.js';
import { RAW_SQL_ROLE } from './roles.js';

export const STRUCTURED_SCOPES = {
  query: 'viewer',
  'models:read': 'viewer',
  'content:read': 'viewer',
  'models:write': 'editor',
  'content:write': 'editor',
  'users:read': 'luminary',
  'users:write': 'luminary',
  // Questions in plain language (the MCP `ask` tool): each spends the key's hourly question budget.
  ask: 'viewer',
  // Read-only SQL through the guard (the MCP `run_sql` tool): raw SQL bypasses data keys.
  sql: RAW_SQL_ROLE,
} as const satisfies Record<string, Role>;

export type StructuredScope = keyof typeof STRUCTURED_SCOPES;

export const ALL_STRUCTURED_SCOPES = Object.keys(STRUCTURED_SCOPES) as StructuredScope[];

/** Scopes a new structured key gets when none are asked for: read and query, nothing that writes. */
export const DEFAULT_STRUCTURED_SCOPES: StructuredScope[] = ['query', 'models:read', 'content:read'];

export function isStructuredScope(value: string): value is StructuredScope {
  return Object.hasOwn(STRUCTURED_SCOPES, value);
}
