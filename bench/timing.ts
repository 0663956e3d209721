// Latency sampling shared by the benchmarks: warm up, then time each run.
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** p50 and p99 in milliseconds of `runs` sequential calls, after 30 warm-up calls. */
export async function latency(run: () => Promise<unknown>, runs: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 30; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}
