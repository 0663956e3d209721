// Creating, listing and revoking API keys. Framework-free: the console routes and the CLI both call it.
import type { Clock } from '../clock.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { ApiKeyRow, ApiKeysRepo } from '../store/api-keys.js';
import type { PageRequest } from '../store/keyset-page.js';
import type { KeySurface, Role } from '../store/schema.js';
import { IDENTITY_GENERATION } from './generations.js';
import { issueKey } from './key-formats.js';
import type { LastUsedRecorder } from './last-used.js';
import { planIncludesApi, roleAtLeast } from './roles.js';
import { DEFAULT_STRUCTURED_SCOPES, isStructuredScope, STRUCTURED_SCOPES } from './scopes.js';

export type KeyStatus = 'active' | 'revoked' | 'expired';

export interface KeyView {
  id: string;
  name: string;
  surface: KeySurface;
  prefix: string;
  scopes: string[];
  rate_limit: number | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  status: KeyStatus;
}

/** Who acts on keys: a member of a workspace (from a session, or the CLI acting as a user). */
export interface KeyActor {
  workspace: { id: string; plan: string };
  user: { id: string };
  role: Role;
}

export interface NewKey {
  name: string;
  surface: KeySurface;
  expiresAt?: Date | undefined;
  scopes?: string[] | undefined;
  rateLimit?: number | undefined;
}

export class KeyService {
  constructor(
    private readonly keys: ApiKeysRepo,
    private readonly shared: SharedState,
    private readonly clock: Clock,
    private readonly lastUsed: LastUsedRecorder,
  ) {}

  /** Creates a key acting for `actor`; the full value is returned here and never again. */
  async create(actor: KeyActor, input: NewKey): Promise<{ key: KeyView; value: string }> {
    const name = input.name.trim();
    if (!name) throw new BadRequestError('name must not be empty');
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new BadRequestError('expires_at must be in the future');
    }
    if (input.surface === 'workspace' && !planIncludesApi(actor.workspace.plan)) {
      throw new ForbiddenError('API access requires the Team plan', 'plan_required');
    }
    const scopes = this.scopesFor(actor.role, input.surface, input.scopes);
    if (input.rateLimit !== undefined) {
      if (input.surface === 'structured') {
        throw new BadRequestError('rate_limit applies to question and workspace keys; structured keys share the workspace budget');
      }
      if (!roleAtLeast(actor.role, 'luminary')) {
        throw new ForbiddenError('Only a luminary may set a rate_limit on a key');
      }
    }
    const issued = issueKey(input.surface);
    const row = await this.keys.insert({
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
      name,
      surface: input.surface,
      prefix: issued.prefix,
      secretHash: issued.secretHash,
      scopes,
      rateLimit: input.rateLimit ?? null,
      expiresAt: input.expiresAt ?? null,
    });
    return { key: this.view(row), value: issued.value };
  }

  /** Every key the actor sees (a luminary: the workspace's; others: their own), newest first. */
  async list(actor: KeyActor): Promise<KeyView[]> {
    const rows = await this.keys.list(actor.workspace.id, this.ownerFilter(actor));
    return rows.map((row) => this.view(row));
  }

  /** A page of the keys the actor sees, newest first; pass nextCursor back as `cursor` for the next. */
  async listPage(actor: KeyActor, page: PageRequest): Promise<{ keys: KeyView[]; nextCursor: string | null }> {
    const { rows, nextCursor } = await this.keys.page(actor.workspace.id, this.ownerFilter(actor), page);
    return { keys: rows.map((row) => this.view(row)), nextCursor };
  }

  /**
   * Revokes at once, on every instance. Revoking an already revoked key is not an error, and announces
   * the revocation again: when the announcement failed (Redis unreachable: 503 after the store write),
   * retrying the revocation is how it gets through.
   */
  async revoke(actor: KeyActor, id: string): Promise<KeyView> {
    const row = await this.visibleKey(actor, id);
    if (!row.revoked_at) await this.keys.revoke(actor.workspace.id, id, this.clock.now());
    await this.shared.bump(IDENTITY_GENERATION);
    return this.view((await this.keys.get(actor.workspace.id, id))!);
  }

  /** Whose keys the actor sees: a luminary everyone's (no filter), others their own. */
  private ownerFilter(actor: KeyActor): string | undefined {
    return roleAtLeast(actor.role, 'luminary') ? undefined : actor.user.id;
  }

  private async visibleKey(actor: KeyActor, id: string): Promise<ApiKeyRow> {
    const row = UUID.test(id) ? await this.keys.get(actor.workspace.id, id) : undefined;
    if (!row || (row.user_id !== actor.user.id && !roleAtLeast(actor.role, 'luminary'))) {
      throw new NotFoundError(`API key ${id} not found`);
    }
    return row;
  }

  private scopesFor(role: Role, surface: KeySurface, requested: string[] | undefined): string[] {
    if (surface !== 'structured') {
      if (requested?.length) throw new BadRequestError('scopes apply to structured keys only');
      return [];
    }
    const scopes = [...new Set(requested ?? DEFAULT_STRUCTURED_SCOPES)];
    if (scopes.length === 0) throw new BadRequestError('a structured key needs at least one scope');
    for (const scope of scopes) {
      if (!isStructuredScope(scope)) {
        throw new BadRequestError(`Unknown scope "${scope}"; scopes are: ${Object.keys(STRUCTURED_SCOPES).join(', ')}`);
      }
      const needed = STRUCTURED_SCOPES[scope];
      if (!roleAtLeast(role, needed)) {
        throw new ForbiddenError(`The scope ${scope} needs the ${needed} role; yours is ${role}`);
      }
    }
    return scopes;
  }

  private view(row: ApiKeyRow): KeyView {
    const now = this.clock.now().getTime();
    const lastUsed = latest(row.last_used_at, this.lastUsed.unwritten(row.id));
    const status: KeyStatus = row.revoked_at
      ? 'revoked'
      : row.expires_at && row.expires_at.getTime() <= now
        ? 'expired'
        : 'active';
    return {
      id: row.id,
      name: row.name,
      surface: row.surface,
      prefix: row.prefix,
      scopes: row.scopes,
      rate_limit: row.rate_limit,
      created_at: row.created_at.toISOString(),
      last_used_at: lastUsed?.toISOString() ?? null,
      expires_at: row.expires_at?.toISOString() ?? null,
      status,
    };
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The later of a stored time and one not written yet. */
export function latest(a: Date | null, b: Date | undefined): Date | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}
