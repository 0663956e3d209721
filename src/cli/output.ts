// Where an `svc` command writes, and how a failure becomes its exit status. A command prints through
// out() and err(), which write to the output of the run it belongs to: the terminal for a command run
// from a shell, a buffer when the running server runs a command sent over its admin channel (and when a
// test calls the CLI in-process). AsyncLocalStorage keeps concurrent runs apart in one process.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConfigError } from '../config.js';
import { AppError } from '../core/errors.js';
import { StoreInUseError } from '../store/store-lock.js';

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What a command run to completion printed, and its exit status. */
export interface CapturedRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** sysexits' EX_TEMPFAIL: the store is busy; nothing was changed. */
export const STORE_IN_USE_EXIT = 75;

const terminal: Output = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};
const current = new AsyncLocalStorage<Output>();

export function out(text: string): void {
  (current.getStore() ?? terminal).stdout(text);
}

export function err(text: string): void {
  (current.getStore() ?? terminal).stderr(text);
}

export function withOutput<T>(output: Output, run: () => Promise<T>): Promise<T> {
  return current.run(output, run);
}

/** Runs a command with its output kept; a failure is reported as the CLI reports it. */
export async function capture(run: () => Promise<number>): Promise<CapturedRun> {
  const kept = { stdout: '', stderr: '' };
  const output: Output = { stdout: (text) => void (kept.stdout += text), stderr: (text) => void (kept.stderr += text) };
  const exitCode = await withOutput(output, () => run().catch(reportFailure));
  return { ...kept, exitCode };
}

/** Prints a failure on stderr as `svc: ...` and answers the exit status it stands for. */
export function reportFailure(error: unknown): number {
  if (error instanceof ConfigError || error instanceof AppError || error instanceof StoreInUseError) {
    err(`svc: ${error.message}\n`);
    return error instanceof StoreInUseError ? STORE_IN_USE_EXIT : error instanceof AppError && error.status === 2 ? 2 : 1;
  }
  err(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
