// Workspaces, their members and roles, as the console and the `svc` command change them.
// Framework-free. Two rules live here so that every caller keeps them:
// - a workspace always keeps a luminary: the last one can be neither demoted nor removed;
// - every change to what a member's keys may do (role, attributes, plan, membership) bumps the
//   identity generation, so that cached keys are re-read on their next request on every instance.
import type { Kysely } from 'kysely';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors.js';
import type { SharedState } from '../shared-state/shared-state.js';
import {
  inMembersTransaction,
  type AttributePatch,
  type MembersRepo,
  type WorkspaceMemberRow,
  type WorkspaceRow,
  type WorkspaceSummaryRow,
} from '../store/members-repo.js';
import type { Database, Plan, Role } from '../store/schema.js';
import { IDENTITY_GENERATION } from './generations.js';
import { hashPassword } from './passwords.js';
import { randomUrlToken } from './tokens.js';

export interface NewMember {
  email: string;
  /** Used for a new user only; defaults to the e-mail's local part. */
  name?: string | undefined;
  role: Role;
  /** An existing workspace, or one to create with this member as its luminary. */
  workspace: { id: string } | { create: { name: string; plan: Plan } };
  /** For a new user only; one is generated when not given. An existing user keeps theirs. */
  password?: string | undefined;
}

export interface AddedMember {
  member: WorkspaceMemberRow;
  workspace: WorkspaceRow;
  /** False when an existing user joined another workspace (their password is unchanged). */
  newUser: boolean;
  /** The generated password of a new user: to be shown once. */
  generatedPassword?: string;
}

export interface WorkspaceChanges {
  plan?: Plan | undefined;
  name?: string | undefined;
}

/** The same answer for a user of another workspace as for no user at all: existence is not revealed. */
export function unknownMember(userId: string): NotFoundError {
  return new NotFoundError(`Unknown user "${userId}"`, 'unknown_user');
}

function unknownWorkspace(id: string): NotFoundError {
  return new NotFoundError(`No workspace ${id}`, 'unknown_workspace');
}

