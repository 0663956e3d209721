// State that must agree across every instance of the service: fixed-window counters (rate limits,
// sign-in throttling) and generation numbers that tell caches when to forget. In-process by default;
// Redis when REDIS_URL is set, so that several instances share one budget and one view.

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
  /** The current window's count without adding to it. */
  peek(bucket: string, windowMs: number): Promise<WindowCount>;
  /** A number that changes whenever `bump(name)` is called, on any instance. */
  generation(name: string): Promise<number>;
  bump(name: string): Promise<void>;
  close(): Promise<void>;
}

export function windowBounds(nowMs: number, windowMs: number): { index: number; resetAtMs: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAtMs: (index + 1) * windowMs };
}
