// Vaults: folders with members that hold scenes and mosaics. Framework-free; every method takes the
// principal and applies the access rules of vault-access.ts, answering 404 for a vault it may not see.
import type { Clock } from '../clock.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import type { Principal } from '../identity/principal.js';
import type { MembersRepo } from '../store/members-repo.js';
import type { VaultAccess } from '../store/schema.js';
import type { VaultMemberRow, VaultRow, VaultsRepo } from '../store/vaults-repo.js';
import type { ContentGeneration } from './content-generation.js';
import { accessAtLeast, effectiveAccess } from './vault-access.js';

export interface VisibleVault extends VaultRow {
  access: VaultAccess;
}

export function vaultNotFound(id: string): NotFoundError {
  return new NotFoundError(`No vault "${id}" in your workspace`, 'unknown_vault');
}

export class VaultService {
  constructor(
    private readonly vaults: VaultsRepo,
    private readonly members: Pick<MembersRepo, 'getMember'>,
    private readonly clock: Clock,
    private readonly generation: ContentGeneration,
  ) {}

  /** The principal's personal vault, created the first time it is needed. */
  async personal(principal: Principal): Promise<VisibleVault> {
    const row = await this.vaults.ensurePersonal(principal.workspace.id, principal.user.id, `${principal.user.name || principal.user.email}'s vault`, this.clock.now());
    return { ...row, access: 'manage' };
  }

  /** Every vault the principal may see, with their access; their personal vault among them. */
  async visible(principal: Principal): Promise<VisibleVault[]> {
    const list = async () =>
      principal.role === 'luminary'
        ? (await this.vaults.listForWorkspace(principal.workspace.id)).map((v) => ({ ...v, access: 'manage' as const }))
        : (await this.vaults.listForUser(principal.workspace.id, principal.user.id)).map(({ access, ...v }) => ({ ...v, access: effectiveAccess(principal, v, access ?? undefined)! }));
    const vaults = await list();
    // The personal vault is created on first need only: reads stay reads once it exists.
    if (vaults.some((v) => v.personal_user_id === principal.user.id)) return vaults;
    await this.personal(principal);
    return list();
  }

  /** Ids of the vaults the principal may see; undefined when they see them all (a luminary). */
  async visibleIds(principal: Principal): Promise<string[] | undefined> {
    if (principal.role === 'luminary') return undefined;
    return (await this.visible(principal)).map((v) => v.id);
  }

  /** The vault with the principal's access, at least `minimum`: 404 when they cannot see it, 403 when they see it only. */
  async require(principal: Principal, id: string, minimum: VaultAccess = 'view'): Promise<VisibleVault> {
    const vault = await this.vaults.get(principal.workspace.id, id);
    if (!vault) throw vaultNotFound(id);
    // Luminaries and a personal vault's owner manage it whatever their membership: no lookup for them.
    const owns = principal.role === 'luminary' || vault.personal_user_id === principal.user.id;
    const access = effectiveAccess(principal, vault, owns ? undefined : await this.vaults.access(vault.id, principal.user.id));
    if (!access) throw vaultNotFound(id);
    if (!accessAtLeast(access, minimum)) throw new ForbiddenError(`This needs ${minimum} access to vault "${vault.name}"; yours is ${access}`, 'vault_access_required');
    return { ...vault, access };
  }

  /** A new shared vault; its creator manages it. */
  async create(principal: Principal, values: { name: string; description?: string | undefined }): Promise<VisibleVault> {
    const row = await this.vaults.create({
      workspaceId: principal.workspace.id,
      name: values.name,
      description: values.description ?? '',
      createdBy: principal.user.id,
      at: this.clock.now(),
    });
    await this.vaults.setMember(row.id, principal.user.id, 'manage');
    return { ...row, access: effectiveAccess(principal, row, 'manage')! };
  }

  async update(principal: Principal, id: string, patch: { name?: string | undefined; description?: string | undefined }): Promise<VisibleVault> {
    const vault = await this.require(principal, id, 'manage');
    const changes = { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.description !== undefined ? { description: patch.description } : {}) };
    const row = await this.vaults.update(principal.workspace.id, id, changes, this.clock.now());
    if (!row) throw vaultNotFound(id);
    return { ...row, access: vault.access };
  }

  /** Refused while the vault holds scenes or mosaics, unless `force` (which deletes them with it). */
  async remove(principal: Principal, id: string, force: boolean): Promise<void> {
    const vault = await this.require(principal, id, 'manage');
    if (vault.personal_user_id) throw new ConflictError('A personal vault cannot be deleted', 'personal_vault');
    const count = await this.vaults.contentCount(id);
    if (count > 0 && !force) {
      throw new ConflictError(`Vault "${vault.name}" holds ${count} scene(s), mosaic(s) or signal(s); move them out or pass ?force=true to delete them too`, 'vault_not_empty');
    }
    await this.vaults.remove(principal.workspace.id, id);
    await this.generation.bump(principal.workspace.id);
  }

  async listMembers(principal: Principal, id: string): Promise<VaultMemberRow[]> {
    await this.require(principal, id, 'view');
    return this.vaults.members(id);
  }

  /** Adds a workspace member to the vault, or changes their access. */
  async setMember(principal: Principal, id: string, userId: string, access: VaultAccess): Promise<VaultMemberRow[]> {
    const vault = await this.require(principal, id, 'manage');
    if (vault.personal_user_id) throw new BadRequestError('A personal vault has no members', 'personal_vault');
    if (!(await this.members.getMember(principal.workspace.id, userId))) throw new NotFoundError(`No user "${userId}" in your workspace`, 'unknown_user');
    await this.vaults.setMember(id, userId, access);
    await this.generation.bump(principal.workspace.id);
    return this.vaults.members(id);
  }

  async removeMember(principal: Principal, id: string, userId: string): Promise<void> {
    await this.require(principal, id, 'manage');
    if (!(await this.vaults.removeMember(id, userId))) throw new NotFoundError(`User "${userId}" is not a member of this vault`, 'unknown_user');
    await this.generation.bump(principal.workspace.id);
  }
}
