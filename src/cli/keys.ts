// svc keys create | list | revoke: API keys of a member, acting as that member.
import type { KeyActor } from '../identity/key-service.js';
import type { Services } from '../services.js';
import { KEY_SURFACES, type KeySurface } from '../store/schema.js';
import { membershipOf, need, oneOf, optional, print, type Options } from './common.js';

export async function keysCommand(services: Services, sub: 'create' | 'list' | 'revoke', values: Options): Promise<number> {
  const actor = await actorFor(services, need(values, 'email'), optional(values, 'workspace'));
  if (sub === 'list') {
    const keys = await services.keys.list(actor);
    const lines = keys.map((k) => `${k.id}  ${k.prefix.padEnd(16)}  ${k.surface.padEnd(10)}  ${k.status.padEnd(7)}  ${k.name}`);
    return print(lines.length ? lines.join('\n') : 'No keys.', 0);
  }
  if (sub === 'revoke') {
    const key = await services.keys.revoke(actor, need(values, 'id'));
    return print(`Revoked ${key.prefix} (${key.name}).`, 0);
  }
  const expiresAt = optional(values, 'expires-at');
  const scopes = optional(values, 'scopes');
  const created = await services.keys.create(actor, {
    name: need(values, 'name'),
    surface: oneOf<KeySurface>(KEY_SURFACES, need(values, 'surface'), 'surface'),
    expiresAt: expiresAt ? new Date(expiresAt) : undefined,
    scopes: scopes ? scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
  });
  return print(`${created.value}\n(key ${created.key.id}, ${created.key.surface}: shown once, store it now)`, 0);
}

/** The member a key acts for: without --workspace, the user's oldest membership (as sign-in does). */
export async function actorFor(services: Services, email: string, workspaceId: string | undefined): Promise<KeyActor & { user: { id: string; email: string } }> {
  const { user, membership, workspace } = await membershipOf(services, email, workspaceId, true);
  return { workspace: { id: workspace.id, plan: workspace.plan }, user: { id: user.id, email: user.email }, role: membership.role };
}
