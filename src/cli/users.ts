// svc users create | list | set-role | remove.
import { AppError } from '../core/errors.js';
import type { NewMember } from '../identity/tenancy-service.js';
import type { Services } from '../services.js';
import { PLANS, ROLES, type Plan, type Role } from '../store/schema.js';
import { describeWorkspace, membershipOf, need, oneOf, optional, print, usage, type Options } from './common.js';

export type UsersSub = 'create' | 'list' | 'set-role' | 'remove';

export async function usersCommand(services: Services, sub: UsersSub, values: Options): Promise<number> {
  if (sub === 'create') return createMember(services, values);
  if (sub === 'list') return listMembers(services, values);
  const email = need(values, 'email').toLowerCase();
  const { user, workspace } = await membershipOf(services, email, optional(values, 'workspace'), false);
  if (sub === 'remove') {
    await services.tenancy.removeMember(workspace.id, user.id);
    return print(`Removed ${email} from ${describeWorkspace(workspace)}; their keys there are deleted.`, 0);
  }
  const role = oneOf<Role>(ROLES, need(values, 'role'), 'role');
  const before = await services.tenancy.member(workspace.id, user.id);
  await services.tenancy.setRole(workspace.id, user.id, role);
  const change = before.role === role ? `is already ${role}` : `is now ${role} (was ${before.role})`;
  return print(`${email} ${change} in ${describeWorkspace(workspace)}.`, 0);
}

async function createMember(services: Services, values: Options): Promise<number> {
  const email = need(values, 'email').toLowerCase();
  const newWorkspace = optional(values, 'new-workspace');
  const workspaceId = optional(values, 'workspace');
  if (newWorkspace && workspaceId) throw usage('give --workspace or --new-workspace, not both');
  if (!newWorkspace && !workspaceId) throw usage('--workspace or --new-workspace is required');
  if (values.plan !== undefined && !newWorkspace) {
    throw usage('--plan applies to --new-workspace; change the plan of a workspace with: svc workspaces set-plan');
  }
  // The first member of a new workspace is its luminary, so that someone can manage it.
  const role = oneOf<Role>(ROLES, optional(values, 'role') ?? (newWorkspace ? 'luminary' : 'viewer'), 'role');
  const input: NewMember = {
    email,
    name: optional(values, 'name'),
    role,
    password: optional(values, 'password'),
    workspace: newWorkspace ? { create: { name: newWorkspace, plan: oneOf<Plan>(PLANS, optional(values, 'plan') ?? 'team', 'plan') } } : { id: workspaceId! },
  };
  try {
    const added = await services.tenancy.addMember(input);
    const lines = [
      `user:      ${added.member.email} (${added.member.id})${added.newUser ? '' : '   (existing user, password unchanged)'}`,
      `workspace: ${describeWorkspace(added.workspace)}${newWorkspace ? `, ${added.workspace.plan} plan` : ''}`,
      `role:      ${added.member.role}`,
    ];
    if (added.generatedPassword) lines.push(`password:  ${added.generatedPassword}   (shown once)`);
    return print(lines.join('\n'), 0);
  } catch (error) {
    if (error instanceof AppError && error.code === 'already_member') {
      const where = workspaceId ? ` --workspace ${workspaceId}` : '';
      throw new AppError(409, error.code, `${error.message}. Change a role with: svc users set-role --email ${email} --role <role>${where}`);
    }
    throw error;
  }
}

async function listMembers(services: Services, values: Options): Promise<number> {
  const workspace = await services.tenancy.workspace(need(values, 'workspace'));
  const members = await services.tenancy.listMembers(workspace.id);
  const lines = members.map((m) => `${m.id}  ${m.role.padEnd(8)}  ${m.email}  (${m.name})`);
  return print([`${describeWorkspace(workspace)}, ${workspace.plan} plan:`, ...lines].join('\n'), 0);
}
