// The `svc` command: serve, migrate, users, workspaces, keys, model. Each group lives in src/cli/. No side
// effects on import: src/cli.ts runs main() for the shell, and tests call it in-process.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { serve } from '../main.js';
import { runStdioBridge } from '../mcp/stdio-bridge.js';
import { print, withServices } from './common.js';
import { validateModel } from './model.js';
import { err, reportFailure } from './output.js';
import { runStoreRequest, storeRequestFrom } from './store-commands.js';

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

Configuration comes from the environment (see README). With the embedded store (no DATABASE_URL), the
commands that use the store run in the server while one runs on this host (through its admin channel).`;

/**
 * Runs `svc` with `argv` (without the program's name) and the environment `env`; answers the exit status,
 * or -1 for `serve`, which keeps running. Output goes through cli/output.ts.
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await run(argv, env);
  } catch (error) {
    return reportFailure(error);
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
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
    await runStdioBridge({ env, log: (line) => err(`${line}\n`) });
    return 0;
  }
  const config = loadConfig(env);
  if (command === 'model' && sub === 'validate' && target && !values['against-content']) return validateModel(target);
  if (command === 'serve') {
    await serve(config);
    return -1; // keeps running
  }
  const request = await storeRequestFrom(positionals, values);
  if (request) return withServices(config, request, (services, migrations) => runStoreRequest(services, migrations, request));
  return print(USAGE, 2);
}
