// What a governed plan covers: the period the question named, the default window when it named none,
// or, for snapshot metrics (a state "as of now": open tickets, customers on the books), every row.
//
// A snapshot metric asked for another period is refused rather than answered as of now: "open tickets
// last month" asks for last month's state, which the model cannot give, and the current figure under
// that question would be a governed number for a question nobody asked. "today" is the one period that
// means now.
import type { GovernedPlan, NoMatch, ResolvedPeriod } from '../core/answer/plan.js';
import { periodWords, type Coverage } from '../core/answer/prose.js';
import type { Reveal } from '../core/semantic/model.js';
import { periodAssumed, type Assumption } from './assumptions.js';

const PERIODS_MEANING_NOW = new Set(['today']);

export type CoverageDecision =
  | { readonly kind: 'covered'; readonly coverage: Coverage; readonly assumptions: readonly Assumption[] }
  | { readonly kind: 'refused'; readonly reason: string; readonly closest: NoMatch['closest'] };

/**
 * `asked` is the period the question named, if any; `fallback` the default window used when it named
 * none and did not bound time itself (`timeBounded`: "right now", a value naming a year), in which
 * case every row counts, as of now. Only the plan's metrics decide: a plan mixing snapshot and period-bound metrics cannot be one
 * query over one set of rows, so it is refused with both names.
 */
export function decideCoverage(plan: GovernedPlan, reveal: Reveal, asked: ResolvedPeriod | undefined, fallback: ResolvedPeriod, timeBounded = false): CoverageDecision {
  const metrics = plan.metrics.map((name) => reveal.metrics.get(name)!);
  const snapshot = metrics.find((metric) => metric.snapshot);
  const bound = metrics.find((metric) => !metric.snapshot);
  const closest = (list: typeof metrics) => list.map((metric) => ({ reveal: reveal.name, metric: metric.name, label: metric.label }));
  if (!snapshot) {
    if (asked) return { kind: 'covered', coverage: { kind: 'period', period: asked }, assumptions: [] };
    if (timeBounded) return { kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] };
    return { kind: 'covered', coverage: { kind: 'period', period: fallback }, assumptions: [periodAssumed(fallback)] };
  }
  if (bound) {
    return {
      kind: 'refused',
      reason: `${snapshot.label} is counted as of now and ${bound.label} over a period, so they cannot be answered together; please ask about one at a time.`,
      closest: closest([snapshot, bound]),
    };
  }
  if (asked && !PERIODS_MEANING_NOW.has(asked.token)) {
    return {
      kind: 'refused',
      reason: `${snapshot.label} is counted as of now, not over a period, so it cannot be given for ${periodWords(asked)}; ask without the period for the current figure.`,
      closest: closest([snapshot]),
    };
  }
  return { kind: 'covered', coverage: { kind: 'as_of_now' }, assumptions: [] };
}
