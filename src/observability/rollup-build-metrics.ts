// Rollup build counts and durations for GET /metrics, on the services' registry. Labelled by outcome
// only: as the other series, never by workspace or table (unbounded label values).
import { Counter, Histogram, type Registry } from 'prom-client';

/** A build takes from milliseconds (a small partition) to its time limit (half an hour by default). */
const BUILD_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600];

export const ROLLUP_BUILD_OUTCOMES = ['success', 'error'] as const;
export type RollupBuildOutcome = (typeof ROLLUP_BUILD_OUTCOMES)[number];

export class RollupBuildMetrics {
  private readonly started: Counter;
  private readonly finished: Counter<'outcome'>;
  private readonly durations: Histogram<'outcome'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.started = new Counter({ name: 'svc_rollup_builds_started_total', help: 'Rollup builds (a partition, or a table built whole) started', registers });
    this.finished = new Counter({ name: 'svc_rollup_builds_total', help: 'Rollup builds finished, by outcome (success or error)', labelNames: ['outcome'], registers });
    this.durations = new Histogram({ name: 'svc_rollup_build_duration_seconds', help: 'Rollup build durations, by outcome (success or error)', labelNames: ['outcome'], buckets: BUILD_BUCKETS, registers });
    for (const outcome of ROLLUP_BUILD_OUTCOMES) this.finished.inc({ outcome }, 0);
  }

  buildStarted(): void {
    this.started.inc();
  }

  buildFinished(outcome: RollupBuildOutcome, seconds: number): void {
    this.finished.inc({ outcome });
    this.durations.observe({ outcome }, seconds);
  }
}
