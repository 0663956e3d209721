// The runtime of a process that owns what it opens: with the embedded store, the store's lock is
// taken before the store is opened and released after it is closed (see store/store-lock.ts). With
// PostgreSQL there is no lock: servers and `svc` commands share the database by design.
import type { Config } from './config.js';
import { openRuntime, storeLocation } from './runtime.js';
import { acquireStoreLock, type InUseReason, type LockHolder, type LockOwner, type StoreLock } from './store/store-lock.js';

/** How long an `svc` command or a starting server waits for another `svc` command to finish. */
const WAIT_FOR_COMMAND_MS = 15_000;

export interface Owner {
  holder: LockHolder;
  /** e.g. `svc serve`, `svc keys create` */
  command: string;
  /** Told when the lock of a process that is gone was taken over, or when we wait for a command. */
  onNote?: (note: string) => void;
}

type RuntimeOptions = Parameters<typeof openRuntime>[1];
export type OwnedRuntime = Awaited<ReturnType<typeof openRuntime>>;

export async function openOwnedRuntime(config: Config, owner: Owner, options?: RuntimeOptions): Promise<OwnedRuntime> {
  const lock = await lockEmbeddedStore(config, owner);
  try {
    const runtime = await openRuntime(config, options);
    return {
      ...runtime,
      async close() {
        try {
          await runtime.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function lockEmbeddedStore(config: Config, owner: Owner): Promise<StoreLock | undefined> {
  const location = storeLocation(config);
  if (location.kind !== 'pglite' || !location.dataDir) return undefined;
  const lock = await acquireStoreLock(`${location.dataDir}.lock`, {
    holder: owner.holder,
    command: owner.command,
    waitForCommandMs: WAIT_FOR_COMMAND_MS,
    onWait: (other) => owner.onNote?.(`waiting for \`${other.command}\` (PID ${other.pid}) to finish with the embedded store`),
    advise: (other, reason) => adviceFor(owner.holder, other, reason),
  });
  if (lock.replaced) {
    const gone = lock.replaced;
    owner.onNote?.(`took over the lock of the embedded store left by PID ${gone.pid} (\`${gone.command}\`, since ${gone.since}), which is no longer running`);
  }
  return lock;
}

function adviceFor(asking: LockHolder, other: LockOwner, reason: InUseReason): string {
  if (reason !== 'running' || other.holder !== 'server') return '';
  if (asking === 'server') {
    return (
      'Two processes cannot share an embedded store. Stop that server, give this one another SVC_DATA_DIR, ' +
      'or run several instances over PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).'
    );
  }
  // Said only when the server could not take the command over its admin channel (cli/admin-channel-client.ts).
  return (
    'Nothing was changed: a change made here would not reach the server and would be lost, and that server ' +
    'has no admin channel to run it (one still starting or stopping has none open; one of an earlier version opens none). ' +
    'Make it through the running server (console API: /api/keys, /api/members, /api/workspace), ' +
    'restart the server with this version, or stop it and run this command again.'
  );
}
