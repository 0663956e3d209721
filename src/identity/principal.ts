import type { Attributes, KeySurface, Plan, Role } from '../store/schema.js';
import type { MemberRow } from '../store/members.js';
import type { GenerationSnapshot } from '../shared-state/shared-state.js';

/** Who is making a request: resolved once by the auth hook, read by everything after it. */
export interface Principal {
  readonly via: 'key' | 'session' | 'oauth';
  readonly workspace: { readonly id: string; readonly name: string; readonly plan: Plan; readonly timezone: string };
  readonly user: { readonly id: string; readonly email: string; readonly name: string };
  readonly role: Role;
  readonly attributes: Attributes;
  /** Set when the request carried an API key. */
  readonly key?: {
    readonly id: string;
    readonly surface: KeySurface;
    readonly scopes: readonly string[];
    readonly rateLimit: number | null;
  };
  /** Set when the request carried a session cookie. */
  readonly sessionId?: string;
  /**
   * The shared generations read when this request was admitted (see GenerationSnapshot): set on a
   * principal made for one request, never on one kept between requests.
   */
  readonly generations?: GenerationSnapshot;
  /** Set when the request carried an OAuth access token: its grant, client and the scopes it has now. */
  readonly oauth?: {
    readonly grantId: string;
    readonly clientId: string;
    readonly scopes: readonly string[];
  };
}

/** The principal of a member row, as key, session and OAuth token lookups return it. */
export function principalOf(
  row: MemberRow,
  via: Principal['via'],
  extra: Pick<Principal, 'key' | 'sessionId' | 'oauth'> = {},
): Principal {
  return {
    via,
    workspace: { id: row.workspace_id, name: row.workspace_name, plan: row.workspace_plan, timezone: row.workspace_timezone },
    user: { id: row.user_id, email: row.user_email, name: row.user_name },
    role: row.role,
    attributes: row.attributes,
    ...extra,
  };
}

/** The scopes the principal's credential grants: an API key's, or an OAuth token's consented ones (none for a session). */
export function grantedScopes(principal: Principal): readonly string[] {
  return principal.key?.scopes ?? principal.oauth?.scopes ?? [];
}
