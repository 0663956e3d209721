// Checks every governed plan passes before it runs, whichever planner made it (offline or language
// model): the plan must answer the question as asked. A plan that fails one is declined with the
// reason; a plan that only needs its metrics in another order gets them.
import { fitHeadline } from '../core/answer/headline-fit.js';
import type { GovernedPlan, NoMatch } from '../core/answer/plan.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { countsThings } from './metric-facts.js';

export type GateResult = { readonly kind: 'pass'; readonly plan: GovernedPlan } | { readonly kind: 'declined'; readonly noMatch: NoMatch };

export function gatePlan(plan: GovernedPlan, question: string, model: SemanticModel): GateResult {
  const reveal = model.reveals.get(plan.reveal)!;
  const metrics = plan.metrics.map((name) => reveal.metrics.get(name)!);
  const closest = metrics.map((metric) => ({ reveal: reveal.name, metric: metric.name, label: metric.label }));
  const declined = (reason: string): GateResult => ({ kind: 'declined', noMatch: { kind: 'no_match', reason, closest } });

  // A ranking sorts by its headline: a plan that ranks keeps its order.
  const fit = fitHeadline(question, metrics.map((metric) => ({ name: metric.name, label: metric.label, counts: countsThings(model, metric) })));
  if (fit.kind === 'mismatch') return declined(fit.reason);
  const reordered = plan.sort ? plan : { ...plan, metrics: fit.metrics };
  return { kind: 'pass', plan: reordered };
}
