// A poll loop over runs the store hands out by claim (signals, scheduled deliveries). Every instance
// polls; the store decides who runs what: a due row is claimed with FOR UPDATE SKIP LOCKED, its next
// run advanced in the claim's transaction, with a lease on the store's clock, so with several
// instances on one PostgreSQL store each due run is taken once, and one that dies mid-run leaves a claim
// another instance retries once the lease ends. The claimed runs go together: each is bounded by its
// own time limit, well inside the lease, which a one-after-the-other batch of slow runs could outlast.
import type { Clock } from '../clock.js';
import { PollLoop } from './poll-loop.js';

export interface ClaimedRunOptions {
  pollMs: number;
  /** How long a claim holds before another instance may retry the run; longer than a run. */
  leaseMs?: number;
  /** Rows claimed (and run at once) per poll. */
  batch?: number;
  onError?: (error: unknown) => void;
}

export interface ClaimedRuns<T> {
  /** Claims the rows due at `now`, at most `batch`, each for `leaseMs`. */
  claim(now: Date, leaseMs: number, batch: number): Promise<readonly T[]>;
  /** Runs one claimed row; false when it ran but recorded nothing (a claim another instance took over). */
  run(row: T): Promise<boolean>;
}

const DEFAULT_BATCH = 8;

export class ClaimedRunLoop<T> {
  private readonly loop: PollLoop;

  constructor(
    private readonly runs: ClaimedRuns<T>,
    private readonly clock: Clock,
    private readonly options: ClaimedRunOptions,
    private readonly defaultLeaseMs: number,
  ) {
    this.loop = new PollLoop(() => this.tick(), options);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the runs in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: how many rows were claimed, and how many of their runs recorded something. */
  async tick(): Promise<{ claimed: number; recorded: number }> {
    const claimed = await this.runs.claim(this.clock.now(), this.options.leaseMs ?? this.defaultLeaseMs, this.options.batch ?? DEFAULT_BATCH);
    const recorded = await Promise.all(
      claimed.map(async (row) => {
        try {
          return (await this.runs.run(row)) ? 1 : 0;
        } catch (error) {
          // The claim stays until its lease runs out: then the run is retried.
          this.options.onError?.(error);
          return 0;
        }
      }),
    );
    return { claimed: claimed.length, recorded: recorded.reduce<number>((sum, one) => sum + one, 0) };
  }
}
