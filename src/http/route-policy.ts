// Per-route policy lives in route config; the shared guard reads it and handlers never check a key
// themselves. Every route must name its `auth`; a route without one fails at start (fail closed).
import type { Principal } from '../identity/principal.js';
import { RAW_SQL_ROLE } from '../identity/roles.js';
import type { StructuredScope } from '../identity/scopes.js';
import type { Role } from '../store/schema.js';

export type KeyAuth = 'question-key' | 'workspace-key' | 'structured-key';
/** `agent`: the MCP endpoint's credentials (agent-admission.ts). */
export type AuthPolicy = KeyAuth | 'agent' | 'session' | 'public';
export type RateLimitPolicyName = 'question' | 'session_question' | 'workspace' | 'structured';

export interface RoutePolicy {
  auth: AuthPolicy;
  /** Minimum role of the principal's user. */
  role?: Role;
  /** The workspace plan must include API access. */
  plan?: 'team';
  /** Structured-key scope the route needs. */
  scope?: StructuredScope;
  rateLimit?: RateLimitPolicyName;
  /** Refuse requests that did not arrive over HTTPS (directly or through a trusted proxy). */
  https?: 'required';
  /**
   * Writes must be same-origin JSON (CSRF defence). Implied by session auth; set on cookie-less
   * console routes that a browser may call too, such as sign-in.
   */
  sameOrigin?: true;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends Partial<RoutePolicy> {}
  interface FastifyRequest {
    /** Set by the guard on every route whose auth is not public. */
    principal: Principal | undefined;
  }
}

/** Where the key surfaces are mounted: A and B share /api/v1, C is /v1. */
export const KEY_SURFACE_PREFIXES = ['/api/v1', '/v1'] as const;

/** The policy every route of a surface shares; routes spread it into their config and add to it. */
export const SURFACE_POLICY = {
  question: { auth: 'question-key', rateLimit: 'question' },
  workspace: { auth: 'workspace-key', rateLimit: 'workspace', plan: 'team', https: 'required' },
  structured: { auth: 'structured-key', rateLimit: 'structured' },
  studio: { auth: 'session', role: RAW_SQL_ROLE },
  console: { auth: 'session' },
  mcp: { auth: 'agent', rateLimit: 'structured' },
  public: { auth: 'public' },
} as const satisfies Record<string, RoutePolicy>;
