#!/usr/bin/env node
// The `svc` command: serve, migrate, users, workspaces, keys, model. Each group lives in src/cli/.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { AppError } from './core/errors.js';
import { serve } from './main.js';
import { StoreInUseError } from './store/store-lock.js';
import { print, withServices } from './cli/common.js';
import { keysCommand } from './cli/keys.js';
import { deployModel, validateAgainstContent, validateModel } from './cli/model.js';
import { usersCommand, type UsersSub } from './cli/users.js';
import { workspacesCommand } from './cli/workspaces.js';
import { runStdioBridge } from './mcp/stdio-bridge.js';

const USAGE = `Usage: svc <command>

  serve                                   start the server (the default of npm start)
  migrate                                 apply pending migrations to the metadata store
  users create --email E [--name N] [--role viewer|tracer|editor|luminary]
               (--workspace ID | --new-workspace NAME [--plan free|team|enterprise]) [--password P]
                                          a new user, or an existing one joining another workspace
  users list   --workspace ID
  users set-role --email E --role viewer|tracer|editor|luminary [--workspace ID]
  users remove --email E [--workspace ID]  (deletes their keys in that workspace)
  workspaces list
  workspaces set-plan --workspace ID --plan free|team|enterprise
  keys create  --email E --surface question|workspace|structured --name N
               [--workspace ID] [--expires-at ISO] [--scopes a,b]
  keys list    --email E [--workspace ID]
  keys revoke  --email E --id KEY_ID [--workspace ID]
  model validate DIR                      check the CML files in DIR; prints file:line:col: severity CODE message
  model validate DIR --against-content --project SLUG --email E [--workspace ID]
                                          also check them in the workspace model and list the scenes
                                          deploying them would break (exit 1 if any)
  model deploy DIR --project SLUG --email E [--workspace ID] [--message M] [--pr-url URL]
  mcp                                     an MCP server on stdio for desktop agents: forwards to a running
                                          server's /mcp (SVC_MCP_URL) with a structured key (SVC_API_KEY)

Configuration comes from the environment (see README). With the embedded store (no DATABASE_URL),
commands that use the store refuse to run while a server owns it (exit status 75).`;

/** sysexits' EX_TEMPFAIL: the store is busy; nothing was changed. */
const STORE_IN_USE_EXIT = 75;

const SUBCOMMANDS: Record<string, readonly string[]> = {
  users: ['create', 'list', 'set-role', 'remove'],
  workspaces: ['list', 'set-plan'],
  keys: ['create', 'list', 'revoke'],
};

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
      'against-content': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command = 'serve', sub, target] = positionals;
  if (values.help || command === 'help') return print(USAGE, 0);
  // A bridge to a running server: no configuration of a server of its own, and never the store.
  if (command === 'mcp') {
    await runStdioBridge({ env: process.env, log: (line) => process.stderr.write(`${line}\n`) });
    return 0;
  }
  const config = loadConfig();
  // Named in the store's lock (never with option values: --password must not land in a file).
  const name = `svc ${command}${sub ? ` ${sub}` : ''}`;

  if (command === 'model' && sub === 'validate' && target && values['against-content']) {
    return withServices(config, name, (s) => validateAgainstContent(s, target, values));
  }
  if (command === 'model' && sub === 'validate' && target) return validateModel(target);
  if (command === 'serve') {
    await serve(config);
    return -1; // keeps running
  }
  if (command === 'migrate') {
    return withServices(config, name, async (_services, migrations) =>
      print(migrations.length ? `Applied: ${migrations.join(', ')}` : 'The store is up to date.', 0),
    );
  }
  if (sub && SUBCOMMANDS[command]?.includes(sub)) {
    if (command === 'users') return withServices(config, name, (s) => usersCommand(s, sub as UsersSub, values));
    if (command === 'workspaces') return withServices(config, name, (s) => workspacesCommand(s, sub as 'list' | 'set-plan', values));
    return withServices(config, name, (s) => keysCommand(s, sub as 'create' | 'list' | 'revoke', values));
  }
  if (command === 'model' && sub === 'deploy' && target) return withServices(config, name, (s) => deployModel(s, target, values));
  return print(USAGE, 2);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof AppError || error instanceof StoreInUseError) {
      process.stderr.write(`svc: ${error.message}\n`);
      process.exitCode = error instanceof StoreInUseError ? STORE_IN_USE_EXIT : error instanceof AppError && error.status === 2 ? 2 : 1;
    } else {
      process.stderr.write(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
