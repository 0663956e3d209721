// Runs due delivery schedules. Every instance runs this loop; the store decides who runs what (as for
// signals): a due schedule is claimed with FOR UPDATE SKIP LOCKED, its next run advanced in the claim's
// transaction, with a lease on the store's clock and a token. A run is recorded only by the holder of
// the current claim (schedules-repo.ts release), so with several instances on one PostgreSQL store a run
// is queued once; one that dies mid-run leaves a claim that another instance retries once the lease ends.
import type { Clock } from '../clock.js';
import { ClaimedRunLoop, type ClaimedRunOptions } from '../jobs/claimed-run-loop.js';
import type { DeliveryScheduleService } from './schedule-service.js';
import { nextRunAfter } from './schedule-timing.js';
import type { SchedulesRepo } from './schedules-repo.js';

/** `leaseMs` defaults to five minutes: longer than a run (a mosaic's scenes). */
export type ScheduleRunnerOptions = ClaimedRunOptions;

type ClaimedSchedule = Awaited<ReturnType<SchedulesRepo['claimDue']>>[number];

export class DeliveryScheduler {
  private readonly loop: ClaimedRunLoop<ClaimedSchedule>;

  constructor(repo: SchedulesRepo, service: DeliveryScheduleService, clock: Clock, options: ScheduleRunnerOptions) {
    const runs = {
      claim: (now: Date, leaseMs: number, batch: number) => repo.claimDue(now, leaseMs, batch, (row) => nextRunAfter(row, now)),
      run: async (schedule: ClaimedSchedule) => (await service.runClaimed(schedule)) !== null,
    };
    this.loop = new ClaimedRunLoop(runs, clock, options, 300_000);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: claims the due schedules and runs them; returns how many runs it recorded. */
  async tick(): Promise<number> {
    return (await this.loop.tick()).recorded;
  }
}
