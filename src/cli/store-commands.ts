// Which function runs a store request: the same for a command that opens the store itself and for one
// the running server runs for it (admin-channel-server.ts), so that both print and exit alike.
import { readModelDir } from '../demo-setup.js';
import type { Services } from '../services.js';
import { type Options, print } from './common.js';
import { keysCommand } from './keys.js';
import { deployModel, validateAgainstContent } from './model.js';
import type { StoreRequest } from './store-request.js';
import { usersCommand } from './users.js';
import { workspacesCommand } from './workspaces.js';

const SUBCOMMANDS: Record<string, readonly string[]> = {
  users: ['create', 'list', 'set-role', 'remove'],
  workspaces: ['list', 'set-plan'],
  keys: ['create', 'list', 'revoke'],
};

/** The store request the command line asks for, or undefined for a command that does not use the store. */
export async function storeRequestFrom(positionals: string[], values: Options): Promise<StoreRequest | undefined> {
  const [command = 'serve', sub, target] = positionals;
  const given = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined));
  if (command === 'migrate') return { command };
  if (sub && SUBCOMMANDS[command]?.includes(sub)) return { command, sub, values: given } as StoreRequest;
  const checksContent = sub === 'validate' && values['against-content'];
  if (command === 'model' && target && (sub === 'deploy' || checksContent)) {
    return { command, sub: sub as 'deploy' | 'validate', dir: target, files: await readModelDir(target), values: given };
  }
  return undefined;
}

/** Runs `request` on an open store; `migrations` are those applied as it opened. */
export async function runStoreRequest(services: Services, migrations: string[], request: StoreRequest): Promise<number> {
  switch (request.command) {
    case 'migrate':
      return print(migrations.length ? `Applied: ${migrations.join(', ')}` : 'The store is up to date.', 0);
    case 'users':
      return usersCommand(services, request.sub, request.values);
    case 'workspaces':
      return workspacesCommand(services, request.sub, request.values);
    case 'keys':
      return keysCommand(services, request.sub, request.values);
    case 'model':
      return request.sub === 'deploy'
        ? deployModel(services, request.dir, request.values, request.files)
        : validateAgainstContent(services, request.dir, request.values, request.files);
  }
}
