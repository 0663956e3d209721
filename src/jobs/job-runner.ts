// Jobs that must run once across every instance on the store (retention pruning), on a schedule. Each
// job is one row of scheduled_jobs. Every instance runs this loop; the store decides who runs what: a
// due job is claimed with FOR UPDATE SKIP LOCKED and a lease on the store's clock (as signal runs are),
// so with several instances on one PostgreSQL store each run happens once. The holder schedules the next
// run when it is done; one that dies mid-run leaves a job another instance takes once the lease ends.
// A plain timer rather than a job library for the reason the signal scheduler gives: nothing else runs
// on both embedded PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Store } from '../store/db.js';
import { leaseEnd, storeNow } from '../store/store-clock.js';
import { PollLoop, type PollLoopOptions } from './poll-loop.js';

export interface Job {
  readonly name: string;
  /** From the end of one run to the next. */
  readonly everyMs: number;
  /** How long a claim holds: longer than a run can take. */
  readonly leaseMs: number;
  /**
   * One run; `more` asks for another soon (the job stopped at its bound, or because `stopping` was
   * aborted, with work left). A job checks `stopping` between its steps, so that shutdown is quick.
   */
  run(stopping: AbortSignal): Promise<{ more: boolean }>;
}

/** How soon a job that stopped at its bound with work left runs again. */
export const AGAIN_SOON_MS = 60_000;

/** pollMs: how often the loop looks for due jobs. */
export type JobRunnerOptions = PollLoopOptions;

export class JobRunner {
  private readonly loop: PollLoop;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly jobs: readonly Job[],
    private readonly options: JobRunnerOptions,
  ) {
    this.loop = new PollLoop((stopping) => this.tick(stopping), options);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling, asks the run in progress to stop after its current step, and waits for it. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One poll: runs each due job this instance could claim; returns their names. */
  async tick(stopping: AbortSignal = new AbortController().signal): Promise<string[]> {
    const ran: string[] = [];
    for (const job of this.jobs) {
      const claim = await this.claim(job);
      if (!claim) continue;
      ran.push(job.name);
      let more = false;
      let error: unknown;
      try {
        ({ more } = await job.run(stopping));
      } catch (caught) {
        error = caught;
        this.options.onError?.(caught);
      }
      await this.finish(job, claim, more, error);
    }
    return ran;
  }

  /** Claims the job if it is due and nobody holds it; returns the claim's token, or undefined. */
  private async claim(job: Job): Promise<string | undefined> {
    const now = this.clock.now();
    const db = this.store.db;
    // The first instance to meet a job creates its row, due at once.
    await db.insertInto('scheduled_jobs').values({ name: job.name, next_run_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
    return db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('scheduled_jobs')
        .select('name')
        .where('name', '=', job.name)
        .where('next_run_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', storeNow)]))
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!due) return undefined;
      const token = randomUUID();
      await trx.updateTable('scheduled_jobs').set({ claimed_until: leaseEnd(job.leaseMs), claimed_by: token, last_started_at: now }).where('name', '=', job.name).execute();
      return token;
    });
  }

  /** Records the run and schedules the next, if the claim is still this instance's. */
  private async finish(job: Job, token: string, more: boolean, error: unknown): Promise<void> {
    const now = this.clock.now();
    await this.store.db
      .updateTable('scheduled_jobs')
      .set({
        claimed_until: null,
        claimed_by: null,
        last_finished_at: now,
        last_error: error === undefined ? null : error instanceof Error ? error.message : String(error),
        next_run_at: new Date(now.getTime() + (more ? AGAIN_SOON_MS : job.everyMs)),
      })
      .where('name', '=', job.name)
      .where('claimed_by', '=', token)
      .execute();
  }
}
