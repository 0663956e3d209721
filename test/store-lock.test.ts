// The embedded store's owner lock, in process: who holds it, and when a lock is stale. The same lock
// between real `svc` processes (and a server killed with SIGKILL) is tested in cli.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireStoreLock, processStart, readLockOwner, StoreInUseError, type LockOwner } from '../src/store/store-lock.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const lockFile = () => path.join(dir, `store${n++}.lock`);

function owner(extra: Partial<LockOwner>): LockOwner {
  return { pid: process.pid, start: null, host: hostname(), holder: 'server', command: 'svc serve', since: '2026-01-01T00:00:00.000Z', ...extra };
}

function writeLock(file: string, value: LockOwner) {
  writeFileSync(file, `${JSON.stringify(value)}\n`);
}

/** A PID that ran and has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

async function refusal(promise: Promise<unknown>): Promise<StoreInUseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreInUseError);
  return error as StoreInUseError;
}

describe('store lock', () => {
  it('records who holds it, refuses a second holder by name, and is free again once released', async () => {
    const file = lockFile();
    const lock = await acquireStoreLock(file, { holder: 'server', command: 'svc serve' });
    const recorded = readLockOwner(file)!;
    expect(recorded).toMatchObject({ pid: process.pid, host: hostname(), holder: 'server', command: 'svc serve' });
    // On Linux the start time is recorded, so a reused PID can be told from the owner.
    if (existsSync('/proc/self/stat')) expect(recorded.start).toMatch(/^[0-9a-f-]*:\d+$/);

    const error = await refusal(acquireStoreLock(file, { holder: 'command', command: 'svc keys create', advise: () => 'Stop it first.' }));
    expect(error.reason).toBe('running');
    expect(error.owner.pid).toBe(process.pid);
    expect(error.message).toContain(`is in use by a running server (PID ${process.pid}, since ${recorded.since})`);
    expect(error.message).toMatch(/\nStop it first\.$/);
    expect(readLockOwner(file)).toEqual(recorded);

    lock.release();
    lock.release();
    expect(existsSync(file)).toBe(false);
    (await acquireStoreLock(file, { holder: 'command', command: 'svc migrate' })).release();
  });

  it('takes over the lock of a process that no longer runs, and says whose it was', async () => {
    const file = lockFile();
    const gone = owner({ pid: deadPid(), command: 'svc serve' });
    writeLock(file, gone);
    const lock = await acquireStoreLock(file, { holder: 'command', command: 'svc keys create' });
    expect(lock.replaced).toEqual(gone);
    expect(readLockOwner(file)).toMatchObject({ pid: process.pid, command: 'svc keys create' });
    lock.release();
  });

  it.skipIf(!existsSync('/proc/self/stat'))('takes over a lock whose PID now belongs to another process (a reused PID)', async () => {
    const file = lockFile();
    const mine = processStart(process.pid) as string;
    // This process is running, but it started at another time than the lock's owner did.
    const reused = owner({ start: `${mine.split(':')[0]}:1` });
    writeLock(file, reused);
    const lock = await acquireStoreLock(file, { holder: 'server', command: 'svc serve' });
    expect(lock.replaced).toEqual(reused);
    lock.release();

    // With the right start time, the same PID is the owner.
    writeLock(file, owner({ start: mine }));
    expect((await refusal(acquireStoreLock(file, { holder: 'server', command: 'svc serve' }))).reason).toBe('running');
    rmSync(file);
  });

  it('never takes over a lock written on another host, and says how to clear it', async () => {
    const file = lockFile();
    writeLock(file, owner({ pid: deadPid(), host: 'another-container' }));
    const error = await refusal(acquireStoreLock(file, { holder: 'command', command: 'svc migrate' }));
    expect(error.reason).toBe('other-host');
    expect(error.message).toContain('on host another-container');
    expect(error.message).toContain(`If no process uses this store any more, delete ${file}`);
    rmSync(file);
  });

  it('takes over an unreadable lock file', async () => {
    const file = lockFile();
    writeFileSync(file, 'not json');
    const lock = await acquireStoreLock(file, { holder: 'command', command: 'svc migrate' });
    expect(lock.replaced).toBeUndefined();
    expect(readLockOwner(file)?.pid).toBe(process.pid);
    lock.release();
  });

  it('waits for an svc command to finish, but never for a server', async () => {
    const file = lockFile();
    const command = await acquireStoreLock(file, { holder: 'command', command: 'svc keys create' });
    const waitedFor: LockOwner[] = [];
    const started = performance.now();
    const next = acquireStoreLock(file, { holder: 'server', command: 'svc serve', waitForCommandMs: 5_000, onWait: (o) => waitedFor.push(o) });
    setTimeout(() => command.release(), 300);
    const server = await next;
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(waitedFor.map((o) => o.command)).toEqual(['svc keys create']);

    const quick = performance.now();
    const error = await refusal(acquireStoreLock(file, { holder: 'command', command: 'svc migrate', waitForCommandMs: 5_000 }));
    expect(error.reason).toBe('running');
    expect(performance.now() - quick).toBeLessThan(1_000);
    server.release();

    // A command still running when the wait ends is named, with a hint to retry.
    const long = await acquireStoreLock(file, { holder: 'command', command: 'svc model deploy' });
    const timedOut = await refusal(acquireStoreLock(file, { holder: 'command', command: 'svc migrate', waitForCommandMs: 200 }));
    expect(timedOut.reason).toBe('still-running');
    expect(timedOut.message).toMatch(/still in use by a running `svc model deploy` .*try again when it has finished/);
    long.release();
  });

  it('lets exactly one of several processes racing for one stale lock take it over', async () => {
    const file = lockFile();
    writeLock(file, owner({ pid: deadPid() }));
    // Every process starts, says it is ready, and waits; once all are ready the test lets them go at
    // once (however long each took to start on a busy machine). The winner holds the lock until the
    // others have given up, however slow they are, then the test lets it go.
    const script = `
      import { acquireStoreLock } from ${JSON.stringify(path.join(ROOT, 'src/store/store-lock.ts'))};
      console.log('ready');
      await new Promise((r) => process.stdin.once('data', r));
      try {
        const lock = await acquireStoreLock(${JSON.stringify(file)}, { holder: 'server', command: 'svc serve' });
        console.log(lock.replaced ? 'took over' : 'won');
        await new Promise((r) => process.stdin.once('data', r));
        lock.release();
      } catch (error) {
        console.log(error.reason ?? error.message);
      }
      process.stdin.destroy();`;
    const children = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
      let out = '';
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => ((out += chunk.toString()), out.startsWith('ready') && resolve())));
      const exited = new Promise<string>((resolve) => child.once('exit', () => resolve(out.replace(/^ready\s*/, '').trim())));
      return { child, ready, exited };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.write('go\n');
    let gaveUp = 0;
    await new Promise<void>((resolve) => children.forEach((c) => void c.exited.then(() => ++gaveUp === children.length - 1 && resolve())));
    for (const { child } of children) if (child.exitCode === null) child.stdin.write('release\n');
    const outcomes = await Promise.all(children.map((c) => c.exited));
    expect(outcomes.sort()).toEqual(['running', 'running', 'running', 'took over']);
    // Neither the lock, nor the takeover mutex, nor a temporary file is left behind.
    expect(readdirSync(dir).filter((f) => f.startsWith(path.basename(file)))).toEqual([]);
  }, 30_000);
});
