// Runs due rollup builds. Every instance runs this loop; the store decides who builds what (as for
// signals and scheduled deliveries): a due row is claimed with FOR UPDATE SKIP LOCKED, with a lease on
// the store's clock and a token, and only the holder of the current claim records the build, so with
// several instances on one PostgreSQL store a row is never built by two at once. An instance that dies
// mid-build leaves a claim that another retries once the lease ends.
import type { Clock } from '../clock.js';
import { ClaimedRunLoop, type ClaimedRunOptions } from '../jobs/claimed-run-loop.js';
import type { ClaimedRollupBuild, RollupBuildsRepo } from '../store/rollup-builds-repo.js';
import type { RollupBuildService } from './rollup-builds.js';

/** A claim outlasts the build's own time limit by this much (the store writes around the build). */
const LEASE_MARGIN_MS = 5 * 60_000;
/** Builds run at once per instance: each holds a source connection and writes the workspace's file. */
const BUILD_BATCH = 2;

export class RollupBuildScheduler {
  private readonly loop: ClaimedRunLoop<ClaimedRollupBuild>;

  constructor(repo: RollupBuildsRepo, service: RollupBuildService, clock: Clock, buildTimeoutMs: number, options: ClaimedRunOptions) {
    const runs = {
      claim: (now: Date, leaseMs: number, batch: number) => repo.claimDue(now, leaseMs, batch),
      run: (row: ClaimedRollupBuild) => service.runClaimed(row),
    };
    this.loop = new ClaimedRunLoop(runs, clock, { batch: BUILD_BATCH, ...options }, buildTimeoutMs + LEASE_MARGIN_MS);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: claims the due builds and runs them; returns how many it recorded. */
  async tick(): Promise<number> {
    return (await this.loop.tick()).recorded;
  }
}
