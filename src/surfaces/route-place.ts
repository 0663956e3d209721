// A route written once may be mounted in several places: on a key surface, where the key's scope says
// what it may do, and in the console at /api, where the signed-in user acts in their workspace. A route
// says what it needs (a scope, a role, a question budget); the place turns that into its own policy
// and names the route's operation, so one handler serves every place and /openapi.json shows the same
// bodies for each.
import { SURFACE_POLICY, type RoutePolicy } from '../http/route-policy.js';
import type { StructuredScope } from '../identity/scopes.js';
import type { Services } from '../services.js';
import type { Role } from '../store/schema.js';

export interface RouteNeeds {
  /** The structured-key scope the route needs on surface C (sessions have no scopes). */
  scope?: StructuredScope;
  /** The least role of the user, wherever the route is mounted. */
  role?: Role;
  /** The route asks a language model: it spends a question budget wherever it is mounted. */
  asks?: true;
}

export interface RoutePlace {
  services: Services;
  tags: string[];
  /** Prefixes operation ids, which must be unique across the document. */
  operationPrefix: string;
  /** The policy of a route that needs `needs`, in this place. */
  policy(needs?: RouteNeeds): Partial<RoutePolicy>;
  /**
   * The console's one documented addition to a key route's body: a governed answer of POST /ask carries
   * the SQL its queries ran (`sql`), which surface A's answer does not.
   */
  answerSql?: true;
}

const withRole = (role: Role | undefined) => (role ? { role } : {});

/** Surface C at /v1: structured keys, each route behind its scope. */
export function structuredKeyPlace(services: Services): RoutePlace {
  return {
    services,
    tags: ['C. structured'],
    operationPrefix: '',
    policy: ({ scope, role } = {}) => ({ ...SURFACE_POLICY.structured, ...(scope ? { scope } : {}), ...withRole(role) }),
  };
}

/** Surface A at /api/v1: question keys; every route spends the key's hourly budget. */
export function questionKeyPlace(services: Services): RoutePlace {
  return { services, tags: ['A. question'], operationPrefix: '', policy: ({ role } = {}) => ({ ...SURFACE_POLICY.question, ...withRole(role) }) };
}

/**
 * The console at /api: the signed-in user's session (writes must be same-origin JSON, which the guard
 * enforces). A question spends the user's own hourly budget, so a session never asks without limit.
 */
export function sessionPlace(services: Services): RoutePlace {
  return {
    services,
    tags: ['console'],
    operationPrefix: 'console',
    answerSql: true,
    policy: ({ role, asks } = {}) => ({ ...SURFACE_POLICY.console, ...withRole(role), ...(asks ? { rateLimit: 'session_question' as const } : {}) }),
  };
}

/** `listNodes` on C, `consoleListNodes` in the console. */
export function operationId(place: Pick<RoutePlace, 'operationPrefix'>, name: string): string {
  return place.operationPrefix ? `${place.operationPrefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name;
}
