#!/usr/bin/env node
// The `svc` command: serve, migrate, users create, keys create|list|revoke.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic, validateDirectory } from './core/cml/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { AppError } from './core/errors.js';
import { hashPassword } from './identity/passwords.js';
import { randomUrlToken } from './identity/tokens.js';
import { readModelDir } from './demo-setup.js';
import { serve } from './main.js';
import { ModelValidationError } from './modeling/model-service.js';
import { openRuntime } from './runtime.js';
import type { Services } from './services.js';
import { KEY_SURFACES, PLANS, ROLES, type KeySurface, type Plan, type Role } from './store/schema.js';

const USAGE = `Usage: svc <command>

  serve                                   start the server (the default of npm start)
  migrate                                 apply pending migrations to the metadata store
  users create --email E [--name N] [--role viewer|tracer|editor|luminary]
               [--workspace ID | --new-workspace NAME [--plan free|team|enterprise]] [--password P]
  keys create  --email E --surface question|workspace|structured --name N
               [--workspace ID] [--expires-at ISO] [--scopes a,b]
  keys list    --email E [--workspace ID]
  keys revoke  --email E --id KEY_ID [--workspace ID]
  model validate DIR                      check the CML files in DIR; prints file:line:col: severity CODE message
  model deploy DIR --project SLUG --email E [--workspace ID] [--message M] [--pr-url URL]

Configuration comes from the environment (see README).`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      workspace: { type: 'string' },
      'new-workspace': { type: 'string' },
      plan: { type: 'string' },
      password: { type: 'string' },
      surface: { type: 'string' },
      'expires-at': { type: 'string' },
      scopes: { type: 'string' },
      id: { type: 'string' },
      project: { type: 'string' },
      message: { type: 'string' },
      'pr-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command = 'serve', sub, target] = positionals;
  if (values.help || command === 'help') return print(USAGE, 0);
  const config = loadConfig();

  if (command === 'model' && sub === 'validate' && target) return validateModel(target);
  if (command === 'serve') {
    await serve(config);
    return -1; // keeps running
  }
  if (command === 'migrate') {
    return withServices(config, async (_services, migrations) =>
      print(migrations.length ? `Applied: ${migrations.join(', ')}` : 'The store is up to date.', 0),
    );
  }
  if (command === 'users' && sub === 'create') return withServices(config, (s) => createUser(s, values));
  if (command === 'keys' && (sub === 'create' || sub === 'list' || sub === 'revoke')) {
    return withServices(config, (s) => keysCommand(s, sub, values));
  }
  if (command === 'model' && sub === 'deploy' && target) return withServices(config, (s) => deployModel(s, target, values));
  return print(USAGE, 2);
}

async function validateModel(dir: string): Promise<number> {
  const { files, diagnostics } = await validateDirectory(dir);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  for (const d of diagnostics) process.stdout.write(`${formatDiagnostic({ ...d, file: path.join(dir, d.file) })}\n`);
  process.stdout.write(`${files.length} file(s), ${errors} error(s), ${diagnostics.length - errors} warning(s)\n`);
  return errors ? 1 : 0;
}

async function deployModel(services: Services, dir: string, values: Options): Promise<number> {
  const actor = await actorFor(services, need(values, 'email'), values.workspace as string | undefined);
  const files = await readModelDir(dir);
  try {
    const deployment = await services.models.deploy(
      { workspaceId: actor.workspace.id, userId: actor.user.id, email: need(values, 'email') },
      need(values, 'project'),
      files,
      { message: values.message as string | undefined, prUrl: values['pr-url'] as string | undefined },
    );
    return print(`Deployed ${files.length} file(s) to ${values.project}; changed nodes: ${deployment.changed_nodes.join(', ') || 'none'}`, 0);
  } catch (error) {
    if (!(error instanceof ModelValidationError)) throw error;
    for (const d of error.diagnostics) process.stdout.write(`${formatDiagnostic({ ...d, file: path.join(dir, d.file) })}\n`);
    return print(error.message, 1);
  }
}

type Options = Record<string, string | boolean | undefined>;

