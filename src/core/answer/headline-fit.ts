// Whether the headline metric of a plan is the kind of number the question asks for. "How much did
// senders in Europe send" asks for an amount: a count of senders under it would be a governed number
// for another question. When the plan holds an amount beside the count, the amount leads; when it
// holds counts only, the plan is declined. Both planners' plans pass through this check.
import { normalise } from './text.js';

/** A metric of the plan, as the check needs it. */
export interface HeadlineCandidate {
  readonly name: string;
  readonly label: string;
  /** It counts rows or distinct things (trips, senders), rather than measuring an amount. */
  readonly counts: boolean;
}

export type HeadlineFit = { readonly kind: 'fits'; readonly metrics: readonly string[] } | { readonly kind: 'mismatch'; readonly reason: string };

// "how much", "cuánto", "wie viel", "quanto": singular forms ask for an amount; "how many", "cuántos",
// "wie viele", "quantos" for a count, and French "combien" for either.
const AMOUNT_QUESTION = /(?:^| )(?:how much|cuanto|cuanta|wie viel|quanto|quanta)(?: |$)/;

export function asksForAmount(question: string): boolean {
  return AMOUNT_QUESTION.test(normalise(question));
}

export function fitHeadline(question: string, metrics: readonly HeadlineCandidate[]): HeadlineFit {
  const names = metrics.map((metric) => metric.name);
  const headline = metrics[0];
  if (!headline || !headline.counts || !asksForAmount(question)) return { kind: 'fits', metrics: names };
  const amount = metrics.find((metric) => !metric.counts);
  if (amount) return { kind: 'fits', metrics: [amount.name, ...names.filter((name) => name !== amount.name)] };
  return {
    kind: 'mismatch',
    reason: `"How much" asks for an amount, and ${headline.label} is a count; ask "how many" for the count, or name the amount meant.`,
  };
}
