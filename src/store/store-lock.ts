// The owner lock of an embedded (PGlite) store. PGlite runs PostgreSQL inside one process: a second
// process that opens the same directory works on its own copy, and whatever it writes is lost when
// the first one next writes its state back. So every process that opens an embedded store (a server,
// or an `svc` command) first creates `<store>.lock`, holding who it is, and removes it when done.
//
// A lock whose owner is gone is stale and taken over: its PID no longer runs (a server killed with
// SIGKILL leaves its lock behind), or that PID now belongs to another process (the kernel reuses
// PIDs, so the lock records the owner's start time as well, and a PID with another start time is not
// the owner). A lock written on another host (a data directory shared by two containers or over the
// network) cannot be checked from here and is never taken over.
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { randomHex } from '../identity/tokens.js';

export type LockHolder = 'server' | 'command';

export interface LockOwner {
  pid: number;
  /** Identifies the process beyond its PID (Linux: boot id and start time); null where unknown. */
  start: string | null;
  host: string;
  holder: LockHolder;
  /** What runs, e.g. `svc serve` (never option values: they may hold a password). */
  command: string;
  /** When the lock was taken (ISO 8601). */
  since: string;
}

export interface StoreLock {
  readonly file: string;
  /** The stale lock this one replaced, if any: worth a note to the operator. */
  readonly replaced: LockOwner | undefined;
  /** Removes the lock if it is still ours. Idempotent, synchronous (it also runs at process exit). */
  release(): void;
}

export type InUseReason = 'running' | 'other-host' | 'still-running';

/** The store is owned by a live process (or one that cannot be checked). */
export class StoreInUseError extends Error {
  constructor(
    readonly owner: LockOwner,
    readonly file: string,
    readonly reason: InUseReason,
    message: string,
  ) {
    super(message);
    this.name = 'StoreInUseError';
  }
}

export interface AcquireOptions {
  holder: LockHolder;
  command: string;
  /**
   * How long to wait for an `svc` command that holds the lock (commands take seconds) before giving
   * up. A server holding it is never waited for: it runs until stopped.
   */
  waitForCommandMs?: number;
  /** Called once when we start waiting for a command. */
  onWait?: (owner: LockOwner) => void;
  /** Explains to the operator what to do instead; appended to the refusal. */
  advise?: (owner: LockOwner, reason: InUseReason) => string;
}

const POLL_MS = 100;
// Two processes taking over one stale lock at once must not both win: a takeover happens only while
// holding this second, short-lived file.
const TAKEOVER_SUFFIX = '.takeover';

/** Takes the lock file `file`, taking over a stale one; throws StoreInUseError when it is held. */
export async function acquireStoreLock(file: string, options: AcquireOptions): Promise<StoreLock> {
  mkdirSync(path.dirname(file), { recursive: true });
  const me = currentOwner(options.holder, options.command);
  const content = `${JSON.stringify(me)}\n`;
  const deadline = Date.now() + (options.waitForCommandMs ?? 0);
  let waiting = false;

  for (;;) {
    if (createExclusive(file, content)) return ownedLock(file, content, undefined);
    const seen = readRaw(file);
    if (seen === undefined) continue; // released between our attempt and our read: try again
    const owner = parseOwner(seen);
    const verdict = owner ? judge(owner) : 'stale';
    if (verdict === 'stale') {
      if (takeOver(file, seen, content)) return ownedLock(file, content, owner ?? undefined);
      await sleep(POLL_MS);
      continue;
    }
    if (verdict === 'running' && owner!.holder === 'command' && Date.now() < deadline) {
      if (!waiting) options.onWait?.(owner!);
      waiting = true;
      await sleep(POLL_MS);
      continue;
    }
    const reason: InUseReason = verdict === 'other-host' ? 'other-host' : waiting ? 'still-running' : 'running';
    throw new StoreInUseError(owner!, file, reason, refusal(owner!, file, reason, options.advise));
  }
}

function ownedLock(file: string, content: string, replaced: LockOwner | undefined): StoreLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own lock: if an operator deleted it and another process took the store, that one's stays.
    if (readRaw(file) === content) removeQuietly(file);
  };
  // A process that exits without closing (an uncaught error, process.exit) still frees the store.
  process.on('exit', release);
  return { file, replaced, release };
}

