// A real `svc serve` process on a given store, for tests that kill it (`kill -9`) and start another:
// its output is kept for failure messages, and `exited` resolves with its exit code.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The machine as this process sees it, which a process it starts must see too: its time zone and, when a
 * run is moved in time with libfaketime (scripts/test-at-instants.ts), its clock.
 */
export function machineEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => /^(TZ|LD_PRELOAD|FAKETIME.*)$/.test(entry[0]) && entry[1] !== undefined));
}

/**
 * A `svc serve` of its own. With `clockFrom`, its clock starts at that instant (the test clock's) and runs
 * on at the machine's pace (date-from.mjs), so that it agrees with the test whatever the machine's date.
 */
export function spawnServer(env: Record<string, string>, clockFrom?: Date) {
  const clock = clockFrom ? { NODE_OPTIONS: `--import=${pathToFileURL(path.join(ROOT, 'test/helpers/date-from.mjs')).href}`, TEST_DATE_FROM: clockFrom.toISOString() } : {};
  const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...machineEnv(), ...clock, SVC_DEMO: 'off', PORT: '0', SVC_SQL_PORT: '0', TLS: 'off', LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
