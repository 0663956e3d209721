// What a question asks beyond metrics, breakdowns and filters, read once per question and completed
// per reveal: a ratio of two metrics ("fare revenue per trip"). The planner keeps the words of such a
// reading from the ranking of the metrics asked for, counts them as accounted for when the plan uses
// them, and lets `completePlan` add what the plan carries for the server (`per`).
import type { CatalogIndex, IndexedReveal } from './catalog-index.js';
import type { GovernedPlan } from './plan.js';
import type { QuestionShape, QuestionWord } from './question-shape.js';
import { readRatio, type RatioReading } from './ratio-reading.js';

export interface Analysis {
  readonly ratio?: RatioReading;
  /** Positions kept from the ranking of the metrics asked for (a ratio's divisor). */
  readonly reserved: ReadonlySet<number>;
  /** Positions of grammar the plan accounts for when it carries the reading ("per"). */
  readonly grammar: ReadonlySet<number>;
}

export function readAnalysis(words: readonly QuestionWord[], shape: QuestionShape, index: CatalogIndex, reveals: readonly IndexedReveal[]): Analysis {
  const ratio = readRatio(words, shape, index, reveals);
  return {
    ...(ratio ? { ratio } : {}),
    reserved: new Set(ratio?.positions ?? []),
    grammar: new Set(ratio ? [ratio.marker] : []),
  };
}

/** Positions of metric words the reading explains (a divisor's). */
export function analysisMetricWords(analysis: Analysis): number[] {
  return [...(analysis.ratio?.positions ?? [])];
}

export type Completion = { readonly kind: 'plan'; readonly plan: GovernedPlan } | { readonly kind: 'declined'; readonly reason: string };

/** The plan with what the reading adds, or why the two cannot go together. */
export function completePlan(plan: GovernedPlan, analysis: Analysis, labels: { readonly metric: (name: string) => string }): Completion {
  const { ratio } = analysis;
  if (!ratio) return { kind: 'plan', plan };
  const divisor = ratio.divisor.metric;
  const per = `"${labels.metric(plan.metrics[0]!)} per ${divisor.label}"`;
  if (divisor.reveal !== plan.reveal) return { kind: 'declined', reason: `${per} divides by a metric of another reveal (${divisor.reveal}), which one governed query cannot do.` };
  if (plan.metrics.length !== 1) return { kind: 'declined', reason: `"per ${divisor.label}" divides one metric; the question names ${plan.metrics.length}. Ask for one at a time.` };
  if (plan.metrics[0] === divisor.name) return { kind: 'declined', reason: `${per} divides a metric by itself.` };
  if (plan.sort) return { kind: 'declined', reason: `A ranking by ${per} cannot be answered by one governed query; ask for the ratio by a dimension instead.` };
  return { kind: 'plan', plan: { ...plan, per: { by: divisor.name } } };
}
