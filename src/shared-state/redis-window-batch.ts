// The requests' first round trips to Redis, gathered: every window count and generation read asked for
// while the event loop handles one batch of arrived requests is sent as ONE script call when that batch
// is done (setImmediate), instead of one call each. Under load this turns dozens of script runs, each
// with its own TIME, GETs and reply, into one; with a single request it costs one loop turn.
//
// What a request is told is what it would have been told alone:
// - counts stay exact and distinct: n hits on one window are one INCRBY n, and the hits are handed the
//   n values it covers in their order, as n INCRs in a row would have given them;
// - a generation read is sent after the request that asked for it arrived (a call already sent is never
//   joined), so a change announced before the request arrived is seen, as with a read of its own.

/** One caller's share of a batch: a window to count (or peek) and generations to read. */
export interface WindowAsk {
  /** The counter's key prefix (the window index is appended in Redis); absent for generations only. */
  readonly counter?: string;
  readonly windowMs?: number;
  readonly add?: boolean;
  /** Full generation keys, read in this order. */
  readonly generationKeys: readonly string[];
}

export interface WindowAnswer {
  readonly count: number;
  readonly resetAtMs: number;
  readonly generations: number[];
}

/**
 * Runs one batch in Redis: `counters` (key, window, increment) then the generation keys, deduplicated.
 * Answers, per counter, its count after the increments and its window's end, then each generation.
 */
export type RunBatch = (counters: readonly CounterAsk[], generationKeys: readonly string[]) => Promise<number[]>;

export interface CounterAsk {
  readonly key: string;
  readonly windowMs: number;
  /** Hits in the batch (0: only peeks). */
  increment: number;
}

interface Waiting {
  readonly ask: WindowAsk;
  resolve(answer: WindowAnswer): void;
  reject(error: unknown): void;
}

export class WindowBatcher {
  private waiting: Waiting[] = [];

  constructor(private readonly runBatch: RunBatch) {}

  ask(ask: WindowAsk): Promise<WindowAnswer> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ ask, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    const counterIndex = new Map<string, number>();
    const counters: CounterAsk[] = [];
    const generationIndex = new Map<string, number>();
    const generationKeys: string[] = [];
    for (const { ask } of batch) {
      if (ask.counter !== undefined) {
        const id = `${ask.counter}\u0000${ask.windowMs}`;
        const at = counterIndex.get(id);
        const increment = ask.add ? 1 : 0;
        if (at === undefined) {
          counterIndex.set(id, counters.length);
          counters.push({ key: ask.counter, windowMs: ask.windowMs!, increment });
        } else {
          counters[at]!.increment += increment;
        }
      }
      for (const key of ask.generationKeys) {
        if (!generationIndex.has(key)) {
          generationIndex.set(key, generationKeys.length);
          generationKeys.push(key);
        }
      }
    }
    let reply: number[];
    try {
      reply = await this.runBatch(counters, generationKeys);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    // The hits of one window take the values its increment covered, in the order they were asked.
    const handedOut = counters.map(() => 0);
    const generationsAt = counters.length * 2;
    for (const { ask, resolve } of batch) {
      const generations = ask.generationKeys.map((key) => reply[generationsAt + generationIndex.get(key)!]!);
      if (ask.counter === undefined) {
        resolve({ count: 0, resetAtMs: 0, generations });
        continue;
      }
      const at = counterIndex.get(`${ask.counter}\u0000${ask.windowMs}`)!;
      const total = reply[at * 2]!;
      const first = total - counters[at]!.increment;
      const count = ask.add ? first + ++handedOut[at]! : total;
      resolve({ count, resetAtMs: reply[at * 2 + 1]!, generations });
    }
  }
}