export class TenancyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly members: MembersRepo,
    private readonly shared: SharedState,
  ) {}

  // Workspaces

  listWorkspaces(): Promise<WorkspaceSummaryRow[]> {
    return this.members.listWorkspaces();
  }

  async workspace(id: string): Promise<WorkspaceRow> {
    const row = await this.members.getWorkspace(id);
    if (!row) throw unknownWorkspace(id);
    return row;
  }

  /** Changes the plan and/or name. A plan change applies to the workspace's keys from their next request. */
  async updateWorkspace(id: string, changes: WorkspaceChanges): Promise<WorkspaceRow> {
    const before = await this.workspace(id);
    const name = changes.name?.trim();
    if (name !== undefined && !name) throw new BadRequestError('name must not be empty');
    const wanted = {
      ...(changes.plan !== undefined && changes.plan !== before.plan ? { plan: changes.plan } : {}),
      ...(name !== undefined && name !== before.name ? { name } : {}),
    };
    if (Object.keys(wanted).length === 0) return before;
    const after = await this.members.updateWorkspace(id, wanted);
    if (!after) throw unknownWorkspace(id);
    await this.changedIdentity();
    return after;
  }

  // Members

  listMembers(workspaceId: string): Promise<WorkspaceMemberRow[]> {
    return this.members.listMembers(workspaceId);
  }

  async member(workspaceId: string, userId: string): Promise<WorkspaceMemberRow> {
    const row = await this.members.getMember(workspaceId, userId);
    if (!row) throw unknownMember(userId);
    return row;
  }

  /**
   * Adds a member: a new user (with a password, generated when not given), or an existing user joining
   * another workspace (their password is left alone). Someone already in the workspace is refused: a
   * role changes through `setRole`, never as a side effect of adding.
   */
  async addMember(input: NewMember): Promise<AddedMember> {
    const email = input.email.trim().toLowerCase();
    if (!email) throw new BadRequestError('email must not be empty');
    if ('create' in input.workspace && input.role !== 'luminary') {
      throw new BadRequestError(`The first member of a new workspace is its luminary, not a ${input.role}`, 'luminary_required');
    }
    return inMembersTransaction(this.db, async (members) => {
      const existing = await members.findUserByEmail(email);
      if (existing && input.password !== undefined) {
        throw new BadRequestError(`${email} already has an account and keeps its password; give a password only for a new user`, 'user_exists');
      }
      const workspace =
        'create' in input.workspace
          ? await members.createWorkspace(input.workspace.create)
          : await members.getWorkspace(input.workspace.id);
      if (!workspace) throw unknownWorkspace((input.workspace as { id: string }).id);
      if (existing) {
        const current = await members.getMember(workspace.id, existing.id);
        if (current) {
          throw new ConflictError(`${email} is already a member of ${workspace.name} (${workspace.id}), as ${current.role}`, 'already_member');
        }
      }
      const generatedPassword = existing || input.password !== undefined ? undefined : randomUrlToken(18);
      const user =
        existing ??
        (await members.createUser({
          email,
          name: input.name?.trim() || email.split('@')[0]!,
          passwordHash: await hashPassword(input.password ?? generatedPassword!),
        }));
      await members.addMembership({ workspaceId: workspace.id, userId: user.id, role: input.role });
      const member = (await members.getMember(workspace.id, user.id))!;
      return { member, workspace, newUser: !existing, ...(generatedPassword ? { generatedPassword } : {}) };
    });
  }

  /** Changes a member's role, from their next request on (sessions and keys, every instance). */
  async setRole(workspaceId: string, userId: string, role: Role): Promise<WorkspaceMemberRow> {
    const { member, changed } = await inMembersTransaction(
      this.db,
      async (members, workspace) => {
        const current = workspace && (await members.getMember(workspace.id, userId));
        if (!current) throw unknownMember(userId);
        if (current.role === role) return { member: current, changed: false };
        if (current.role === 'luminary') await this.keepALuminary(members, workspaceId, current, 'demote');
        return { member: (await members.setRole(workspaceId, userId, role))!, changed: true };
      },
      workspaceId,
    );
    if (changed) await this.changedIdentity();
    return member;
  }

  /** Takes a member out of the workspace: their keys of it are deleted and their sessions in it end. */
  async removeMember(workspaceId: string, userId: string): Promise<WorkspaceMemberRow> {
    const removed = await inMembersTransaction(
      this.db,
      async (members, workspace) => {
        const current = workspace && (await members.getMember(workspace.id, userId));
        if (!current) throw unknownMember(userId);
        if (current.role === 'luminary') await this.keepALuminary(members, workspaceId, current, 'remove');
        await members.removeMember(workspaceId, userId);
        return current;
      },
      workspaceId,
    );
    await this.changedIdentity();
    return removed;
  }

  /** Merges attributes into a member's (null removes one); they apply from the member's next request. */
  async patchAttributes(workspaceId: string, userId: string, patch: AttributePatch): Promise<WorkspaceMemberRow> {
    const row = await this.members.patchAttributes(workspaceId, userId, patch);
    if (!row) throw unknownMember(userId);
    if (Object.keys(patch).length > 0) await this.changedIdentity();
    return row;
  }

  private async keepALuminary(members: MembersRepo, workspaceId: string, member: WorkspaceMemberRow, action: 'demote' | 'remove') {
    if ((await members.countLuminaries(workspaceId)) > 1) return;
    throw new ConflictError(
      `Cannot ${action} ${member.email}: they are the last luminary of this workspace. Make another member a luminary first`,
      'last_luminary',
    );
  }

  // Cached keys are tagged with this generation: moving it makes their next request, on any instance,
  // read the member, role and plan afresh. Sessions are read from the store on every request anyway.
  private changedIdentity(): Promise<void> {
    return this.shared.bump(IDENTITY_GENERATION);
  }
}
