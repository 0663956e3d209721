import type { Clock } from '../clock.js';
import { windowBounds, type SharedState } from './shared-state.js';

/** Shared state for a single instance: plain maps, with expired windows swept as they are passed. */
export function memorySharedState(clock: Clock): SharedState {
  const counters = new Map<string, { index: number; count: number; resetAtMs: number }>();
  const generations = new Map<string, number>();
  let lastSweep = 0;

  function sweep(nowMs: number) {
    if (nowMs - lastSweep < 60_000) return;
    lastSweep = nowMs;
    for (const [bucket, entry] of counters) if (entry.resetAtMs <= nowMs) counters.delete(bucket);
  }

  function current(bucket: string, windowMs: number) {
    const nowMs = clock.now().getTime();
    sweep(nowMs);
    const { index, resetAtMs } = windowBounds(nowMs, windowMs);
    const key = `${bucket}|${windowMs}`;
    let entry = counters.get(key);
    if (!entry || entry.index !== index) {
      entry = { index, count: 0, resetAtMs };
      counters.set(key, entry);
    }
    return entry;
  }

  const generationOf = (name: string) => generations.get(name) ?? 0;

  return {
    kind: 'memory',
    async hit(bucket, windowMs, generationNames = []) {
      const entry = current(bucket, windowMs);
      entry.count += 1;
      return { count: entry.count, resetAtMs: entry.resetAtMs, generations: generationNames.map(generationOf) };
    },
    async peek(bucket, windowMs, generationNames = []) {
      const entry = current(bucket, windowMs);
      return { count: entry.count, resetAtMs: entry.resetAtMs, generations: generationNames.map(generationOf) };
    },
    async generation(name) {
      return generationOf(name);
    },
    async generations(names) {
      return names.map(generationOf);
    },
    async bump(name) {
      generations.set(name, (generations.get(name) ?? 0) + 1);
    },
    async ping() {
      return true;
    },
    async close() {},
  };
}
