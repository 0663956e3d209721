// The figures of an unseen set: how many in-scope questions got the expected numbers, how many were
// declined, how many governed answers stated wrong numbers (the one defect that must stay at zero),
// and how often a high-confidence answer was right.
import type { DomainRun, QuestionOutcome } from './harness.js';
import { isDecline, type Trait } from './types.js';

export interface SetScore {
  readonly name: string;
  readonly questions: number;
  readonly metricCount: number;
  readonly inScope: number;
  readonly exact: number;
  /** In scope, but no governed answer (errors included). */
  readonly declined: number;
  /** In scope, governed, with numbers other than the expected. */
  readonly wrongInScope: number;
  /** Must be declined, yet governed. */
  readonly governedMustDecline: number;
  /** Both kinds of wrong governed answers. */
  readonly wrongGoverned: number;
  readonly outOfScope: number;
  readonly outOfScopeDeclined: number;
  /** In the model's words but not answerable as governed (a restriction it cannot express, an undecidable role). */
  readonly unanswerable: number;
  readonly unanswerableDeclined: number;
  readonly high: number;
  readonly highExact: number;
  readonly errors: number;
}

const isHigh = (outcome: QuestionOutcome): boolean => outcome.answer?.provenance.reveal_backed === true && outcome.answer.provenance.confidence === 'high';

export function scoreRun(run: DomainRun): SetScore {
  const inScope = run.outcomes.filter((o) => !isDecline(o.question));
  const mustDecline = run.outcomes.filter((o) => isDecline(o.question));
  const outOfScope = mustDecline.filter((o) => isDecline(o.question) && o.question.decline === 'out_of_scope');
  const unanswerable = mustDecline.filter((o) => isDecline(o.question) && o.question.decline !== 'out_of_scope');
  const count = (outcomes: readonly QuestionOutcome[], ...verdicts: QuestionOutcome['verdict'][]) => outcomes.filter((o) => verdicts.includes(o.verdict)).length;
  const high = run.outcomes.filter(isHigh);
  const wrongInScope = count(inScope, 'wrong');
  const governedMustDecline = count(mustDecline, 'wrong');
  return {
    name: run.domain.name,
    questions: run.outcomes.length,
    metricCount: run.metricCount,
    inScope: inScope.length,
    exact: count(inScope, 'exact'),
    declined: count(inScope, 'declined', 'error'),
    wrongInScope,
    governedMustDecline,
    wrongGoverned: wrongInScope + governedMustDecline,
    outOfScope: outOfScope.length,
    outOfScopeDeclined: count(outOfScope, 'declined', 'error'),
    unanswerable: unanswerable.length,
    unanswerableDeclined: count(unanswerable, 'declined', 'error'),
    high: high.length,
    highExact: count(high, 'exact'),
    errors: count(run.outcomes, 'error'),
  };
}

/** Exact, declined and wrong per trait over in-scope questions of all sets: where the misses cluster. */
export function traitScores(runs: readonly DomainRun[]): Map<Trait, { total: number; exact: number; wrong: number }> {
  const scores = new Map<Trait, { total: number; exact: number; wrong: number }>();
  for (const outcome of runs.flatMap((run) => run.outcomes)) {
    if (isDecline(outcome.question)) continue;
    for (const trait of outcome.question.traits) {
      const score = scores.get(trait) ?? { total: 0, exact: 0, wrong: 0 };
      score.total++;
      if (outcome.verdict === 'exact') score.exact++;
      if (outcome.verdict === 'wrong') score.wrong++;
      scores.set(trait, score);
    }
  }
  return new Map([...scores].sort(([a], [b]) => a.localeCompare(b)));
}
