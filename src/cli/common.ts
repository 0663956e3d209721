// What every `svc` subcommand shares: option helpers, output, and the runtime it acts through.
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import { openOwnedRuntime, type OwnedRuntime } from '../owned-runtime.js';
import type { Services } from '../services.js';
import type { WorkspaceRow } from '../store/members-repo.js';
import { StoreInUseError } from '../store/store-lock.js';
import { sendToServer } from './admin-channel-client.js';
import { err, out } from './output.js';
import { requestName, type StoreRequest } from './store-request.js';

export type Options = Record<string, string | boolean | undefined>;

/** A usage mistake: exit status 2, the message printed as is. */
export function usage(message: string): AppError {
  return new AppError(2, 'usage', message);
}

export function need(values: Options, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw usage(`--${name} is required`);
  return value;
}

export function optional(values: Options, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function oneOf<T extends string>(values: readonly T[], value: string, name: string): T {
  if (!(values as readonly string[]).includes(value)) throw usage(`--${name} must be one of ${values.join(', ')}`);
  return value as T;
}

export function print(text: string, code: number): number {
  (code === 0 ? out : err)(`${text}\n`);
  return code;
}

/**
 * Runs a command against the store. With the embedded store the command owns it while it runs (see
 * owned-runtime.ts); while a server on this host owns it, the command is sent to that server to run
 * there (admin-channel-client.ts), and refused if it cannot be.
 */
export async function withServices(
  config: Config,
  request: StoreRequest,
  run: (services: Services, migrations: string[]) => Promise<number>,
): Promise<number> {
  let runtime: OwnedRuntime;
  try {
    runtime = await openOwnedRuntime(config, {
      holder: 'command',
      command: requestName(request),
      onNote: (note) => err(`svc: ${note}\n`),
    });
  } catch (error) {
    if (error instanceof StoreInUseError && error.reason === 'running' && error.owner.holder === 'server') {
      return sendToServer(config, error, request);
    }
    throw error;
  }
  try {
    return await run(runtime.services, runtime.migrations);
  } finally {
    await runtime.close();
  }
}

export async function userByEmail(services: Services, email: string) {
  const user = await services.members.findUserByEmail(email);
  if (!user) throw usage(`No user ${email}`);
  return user;
}

/**
 * The membership a command acts in: the one `--workspace` names, else the user's only one. For a
 * user in several workspaces, `pickFirst` takes the oldest (reads) where a change asks to be told.
 */
export async function membershipOf(services: Services, email: string, workspaceId: string | undefined, pickFirst: boolean) {
  const user = await userByEmail(services, email);
  const memberships = await services.members.membershipsOf(user.id);
  if (!workspaceId && memberships.length > 1 && !pickFirst) {
    const names = await Promise.all(memberships.map(async (m) => describeWorkspace((await services.members.getWorkspace(m.workspace_id))!)));
    throw usage(`${email} is a member of ${memberships.length} workspaces; say which with --workspace: ${names.join(', ')}`);
  }
  const membership = workspaceId ? memberships.find((m) => m.workspace_id === workspaceId) : memberships[0];
  if (!membership) throw usage(`${email} is not a member of ${workspaceId ?? 'any workspace'}`);
  const workspace = (await services.members.getWorkspace(membership.workspace_id))!;
  return { user, membership, workspace };
}

export function describeWorkspace(workspace: Pick<WorkspaceRow, 'id' | 'name'>): string {
  return `${workspace.id} (${workspace.name})`;
}
