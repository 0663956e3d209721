// Interleaved timing: every round runs each variant once per step, in a rotating order, so that a slow
// moment of a shared machine falls on all variants alike. The figure per variant is the median of its
// per-round medians. With `settle`, a sample that ran longer than `settle.afterMs` (a full scan that kept
// every core busy) is followed by a pause of `settle.pauseMs`, so that the next variant is not timed in
// its wake (the engines' workers winding down, caches refilled).
import { percentile } from './timing.js';

export interface Interleaved {
  /** Median of per-round medians, ms. */
  readonly p50: number;
  /** 99th percentile over every sample, ms. */
  readonly p99: number;
}

export async function interleaved<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
  options: { rounds: number; perRound: number; warmUp?: number; settle?: { afterMs: number; pauseMs: number } },
): Promise<Record<K, Interleaved>> {
  const names = Object.keys(variants) as K[];
  for (const name of names) for (let i = 0; i < (options.warmUp ?? 20); i++) await variants[name]();
  const all = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const roundMedians = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < options.rounds; round++) {
    const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
    for (let step = 0; step < options.perRound; step++) {
      for (let j = 0; j < names.length; j++) {
        const name = names[(j + step + round) % names.length]!;
        const start = performance.now();
        await variants[name]();
        const took = performance.now() - start;
        samples[name].push(took);
        if (options.settle && took > options.settle.afterMs) await new Promise((resolve) => setTimeout(resolve, options.settle!.pauseMs));
      }
    }
    for (const name of names) {
      const sorted = samples[name].sort((a, b) => a - b);
      roundMedians[name].push(percentile(sorted, 0.5));
      all[name].push(...sorted);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const medians = roundMedians[name].sort((a, b) => a - b);
      const samples = all[name].sort((a, b) => a - b);
      return [name, { p50: percentile(medians, 0.5), p99: percentile(samples, 0.99) }];
    }),
  ) as Record<K, Interleaved>;
}
