// Checks every governed plan passes before it runs, whichever planner made it (offline or language
// model): the plan must answer the question as asked. A plan that fails one is declined with the
// reason; a plan that only needs its metrics in another order gets them.
import { fitHeadline } from '../core/answer/headline-fit.js';
import type { GovernedPlan, NoMatch } from '../core/answer/plan.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { addsUp, countsThings, declaredRatio, nodeMeasureId } from './metric-facts.js';

export type GateResult = { readonly kind: 'pass'; readonly plan: GovernedPlan } | { readonly kind: 'declined'; readonly noMatch: NoMatch };

export function gatePlan(plan: GovernedPlan, question: string, model: SemanticModel): GateResult {
  const reveal = model.reveals.get(plan.reveal)!;
  const metrics = plan.metrics.map((name) => reveal.metrics.get(name)!);
  const closest = metrics.map((metric) => ({ reveal: reveal.name, metric: metric.name, label: metric.label }));
  const declined = (reason: string): GateResult => ({ kind: 'declined', noMatch: { kind: 'no_match', reason, closest } });

  // A ranking sorts by its headline: a plan that ranks keeps its order.
  const fit = fitHeadline(question, metrics.map((metric) => ({ name: metric.name, label: metric.label, counts: countsThings(model, metric) })));
  if (fit.kind === 'mismatch') return declined(fit.reason);
  let gated: GovernedPlan = plan.sort ? plan : { ...plan, metrics: fit.metrics };
  let headline = reveal.metrics.get(gated.metrics[0]!)!;

  if (gated.per) {
    const divisor = reveal.metrics.get(gated.per.by);
    if (!divisor) return declined(`"${gated.per.by}" is not a metric of ${reveal.label}.`);
    // The model's own ratio of the two ("fare per trip" for fare revenue over trips) is the governed answer.
    const declared = declaredRatio(model, reveal, headline, divisor);
    if (declared) {
      const { per: _per, ...rest } = gated;
      gated = { ...rest, metrics: [declared.name] };
    } else for (const metric of [headline, divisor]) {
      if (!addsUp(model, metric) || nodeMeasureId(reveal, metric) === undefined) {
        return declined(`${metric.label} does not add up over rows (it is an average, a rate or an expression), so "${headline.label} per ${divisor.label}" would divide it again; ask for each metric.`);
      }
    }
  }
  headline = reveal.metrics.get(gated.metrics[0]!)!;
  if (gated.share) {
    if (!addsUp(model, headline) || nodeMeasureId(reveal, headline) === undefined) {
      return declined(`${headline.label} does not add up over rows (it is an average, a rate or an expression), so it has no share of a total; ask for ${headline.label} itself.`);
    }
    if (gated.metrics.length > 1) gated = { ...gated, metrics: [headline.name] };
  }
  if (gated.compare) {
    const expression = gated.metrics.map((name) => reveal.metrics.get(name)!).find((metric) => nodeMeasureId(reveal, metric) === undefined);
    if (expression) return declined(`${expression.label} is an expression over other metrics, which a comparison of two periods cannot read; ask for each period.`);
    if (!reveal.time) return declined(`${reveal.label} has no time to set two periods side by side; ask for ${headline.label} without periods.`);
    // One total in each period, and the change: a breakdown, a ranking, a ratio or a share of each
    // period is another table than the one the answer states.
    // Each group of a breakdown is set beside itself; a ranking, a ratio or a share of each period,
    // or several metrics by groups, is another table than the one the answer states.
    const beyond = gated.sort ? 'a ranking' : gated.per ? 'a ratio' : gated.share ? 'a share' : gated.dimensions.length > 0 && gated.metrics.length > 1 ? 'several metrics by a breakdown' : undefined;
    if (beyond) return declined(`Two periods side by side are answered for the metrics or for each group of one metric; this question also asks for ${beyond}. Ask for ${headline.label} in the two periods, or for ${beyond} in each period.`);
  }
  return { kind: 'pass', plan: gated };
}
