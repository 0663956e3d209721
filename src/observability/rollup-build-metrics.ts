// Rollup build counts and durations, and rollup answers (hits and misses by reason code), for GET
// /metrics, on the services' registry. Labelled by outcome and reason only: as the other series, never
// by workspace or table (unbounded label values); the per-workspace counts are GET /api/rollups'.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RollupAnswerOutcome } from '../store/schema.js';

/** A build takes from milliseconds (a small partition) to its time limit (half an hour by default). */
const BUILD_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600];

export const ROLLUP_BUILD_OUTCOMES = ['success', 'error'] as const;
export type RollupBuildOutcome = (typeof ROLLUP_BUILD_OUTCOMES)[number];

export class RollupBuildMetrics {
  private readonly started: Counter;
  private readonly finished: Counter<'outcome'>;
  private readonly durations: Histogram<'outcome'>;
  private readonly answers: Counter<'outcome' | 'reason'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.started = new Counter({ name: 'svc_rollup_builds_started_total', help: 'Rollup builds (a partition, or a table built whole) started', registers });
    this.finished = new Counter({ name: 'svc_rollup_builds_total', help: 'Rollup builds finished, by outcome (success or error)', labelNames: ['outcome'], registers });
    this.durations = new Histogram({ name: 'svc_rollup_build_duration_seconds', help: 'Rollup build durations, by outcome (success or error)', labelNames: ['outcome'], buckets: BUILD_BUCKETS, registers });
    this.answers = new Counter({
      name: 'svc_rollup_answers_total',
      help: 'Governed queries of nodes with rollups: answered by a rollup (outcome hit), or from the source with the reason code of each rollup not used (outcome miss)',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    for (const outcome of ROLLUP_BUILD_OUTCOMES) this.finished.inc({ outcome }, 0);
    this.answers.inc({ outcome: 'hit', reason: '' }, 0);
  }

  buildStarted(): void {
    this.started.inc();
  }

  buildFinished(outcome: RollupBuildOutcome, seconds: number): void {
    this.finished.inc({ outcome });
    this.durations.observe({ outcome }, seconds);
  }

  rollupAnswered(outcome: RollupAnswerOutcome, reason: string): void {
    this.answers.inc({ outcome, reason });
  }
}