/** Creates `file` with `content` only if it does not exist; the content appears whole or not at all. */
function createExclusive(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
  writeFileSync(temp, content, { mode: 0o644 });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    removeQuietly(temp);
  }
}

/**
 * Replaces the stale lock whose content was `seen` by ours (`content`), unless someone changed it
 * meanwhile. The replacement is one rename: the lock never goes missing, so no other process can
 * create one in between and hold the store while this one reports the takeover.
 */
function takeOver(file: string, seen: string, content: string): boolean {
  const mutex = `${file}${TAKEOVER_SUFFIX}`;
  const mine = `${JSON.stringify(currentOwner('command', 'takeover'))}\n`;
  if (!createExclusive(mutex, mine)) {
    // Another process is taking over right now, or died doing so (a window of microseconds).
    const raw = readRaw(mutex);
    const holder = raw === undefined ? undefined : parseOwner(raw);
    if (raw !== undefined && (!holder || judge(holder) === 'stale')) removeQuietly(mutex);
    return false;
  }
  try {
    // Under the mutex nobody else removes the lock, and its live owner never replaces it: if it is
    // still the content we judged stale, it is still stale.
    if (readRaw(file) !== seen) return false;
    const temp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
    writeFileSync(temp, content, { mode: 0o644 });
    try {
      renameSync(temp, file);
    } catch (error) {
      removeQuietly(temp);
      throw error;
    }
    return true;
  } finally {
    if (readRaw(mutex) === mine) removeQuietly(mutex);
  }
}

type Verdict = 'running' | 'stale' | 'other-host';

function judge(owner: LockOwner): Verdict {
  if (owner.host !== hostname()) return 'other-host';
  if (!isRunning(owner.pid)) return 'stale';
  const start = processStart(owner.pid);
  if (start === 'zombie') return 'stale';
  // Where start times cannot be read, a running PID is taken to be the owner: refusing wrongly only
  // asks the operator to look, while taking over wrongly would lose data.
  if (owner.start && start && start !== owner.start) return 'stale';
  return 'running';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The boot id and start time (clock ticks since boot) of a process, from Linux's /proc; 'zombie' for
 * a process that has exited but is not yet reaped; undefined where /proc is not available.
 */
export function processStart(pid: number): string | 'zombie' | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return 'zombie';
    const startTicks = fields[19];
    return startTicks ? `${bootId()}:${startTicks}` : undefined;
  } catch {
    return undefined;
  }
}

let cachedBootId: string | undefined;
function bootId(): string {
  try {
    cachedBootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    cachedBootId = '';
  }
  return cachedBootId;
}

function currentOwner(holder: LockHolder, command: string): LockOwner {
  const start = processStart(process.pid);
  return {
    pid: process.pid,
    start: start && start !== 'zombie' ? start : null,
    host: hostname(),
    holder,
    command,
    since: new Date().toISOString(),
  };
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    if (!Number.isInteger(value.pid) || typeof value.host !== 'string') return undefined;
    return {
      pid: value.pid!,
      start: typeof value.start === 'string' ? value.start : null,
      host: value.host,
      holder: value.holder === 'command' ? 'command' : 'server',
      command: typeof value.command === 'string' ? value.command : 'unknown',
      since: typeof value.since === 'string' ? value.since : 'unknown',
    };
  } catch {
    return undefined;
  }
}

export function readLockOwner(file: string): LockOwner | undefined {
  const raw = readRaw(file);
  return raw === undefined ? undefined : parseOwner(raw);
}

function refusal(owner: LockOwner, file: string, reason: InUseReason, advise: AcquireOptions['advise']): string {
  const store = file.replace(/\.lock$/, '');
  const who = owner.holder === 'server' ? 'a running server' : `a running \`${owner.command}\``;
  const detail = `PID ${owner.pid}${owner.host === hostname() ? '' : ` on host ${owner.host}`}, since ${owner.since}`;
  const facts =
    reason === 'other-host'
      ? `The embedded metadata store in ${store} is locked by ${who} (${detail}), which cannot be checked from this host. ` +
        `If no process uses this store any more, delete ${file}.`
      : reason === 'still-running'
        ? `The embedded metadata store in ${store} is still in use by ${who} (${detail}); try again when it has finished.`
        : `The embedded metadata store in ${store} is in use by ${who} (${detail}).`;
  const advice = advise?.(owner, reason);
  return advice ? `${facts}\n${advice}` : facts;
}

function readRaw(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
