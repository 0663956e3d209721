// What a governed plan covers, by the time scope of its metrics (docs/cml.md, "Time scope"):
// - a named period, for flows and stocks alike (for a stock it keeps the rows whose time falls in it,
//   which the answer says);
// - without one, a flow (what happened: revenue, orders) gets the default window, a stock (what exists:
//   customers) every row, all time, and a snapshot (a state "as of now": open tickets) every row; each
//   answer states which.
//
// A snapshot asked for another period is refused rather than answered as of now: "open tickets last
// month" asks for last month's state, which the model cannot give, and the current figure under that
// question would be a governed number for a question nobody asked. "today" is the one period that
// means now, for a stock too ("customers we have today" is every customer). Metrics whose rows differ
// cannot be one query: a snapshot beside a flow, or a stock beside a flow when no period makes their
// rows the same, are refused with both names.
import type { GovernedPlan, NoMatch, ResolvedPeriod } from '../core/answer/plan.js';
import { periodWords, type Coverage } from '../core/answer/prose.js';
import type { Reveal } from '../core/semantic/model.js';
import { allTimeAssumed, periodAppliedToStock, periodAssumed, type Assumption } from './assumptions.js';

const PERIODS_MEANING_NOW = new Set(['today']);

export type CoverageDecision =
  | { readonly kind: 'covered'; readonly coverage: Coverage; readonly assumptions: readonly Assumption[] }
  | { readonly kind: 'refused'; readonly reason: string; readonly closest: NoMatch['closest'] };

/** What the question says about time, as the server resolved it. */
export interface QuestionTime {
  /** The period the question named, if any. */
  readonly asked: ResolvedPeriod | undefined;
  /** The default window of a flow when the question names no period. */
  readonly fallback: ResolvedPeriod;
  /** The question bounds time itself ("right now", a value naming a year): no window is assumed. */
  readonly timeBounded?: boolean;
  /** The label of the reveal's time dimension ("Signed up at"), to say what a period filters. */
  readonly timeLabel?: string;
}

export function decideCoverage(plan: GovernedPlan, reveal: Reveal, time: QuestionTime): CoverageDecision {
  const metrics = plan.metrics.map((name) => reveal.metrics.get(name)!);
  const of = (scope: string) => metrics.find((metric) => metric.timeScope === scope);
  const [snapshot, stock, flow] = [of('snapshot'), of('stock'), of('flow')];
  const closest = (list: typeof metrics) => list.map((metric) => ({ reveal: reveal.name, metric: metric.name, label: metric.label }));
  const { asked, fallback } = time;
  const covered = (coverage: Coverage, assumptions: readonly Assumption[] = []): CoverageDecision => ({ kind: 'covered', coverage, assumptions });
  const refused = (reason: string, list: typeof metrics): CoverageDecision => ({ kind: 'refused', reason, closest: closest(list) });
  const meansNow = asked !== undefined && PERIODS_MEANING_NOW.has(asked.token);

  if (snapshot) {
    if (flow) return refused(`${snapshot.label} is counted as of now and ${flow.label} over a period, so they cannot be answered together; please ask about one at a time.`, [snapshot, flow]);
    if (asked && !meansNow) {
      return refused(`${snapshot.label} is counted as of now, not over a period, so it cannot be given for ${periodWords(asked)}; ask without the period for the current figure.`, [snapshot]);
    }
    return covered({ kind: 'as_of_now' });
  }
  if (stock && flow && (!asked || meansNow) && !time.timeBounded) {
    return refused(
      `${stock.label} counts what exists, over all time, and ${flow.label} what happened, over a period, so they cannot be answered together without a period; name one, or ask about one at a time.`,
      [stock, flow],
    );
  }
  if (stock && meansNow) return covered({ kind: 'as_of_now' });
  if (asked) return covered({ kind: 'period', period: asked }, stock ? [periodAppliedToStock(stock.label, time.timeLabel, asked)] : []);
  if (time.timeBounded) return covered({ kind: 'as_of_now' });
  if (stock) return covered({ kind: 'all_time' }, [allTimeAssumed(stock.label)]);
  return covered({ kind: 'period', period: fallback }, [periodAssumed(fallback)]);
}
