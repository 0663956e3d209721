// What a question asks beyond metrics, breakdowns and filters, read once per question and completed
// per reveal: a ratio of two metrics ("fare revenue per trip"), a share of a total ("what share of
// trips were electric"). The planner keeps the words of such a reading from the ranking of the
// metrics asked for, counts them as accounted for when the plan uses them, and lets `completePlan`
// add what the plan carries for the server (`per`, `share`).
import type { CatalogIndex, IndexedMetric, IndexedReveal } from './catalog-index.js';
import type { GovernedPlan } from './plan.js';
import type { QuestionShape, QuestionWord } from './question-shape.js';
import { readRatio, type RatioReading } from './ratio-reading.js';
import { readShare, type ShareReading } from './share-reading.js';

export interface Analysis {
  readonly ratio?: RatioReading;
  readonly share?: ShareReading;
  /** Positions kept from the ranking of the metrics asked for (a ratio's divisor). */
  readonly reserved: ReadonlySet<number>;
  /** Positions of grammar the plan accounts for when it carries the reading ("per"). */
  readonly grammar: ReadonlySet<number>;
}

export function readAnalysis(words: readonly QuestionWord[], shape: QuestionShape, index: CatalogIndex, reveals: readonly IndexedReveal[]): Analysis {
  const ratio = readRatio(words, shape, index, reveals);
  const share = readShare(words, index);
  return {
    ...(ratio ? { ratio } : {}),
    ...(share ? { share } : {}),
    reserved: new Set([...(ratio?.positions ?? []), ...(share ? [share.cue] : [])]),
    grammar: new Set([...(ratio ? [ratio.marker] : []), ...(share ? [share.cue] : [])]),
  };
}

/** Positions of metric words the reading explains (a divisor's). */
export function analysisMetricWords(analysis: Analysis): number[] {
  return [...(analysis.ratio?.positions ?? [])];
}

export type Completion = { readonly kind: 'plan'; readonly plan: GovernedPlan } | { readonly kind: 'declined'; readonly reason: string };

/** The plan with what the reading adds, or why the two cannot go together. */
export interface PlanContext {
  readonly metric: (name: string) => string;
  /** Where each filter's first value starts in the question. */
  readonly filterAt: (field: string) => number;
  /** A metric of the reveal whose description tells the share the question asks (share-reading.ts). */
  readonly describedShare: () => string | undefined;
  /** The measure of the reveal's base node a metric of the plan reads, if it reads one. */
  readonly baseMeasure: (name: string) => string | undefined;
}

/**
 * A share whose metric the model declares ("what share of trips were made on electric bikes" and
 * "Electric share"): that metric answers when it is the very share the question reads, its measure
 * over the rows of the value named last; the other values keep the rows. Otherwise the two would be
 * two definitions of one share: declined, naming the model's.
 */
function declaredShare(plan: GovernedPlan, declared: IndexedMetric, label: string, context: PlanContext): Completion {
  const declined: Completion = { kind: 'declined', reason: `"${declared.label}" is the share asked for; ask for it by name ("${declared.label.toLowerCase()}").` };
  const completed = completeShare(plan, label, context.filterAt);
  const part = completed.kind === 'plan' ? completed.plan.share?.part : undefined;
  const of = declared.shareOf;
  if (completed.kind !== 'plan' || !part || !of || declared.reveal !== plan.reveal) return declined;
  if (of.field !== part.field || of.value !== part.value || of.measure !== context.baseMeasure(plan.metrics[0]!)) return declined;
  const { share: _share, ...rest } = completed.plan;
  return { kind: 'plan', plan: { ...rest, metrics: [declared.name], matchedBy: 'name' } };
}

export function completePlan(plan: GovernedPlan, analysis: Analysis, context: PlanContext): Completion {
  const labels = context;
  const { ratio, share } = analysis;
  if (ratio && share) return { kind: 'declined', reason: 'A share of a ratio cannot be answered by one governed query; ask for each.' };
  if (share?.declared) return declaredShare(plan, share.declared, labels.metric(plan.metrics[0]!), context);
  if (share) {
    const completed = completeShare(plan, labels.metric(plan.metrics[0]!), context.filterAt);
    // The share of one value, where the model describes a metric as that very share: two definitions.
    const described = completed.kind === 'plan' && completed.plan.share?.part ? context.describedShare() : undefined;
    if (described) return { kind: 'declined', reason: `${described} is described as the share asked for, which may count other rows than the one value named; ask for ${described} by name, or for ${labels.metric(plan.metrics[0]!)} by a dimension.` };
    return completed;
  }
  if (!ratio) return { kind: 'plan', plan };
  const divisor = ratio.divisor.metric;
  // Labels plain, as every decline writes them: double quotes are kept for the question's own words.
  const per = `${labels.metric(plan.metrics[0]!)} per ${divisor.label}`;
  if (divisor.reveal !== plan.reveal) return { kind: 'declined', reason: `${per} divides by a metric of another reveal (${divisor.reveal}), which one governed query cannot do.` };
  if (plan.metrics.length !== 1) return { kind: 'declined', reason: `'per ${divisor.label}' divides one metric; the question names ${plan.metrics.length}. Ask for one at a time.` };
  if (plan.metrics[0] === divisor.name) return { kind: 'declined', reason: `${per} divides a metric by itself.` };
  if (plan.sort) return { kind: 'declined', reason: `A ranking by ${per} cannot be answered by one governed query; ask for the ratio by a dimension instead.` };
  return { kind: 'plan', plan: { ...plan, per: { by: divisor.name } } };
}

/**
 * A share: of the value the question names last ("what share of transfers to Mexico were refunded":
 * refunded transfers over all transfers the other values keep), or of each group of the breakdown
 * ("share of each rider type in fare revenue"). A part that is several values or a value left out, or
 * no part and no breakdown, leave the share unclear.
 */
function completeShare(plan: GovernedPlan, label: string, filterAt: (field: string) => number): Completion {
  if (plan.sort) return { kind: 'declined', reason: `A ranking of shares of ${label} cannot be answered by one governed query; ask for the shares by a dimension.` };
  if (plan.metrics.length !== 1) return { kind: 'declined', reason: `A share is of one metric; the question names ${plan.metrics.length}. Ask for one at a time.` };
  if (plan.dimensions.length > 0) {
    return plan.filters.some((filter) => filter.operator !== 'equals' && filter.operator !== 'in') || plan.filters.length > 1
      ? { kind: 'declined', reason: `The share of ${label} by a breakdown is over the rows the filters keep; with several filters or a value left out, say which rows make the whole.` }
      : { kind: 'plan', plan: { ...plan, share: {} } };
  }
  const ordered = [...plan.filters].sort((a, b) => filterAt(a.field) - filterAt(b.field));
  const part = ordered.at(-1);
  if (!part) {
    return { kind: 'declined', reason: `The question asks for a share of ${label} without naming the part; name a value ("what share … were electric") or a breakdown ("share of each channel in …").` };
  }
  if (part.operator !== 'equals' || typeof part.value !== 'string') {
    return { kind: 'declined', reason: `The share of ${label} needs one value that makes the part ("what share of trips were electric"); several values, or a value left out, leave the part unclear.` };
  }
  return { kind: 'plan', plan: { ...plan, filters: ordered.slice(0, -1), share: { part: { field: part.field, value: part.value } } } };
}
