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
   * Counts one event in the clock-aligned window of `windowMs` that contains now. Atomic. The
   * generations named are read in the same round trip, in order (see key-admission.ts).
   */
  hit(bucket: string, windowMs: number, generationNames?: readonly string[]): Promise<WindowCount & { generations: number[] }>;
  /** The current window's count without adding to it; `generationNames` as for `hit`. */
  peek(bucket: string, windowMs: number, generationNames?: readonly string[]): Promise<WindowCount & { generations: number[] }>;
  /**
   * A number that changes whenever `bump(name)` is called, on any instance, and never returns to a value
   * it had. Never fails: while the shared state is unreachable, a value that matches no cache entry.
   */
  generation(name: string): Promise<number>;
  /** Several generations, in order, in one round trip; as `generation`, never fails. */
  generations(names: readonly string[]): Promise<number[]>;
  bump(name: string): Promise<void>;
  /** True when the shared state answers (always, in process). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function windowBounds(nowMs: number, windowMs: number): { index: number; resetAtMs: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAtMs: (index + 1) * windowMs };
}

/**
 * Generations read together in a request's first round trip (with its rate limit, or its session),
 * by name. A cache asked within the same request trusts these instead of reading its generation again:
 * they were read after the request arrived, so a change announced before then is seen, as it would be
 * by a read of its own.
 */
export type GenerationSnapshot = ReadonlyMap<string, number>;

export function snapshotOf(names: readonly string[], values: readonly number[]): GenerationSnapshot {
  return new Map(names.map((name, i) => [name, values[i]!]));
}

/** The generation `name` as the request's snapshot has it, else read now. */
export function generationIn(shared: SharedState, name: string, snapshot: GenerationSnapshot | undefined): Promise<number> | number {
  return snapshot?.get(name) ?? shared.generation(name);
}
