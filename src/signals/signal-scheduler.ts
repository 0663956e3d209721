// Evaluates due signals. Every instance runs this loop; the store decides who evaluates what: a due
// signal is claimed with FOR UPDATE SKIP LOCKED and its next_run_at advanced in the claim's
// transaction (signals-repo.ts), so with several instances on one PostgreSQL store each due run is
// evaluated once. A lease (claimed_until) covers a crash between the claim and the recorded evaluation:
// when it runs out, another instance retries the run. croner computes cron runs; the loop itself is a
// plain timer because no job library runs on both embedded PGlite and PostgreSQL.
import type { Clock } from '../clock.js';
import { ClaimedRunLoop, type ClaimedRunOptions } from '../jobs/claimed-run-loop.js';
import { nextRunAfter } from './signal-schedule.js';
import type { SignalService } from './signal-service.js';
import type { SignalsRepo } from './signals-repo.js';

/** `leaseMs` defaults to two minutes: longer than an evaluation (the warehouse time limit is 30 s). */
export type SchedulerOptions = ClaimedRunOptions;

type ClaimedSignal = Awaited<ReturnType<SignalsRepo['claimDue']>>[number];

export class SignalScheduler {
  private readonly loop: ClaimedRunLoop<ClaimedSignal>;

  constructor(repo: SignalsRepo, service: SignalService, clock: Clock, options: SchedulerOptions) {
    const runs = {
      // Runs missed while no instance ran are evaluated once: the next run counts from now.
      claim: (now: Date, leaseMs: number, batch: number) => repo.claimDue(now, leaseMs, batch, (row) => nextRunAfter(row, now)),
      run: async (signal: ClaimedSignal) => {
        await service.evaluate(signal, { send: true, releaseClaim: true });
        return true;
      },
    };
    this.loop = new ClaimedRunLoop(runs, clock, options, 120_000);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the evaluations in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: claims the due signals and evaluates them; returns how many it claimed. */
  async tick(): Promise<number> {
    return (await this.loop.tick()).claimed;
  }
}
