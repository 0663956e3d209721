// Runs due delivery schedules. Every instance runs this loop; the store decides who runs what (as for
// signals): a due schedule is claimed with FOR UPDATE SKIP LOCKED, its next run advanced in the claim's
// transaction, with a lease on the store's clock and a token. A run is recorded only by the holder of
// the current claim (schedules-repo.ts release), so with several instances on one PostgreSQL store a run
// is queued once; one that dies mid-run leaves a claim that another instance retries once the lease ends.
import type { Clock } from '../clock.js';
import { PollLoop } from '../jobs/poll-loop.js';
import type { DeliveryScheduleService } from './schedule-service.js';
import { nextRunAfter } from './schedule-timing.js';
import type { SchedulesRepo } from './schedules-repo.js';

export interface ScheduleRunnerOptions {
  pollMs: number;
  /** How long a claim holds before another instance may retry the run; longer than a run (a mosaic's scenes). */
  leaseMs?: number;
  /** Schedules claimed (and run at once) per poll. */
  batch?: number;
  onError?: (error: unknown) => void;
}

export class DeliveryScheduler {
  private readonly loop: PollLoop;

  constructor(
    private readonly repo: SchedulesRepo,
    private readonly service: DeliveryScheduleService,
    private readonly clock: Clock,
    private readonly options: ScheduleRunnerOptions,
  ) {
    this.loop = new PollLoop(() => this.tick(), options);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: claims the due schedules and runs them; returns how many runs it recorded. */
  async tick(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repo.claimDue(now, this.options.leaseMs ?? 300_000, this.options.batch ?? 8, (row) => nextRunAfter(row, now));
    const recorded = await Promise.all(
      claimed.map(async (schedule) => {
        try {
          return (await this.service.runClaimed(schedule)) ? 1 : 0;
        } catch (error) {
          // The claim stays until its lease runs out: then the run is retried.
          this.options.onError?.(error);
          return 0;
        }
      }),
    );
    return recorded.reduce<number>((a, b) => a + b, 0);
  }
}
