// Evaluates due signals. Every instance runs this loop; the store decides who evaluates what: a due
// signal is claimed with FOR UPDATE SKIP LOCKED and its next_run_at advanced in the claim's
// transaction (signals-repo.ts), so with several instances on one PostgreSQL store each due run is
// evaluated once. A lease (claimed_until) covers a crash between the claim and the recorded evaluation:
// when it runs out, another instance retries the run. croner computes cron runs; the loop itself is a
// plain timer because no job library runs on both embedded PGlite and PostgreSQL.
import type { Clock } from '../clock.js';
import { PollLoop } from '../jobs/poll-loop.js';
import { nextRunAfter } from './signal-schedule.js';
import type { SignalService } from './signal-service.js';
import type { SignalsRepo } from './signals-repo.js';

export interface SchedulerOptions {
  pollMs: number;
  /** How long a claim holds before another instance may retry the run; longer than an evaluation. */
  leaseMs?: number;
  /** Signals claimed (and evaluated at once) per poll. */
  batch?: number;
  onError?: (error: unknown) => void;
}

export class SignalScheduler {
  private readonly loop: PollLoop;

  constructor(
    private readonly repo: SignalsRepo,
    private readonly service: SignalService,
    private readonly clock: Clock,
    private readonly options: SchedulerOptions,
  ) {
    this.loop = new PollLoop(() => this.tick(), options);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the evaluations in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: claims the due signals and evaluates them; returns how many it evaluated. */
  async tick(): Promise<number> {
    const now = this.clock.now();
    // Runs missed while no instance ran are evaluated once: the next run counts from now.
    const claimed = await this.repo.claimDue(now, this.options.leaseMs ?? 120_000, this.options.batch ?? 8, (row) => nextRunAfter(row, now));
    // The claimed runs are evaluated together: each is bounded by the warehouse time limit (30 s), well
    // inside the lease, which a one-after-the-other batch of slow queries could outlast.
    await Promise.all(
      claimed.map(async (signal) => {
        try {
          await this.service.evaluate(signal, { send: true, releaseClaim: true });
        } catch (error) {
          // The claim stays until its lease runs out: then the run is retried.
          this.options.onError?.(error);
        }
      }),
    );
    return claimed.length;
  }
}
