// State that must agree across every instance of the service: fixed-window counters (rate limits,
// sign-in throttling) and generation numbers that tell caches when to forget. In-process by default;
// Redis when REDIS_URL is set, so that several instances share one budget and one view.
//
// When Redis cannot be reached (see docs/operations.md, "When a dependency is down"):
// - counting fails with a DependencyUnavailableError (503): a shared budget is never guessed;
// - reading a generation does not fail: it returns a value no cache entry carries, so every cache
//   reads through to the store, which is the truth, for as long as the outage lasts;
// - bumping fails (503) after the caller's write, which stands: the caller must answer 503, so that the
//   change is retried; meanwhile the instance owes an epoch bump, paid as soon as it reaches Redis
//   again, which makes every instance drop every cache entry read before.

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  readonly count: number;
  /** When the current window ends, in epoch milliseconds. */
  readonly resetAtMs: number;
}

export interface SharedState {
  readonly kind: 'memory' | 'redis';
  /**
   * Counts one event in the clock-aligned window of `windowMs` that contains now. Atomic. When
   * `generationName` is given, that generation is read in the same round trip (see key-resolver.ts).
   */
  hit(bucket: string, windowMs: number, generationName?: string): Promise<WindowCount & { generation: number }>;
  /** The current window's count without adding to it; `generationName` as for `hit`. */
  peek(bucket: string, windowMs: number, generationName?: string): Promise<WindowCount & { generation: number }>;
  /**
   * A number that changes whenever `bump(name)` is called, on any instance, and never returns to a value
   * it had. Never fails: while the shared state is unreachable, a value that matches no cache entry.
   */
  generation(name: string): Promise<number>;
  bump(name: string): Promise<void>;
  /** True when the shared state answers (always, in process). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function windowBounds(nowMs: number, windowMs: number): { index: number; resetAtMs: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAtMs: (index + 1) * windowMs };
}
