// A throwaway redis-server of the test's own, on a spare port, without persistence: one the test may
// hang (SIGSTOP), resume, kill and restart empty, as the shared server must never be.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closedPort } from './network.js';

export interface OwnRedis {
  readonly url: string;
  /** The process stops answering, its sockets stay open: a hung server. */
  pause(): void;
  resume(): void;
  /** Killed and started again on the same port, with none of its data. */
  restartEmpty(): Promise<void>;
  close(): Promise<void>;
}


/**
 * This process's environment without libfaketime: like the shared server, this one keeps the machine's
 * real clock when a run moves the test processes' (scripts/test-at-instants.ts); redis-server does not
 * start under libfaketime at all.
 */
function realClockEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'LD_PRELOAD' && !name.startsWith('FAKETIME')));
}

async function answering(port: number, withinMs: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => (socket.destroy(), resolve(String(data).startsWith('+PONG'))));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (performance.now() - started > withinMs) throw new Error(`redis-server on port ${port} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await closedPort();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-redis-'));
  let child: ChildProcess;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore', env: realClockEnv() });
    // Should the test process end without close() (a worker killed on a time-out), the server goes too.
    const server = child;
    process.once('exit', () => server.kill('SIGKILL'));
    await answering(port, 5_000);
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async restartEmpty() {
      await stop();
      await start();
    },
    async close() {
      child.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
