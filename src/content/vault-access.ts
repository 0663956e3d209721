// Who may do what in a vault. Luminaries manage every vault of their workspace, a user manages their
// own personal vault, anyone else has the access their membership gives, or none: then the vault and
// everything in it does not exist for them (404, never 403, so existence does not leak).
import { roleAtLeast } from '../identity/roles.js';
import type { Principal } from '../identity/principal.js';
import type { VaultAccess } from '../store/schema.js';
import type { VaultRow } from '../store/vaults-repo.js';

const RANK: Record<VaultAccess, number> = { view: 0, edit: 1, manage: 2 };

export function accessAtLeast(access: VaultAccess | undefined, minimum: VaultAccess): boolean {
  return access !== undefined && RANK[access] >= RANK[minimum];
}

/** The access `principal` has to `vault`, given their membership of it (if any). */
export function effectiveAccess(principal: Principal, vault: Pick<VaultRow, 'personal_user_id'>, membership: VaultAccess | undefined): VaultAccess | undefined {
  if (principal.role === 'luminary') return 'manage';
  if (vault.personal_user_id === principal.user.id) return 'manage';
  if (membership && !roleAtLeast(principal.role, 'editor') && membership !== 'view') {
    // A viewer's role caps what a membership can give: they read content, they never change it.
    return 'view';
  }
  return membership;
}
