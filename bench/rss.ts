// Resident memory while some work runs: sampled every 20 ms, the peak's growth over the RSS at the start.
const MiB = 1024 * 1024;

export async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growthMiB: number; ms: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const began = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthMiB: (peak - start) / MiB, ms: performance.now() - began };
  } finally {
    clearInterval(timer);
  }
}
