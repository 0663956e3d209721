// Counts, per workspace and rollup, the governed queries a rollup answered (hits) and those of its node
// answered from the source instead (misses, by the reason code metadata.rollup gives).
//
// Why a metadata table written in batches, and not the shared state: the counts must add up across
// instances, and the shared state is Redis only when REDIS_URL is set (in memory otherwise, one count per
// instance); its counters are also fixed windows that expire, not totals. The metadata store is shared
// by every instance in every deployment, and a batch every few seconds (as for keys' last-used times,
// identity/last-used.ts) costs one upsert per counted rollup and reason, never a write per query. A batch
// not yet written when an instance dies is lost: the counts are a guide to which rollups earn their
// builds, not a ledger.
import type { RollupReport } from '../querying/rollup-route.js';
import type { RollupAnswerCount, RollupAnswersRepo } from '../store/rollup-answers-repo.js';
import type { RollupAnswerOutcome } from '../store/schema.js';

export interface RollupAnswerTally {
  readonly hits: number;
  readonly misses: number;
  /** Misses by reason code. */
  readonly missReasons: Readonly<Record<string, number>>;
}

/** Where each counted answer also goes: the Prometheus counter, without workspace labels. */
export interface RollupAnswerObserver {
  rollupAnswered(outcome: RollupAnswerOutcome, reason: string): void;
}

const keyOf = (c: Omit<RollupAnswerCount, 'answers'>) => JSON.stringify([c.workspaceId, c.node, c.rollup, c.outcome, c.reason]);

export class RollupAnswerCounts {
  private pending = new Map<string, RollupAnswerCount>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: RollupAnswersRepo,
    private readonly observer: RollupAnswerObserver,
    private readonly intervalMs = 10_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Counts one governed answer of a node with rollups: a hit of the rollup used, else a miss of each candidate. */
  answered(workspaceId: string, node: string, report: RollupReport): void {
    if (report.used) return this.count({ workspaceId, node, rollup: report.used.name, outcome: 'hit', reason: '' });
    for (const candidate of report.candidates) this.count({ workspaceId, node, rollup: candidate.name, outcome: 'miss', reason: candidate.reasonCode });
  }

  private count(key: Omit<RollupAnswerCount, 'answers'>): void {
    this.observer.rollupAnswered(key.outcome, key.reason);
    const id = keyOf(key);
    this.pending.set(id, { ...key, answers: (this.pending.get(id)?.answers ?? 0) + 1 });
  }

  /** The workspace's counts by node and rollup (`node\u0000rollup`), this instance's unwritten ones included. */
  async tallies(workspaceId: string): Promise<Map<string, RollupAnswerTally>> {
    await this.flush();
    const tallies = new Map<string, { hits: number; misses: number; missReasons: Record<string, number> }>();
    for (const row of await this.repo.listWorkspace(workspaceId)) {
      const id = tallyKey(row.node, row.rollup);
      const tally = tallies.get(id) ?? { hits: 0, misses: 0, missReasons: {} };
      if (row.outcome === 'hit') tally.hits += row.answers;
      else {
        tally.misses += row.answers;
        tally.missReasons[row.reason] = (tally.missReasons[row.reason] ?? 0) + row.answers;
      }
      tallies.set(id, tally);
    }
    return tallies;
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.repo.add([...batch.values()]);
      } catch (error) {
        // Put the batch back, adding to what was counted meanwhile; the next flush retries.
        for (const [id, count] of batch) this.pending.set(id, { ...count, answers: count.answers + (this.pending.get(id)?.answers ?? 0) });
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

export function tallyKey(node: string, rollup: string): string {
  return `${node}\u0000${rollup}`;
}