async function withServices(config: Config, run: (services: Services, migrations: string[]) => Promise<number>) {
  const runtime = await openRuntime(config);
  try {
    return await run(runtime.services, runtime.migrations);
  } finally {
    await runtime.close();
  }
}

function need(values: Options, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw new AppError(2, 'usage', `--${name} is required`);
  return value;
}

function oneOf<T extends string>(values: readonly T[], value: string, name: string): T {
  if (!(values as readonly string[]).includes(value)) throw new AppError(2, 'usage', `--${name} must be one of ${values.join(', ')}`);
  return value as T;
}

async function createUser(services: Services, values: Options): Promise<number> {
  const email = need(values, 'email').toLowerCase();
  const role = oneOf<Role>(ROLES, (values.role as string) ?? 'viewer', 'role');
  let workspaceId = values.workspace as string | undefined;
  if (values['new-workspace']) {
    const plan = oneOf<Plan>(PLANS, (values.plan as string) ?? 'team', 'plan');
    workspaceId = (await services.members.createWorkspace({ name: values['new-workspace'] as string, plan })).id;
  }
  if (!workspaceId) throw new AppError(2, 'usage', '--workspace or --new-workspace is required');
  if (!(await services.members.getWorkspace(workspaceId))) throw new AppError(2, 'usage', `No workspace ${workspaceId}`);

  const password = (values.password as string | undefined) ?? randomUrlToken(18);
  let user = await services.members.findUserByEmail(email);
  user ??= await services.members.createUser({
    email,
    name: (values.name as string | undefined) ?? email.split('@')[0]!,
    passwordHash: await hashPassword(password),
  });
  await services.members.addMembership({ workspaceId, userId: user.id, role });
  const shown = values.password ? '' : `\npassword:  ${password}   (shown once)`;
  return print(`user:      ${user.email} (${user.id})\nworkspace: ${workspaceId}\nrole:      ${role}${shown}`, 0);
}

async function keysCommand(services: Services, sub: 'create' | 'list' | 'revoke', values: Options): Promise<number> {
  const actor = await actorFor(services, need(values, 'email'), values.workspace as string | undefined);
  if (sub === 'list') {
    const keys = await services.keys.list(actor);
    const lines = keys.map((k) => `${k.id}  ${k.prefix.padEnd(16)}  ${k.surface.padEnd(10)}  ${k.status.padEnd(7)}  ${k.name}`);
    return print(lines.length ? lines.join('\n') : 'No keys.', 0);
  }
  if (sub === 'revoke') {
    const key = await services.keys.revoke(actor, need(values, 'id'));
    return print(`Revoked ${key.prefix} (${key.name}).`, 0);
  }
  const created = await services.keys.create(actor, {
    name: need(values, 'name'),
    surface: oneOf<KeySurface>(KEY_SURFACES, need(values, 'surface'), 'surface'),
    expiresAt: values['expires-at'] ? new Date(values['expires-at'] as string) : undefined,
    scopes: typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
  });
  return print(`${created.value}\n(key ${created.key.id}, ${created.key.surface}: shown once, store it now)`, 0);
}

async function actorFor(services: Services, email: string, workspaceId: string | undefined) {
  const user = await services.members.findUserByEmail(email);
  if (!user) throw new AppError(2, 'usage', `No user ${email}`);
  const memberships = await services.members.membershipsOf(user.id);
  const membership = workspaceId ? memberships.find((m) => m.workspace_id === workspaceId) : memberships[0];
  if (!membership) throw new AppError(2, 'usage', `${email} is not a member of ${workspaceId ?? 'any workspace'}`);
  const workspace = (await services.members.getWorkspace(membership.workspace_id))!;
  return { workspace: { id: workspace.id, plan: workspace.plan }, user: { id: user.id }, role: membership.role };
}

function print(text: string, code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${text}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof AppError) {
      process.stderr.write(`svc: ${error.message}\n`);
      process.exitCode = error instanceof AppError && error.status === 2 ? 2 : 1;
    } else {
      process.stderr.write(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
