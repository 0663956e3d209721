// OAuth grants as the console shows them beside API keys: which application holds tokens acting for
// whom, with what scopes, since when, last used when; and revoking one. Visibility follows keys: a
// luminary sees the workspace's grants, any other member their own.
import type { Clock } from '../../clock.js';
import { NotFoundError } from '../../core/errors.js';
import type { PageRequest } from '../../store/keyset-page.js';
import type { ListedGrantRow, OauthRepo } from '../../store/oauth-repo.js';
import type { KeyActor } from '../key-service.js';
import type { LastUsedRecorder } from '../last-used.js';
import { latest, UUID } from '../key-service.js';
import { roleAtLeast } from '../roles.js';
import type { TokenService } from './token-service.js';

export interface GrantView {
  id: string;
  client_name: string;
  user_id: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  /** revoked: by the member, a luminary or the client; expired: no token of it can be used any more. */
  status: 'active' | 'revoked' | 'expired';
}

export class GrantService {
  constructor(
    private readonly repo: OauthRepo,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly lastUsed: LastUsedRecorder,
  ) {}

  async listPage(actor: KeyActor, page: PageRequest): Promise<{ grants: GrantView[]; nextCursor: string | null }> {
    const { rows, nextCursor } = await this.repo.page(actor.workspace.id, this.ownerFilter(actor), page);
    return { grants: rows.map((row) => this.view(row)), nextCursor };
  }

  /** Revokes the grant and every token under it, on every instance at the next call; twice is harmless. */
  async revoke(actor: KeyActor, id: string): Promise<GrantView> {
    const row = UUID.test(id) ? await this.repo.grant(actor.workspace.id, id) : undefined;
    if (!row || !row.code_used_at || (row.user_id !== actor.user.id && !roleAtLeast(actor.role, 'luminary'))) {
      throw new NotFoundError(`Authorized application ${id.slice(0, 60)} not found`);
    }
    await this.tokens.revokeGrant(row.id);
    return this.view({ ...row, revoked_at: row.revoked_at ?? this.clock.now() });
  }

  private ownerFilter(actor: KeyActor): string | undefined {
    return roleAtLeast(actor.role, 'luminary') ? undefined : actor.user.id;
  }

  private view(row: ListedGrantRow): GrantView {
    const lastUsed = latest(row.last_used_at, this.lastUsed.unwritten(row.id));
    return {
      id: row.id,
      client_name: row.client_name,
      user_id: row.user_id,
      scopes: row.scopes,
      created_at: row.created_at.toISOString(),
      last_used_at: lastUsed?.toISOString() ?? null,
      status: row.revoked_at ? 'revoked' : row.usable_until && row.usable_until.getTime() > this.clock.now().getTime() ? 'active' : 'expired',
    };
  }
}
