// svc workspaces list | set-plan.
import type { Services } from '../services.js';
import { PLANS, type Plan } from '../store/schema.js';
import { describeWorkspace, need, oneOf, print, type Options } from './common.js';

export async function workspacesCommand(services: Services, sub: 'list' | 'set-plan', values: Options): Promise<number> {
  if (sub === 'list') {
    const rows = await services.tenancy.listWorkspaces();
    const lines = rows.map((w) => {
      const people = `${w.members} member(s), ${w.luminaries} ${w.luminaries === 1 ? 'luminary' : 'luminaries'}`;
      return `${w.id}  ${w.plan.padEnd(10)}  ${people.padEnd(30)}  ${w.name}`;
    });
    return print(lines.length ? lines.join('\n') : 'No workspaces.', 0);
  }
  const id = need(values, 'workspace');
  const plan = oneOf<Plan>(PLANS, need(values, 'plan'), 'plan');
  const before = await services.tenancy.workspace(id);
  const after = await services.tenancy.updateWorkspace(id, { plan });
  const change = before.plan === after.plan ? `is already on the ${plan} plan` : `moved from the ${before.plan} to the ${after.plan} plan`;
  return print(`Workspace ${describeWorkspace(after)} ${change}.`, 0);
}
