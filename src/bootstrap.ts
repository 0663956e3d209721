// Every start: bring the data directory up to date (DuckDB files into their workspace's directory).
// First start on an empty store: with the demo on, create workspace "Demo" (Team plan) and its first
// luminary. The generated password is returned so the caller can print it, once.
import type { Services } from './services.js';
import { hashPassword } from './identity/passwords.js';
import { randomUrlToken } from './identity/tokens.js';
import { setUpDemo } from './demo-setup.js';
import { membersRepo } from './store/members-repo.js';

export interface BootstrapResult {
  created: boolean;
  /** No workspace exists (the demo is off on an empty store): someone must create one with the CLI. */
  empty: boolean;
  workspaceId?: string;
  adminEmail: string;
  /** Only when it was generated here: shown once, never stored in clear. */
  generatedPassword?: string;
  /** The demo warehouse and model, when set up on this start. */
  demo?: { warehouseFile: string; orders: number; elapsedMs: number };
  /** What upgrading the data directory did that the operator should know (files moved, paths rewritten). */
  upgradeNotes: string[];
}

export async function bootstrapDemo(services: Services): Promise<BootstrapResult> {
  const { config, members } = services;
  const upgradeNotes = await services.connections.upgradeDuckDbPaths();
  const adminEmail = config.admin.email;
  const empty = (await members.countWorkspaces()) === 0;
  if (!config.demo || !empty) return { created: false, empty, adminEmail, upgradeNotes };

  const generatedPassword = config.admin.password ? undefined : randomUrlToken(18);
  const passwordHash = await hashPassword(config.admin.password ?? generatedPassword!);
  // Inside the transaction every statement goes through `trx` (on PGlite, `db` would wait for the
  // connection the transaction holds).
  const { workspaceId, userId } = await services.store.db.transaction().execute(async (trx) => {
    const members = membersRepo(trx);
    const workspace = await members.createWorkspace({ name: 'Demo', plan: 'team' });
    const existing = await members.findUserByEmail(adminEmail);
    const user = existing ?? (await members.createUser({ email: adminEmail, name: 'Admin', passwordHash }));
    if (existing) await members.setPassword(existing.id, passwordHash);
    await members.addMembership({ workspaceId: workspace.id, userId: user.id, role: 'luminary' });
    return { workspaceId: workspace.id, userId: user.id };
  });
  const demo = await setUpDemo(services, { workspaceId, userId, email: adminEmail });
  return { created: true, empty: false, workspaceId, adminEmail, demo, upgradeNotes, ...(generatedPassword ? { generatedPassword } : {}) };
}
