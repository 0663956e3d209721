// Measuring how the service answers while a dependency is down: timing, the 503 contract, recovery,
// and concurrent load whose every status is kept.
import { expect } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}

export async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** The 503 contract: status, Retry-After, the error shape, and an answer within `withinMs`. */
export function expectUnavailable({ result, ms }: { result: Answer; ms: number }, withinMs: number, what = ''): void {
  expect(result.statusCode, `${what} status`).toBe(503);
  expect(result.headers['retry-after'], `${what} Retry-After`).toBe('5');
  expect(result.json(), `${what} body`).toMatchObject({ error: expect.any(String), code: 'service_unavailable' });
  expect(ms, `${what} latency (ms)`).toBeLessThan(withinMs);
}

/** Polls `check` until it holds; returns how long that took, or fails after `withinMs`. */
export async function eventually(check: () => Promise<boolean>, withinMs: number, everyMs = 25): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > withinMs) throw new Error(`still not true after ${withinMs} ms`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `workers` loops each sending `send(i)` back to back until stopped; every status is kept. */
export function startLoad(workers: number, send: (i: number) => Promise<number>): { stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; running; i += workers) statuses.push(await send(i));
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

/**
 * Picks `free` and `budgeted` senders in turn for load, but the budgeted ones only `limit` times in all,
 * after which their turns go to the free ones. Surface C's budget is its workspace's (1000 a minute):
 * load on a fast machine would spend it and meet 429s that say nothing about the outage under test.
 */
export function mixWithinBudget<T>(free: Array<() => Promise<T>>, budgeted: Array<() => Promise<T>>, limit: number): (i: number) => Promise<T> {
  const all = [...free, ...budgeted];
  let spent = 0;
  return (i) => {
    const pick = all[i % all.length]!;
    if (budgeted.includes(pick) && spent++ >= limit) return free[i % free.length]!();
    return pick();
  };
}

export function countBy(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * A client address of the test's own: budgets counted per address live in the shared Redis, which
 * other test files use at the same time from 127.0.0.1.
 */
export function ownClientAddress(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

/** A TCP proxy in front of the server `url` names, and the same URL pointed at the proxy. */
export async function behindProxy(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || defaultPort) });
  target.port = String(proxy.port);
  return { proxy, url: target.toString() };
}
