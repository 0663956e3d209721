// The figures of the class sets, per class and per domain: of the in-scope questions, how many got
// the expected numbers, how many were declined, how many governed answers stated other numbers and
// how many errors; of the questions that must be declined, how many were, and how many got a governed
// answer anyway. A question counts in every class it exercises. Wrong governed answers (either kind)
// must stay at zero; declines are acceptable while a class is not taught yet.
import type { DomainRun, QuestionOutcome } from '../unseen/harness.js';
import { isDecline } from '../unseen/types.js';
import { QUESTION_CLASSES, type QuestionClass } from './domains.js';

type Log = (line: string) => void;

export interface ClassCell {
  readonly inScope: number;
  readonly exact: number;
  readonly declined: number;
  /** In scope, governed, other numbers. */
  readonly wrong: number;
  readonly errors: number;
  readonly mustDecline: number;
  readonly declinedRight: number;
  /** Must be declined, yet governed. */
  readonly governed: number;
}

export function scoreOutcomes(outcomes: readonly QuestionOutcome[]): ClassCell {
  const inScope = outcomes.filter((o) => !isDecline(o.question));
  const mustDecline = outcomes.filter((o) => isDecline(o.question));
  const count = (list: readonly QuestionOutcome[], verdict: QuestionOutcome['verdict']) => list.filter((o) => o.verdict === verdict).length;
  return {
    inScope: inScope.length,
    exact: count(inScope, 'exact'),
    declined: count(inScope, 'declined'),
    wrong: count(inScope, 'wrong'),
    errors: count(outcomes, 'error'),
    mustDecline: mustDecline.length,
    declinedRight: count(mustDecline, 'declined'),
    governed: count(mustDecline, 'wrong'),
  };
}

const ofClass = (run: DomainRun, questionClass: QuestionClass): QuestionOutcome[] => run.outcomes.filter((o) => o.question.traits.includes(questionClass));

/** Per class, the cell of each domain, then of all of them together. */
export function classTable(runs: readonly DomainRun[]): Map<QuestionClass, Array<{ readonly domain: string; readonly cell: ClassCell }>> {
  return new Map(
    QUESTION_CLASSES.map((questionClass) => [
      questionClass,
      [
        ...runs.map((run) => ({ domain: run.domain.name, cell: scoreOutcomes(ofClass(run, questionClass)) })),
        ...(runs.length > 1 ? [{ domain: 'all', cell: scoreOutcomes(runs.flatMap((run) => ofClass(run, questionClass))) }] : []),
      ],
    ]),
  );
}

const percent = (part: number, whole: number): string => (whole === 0 ? '—' : `${((part / whole) * 100).toFixed(0)}%`);
const cells = (values: Array<string | number>, widths: number[]): string => values.map((v, i) => String(v).padStart(widths[i]!)).join(' ');
const WIDTHS = [8, 6, 5, 9, 6, 6, 10, 9, 9];
const HEADER = cells(['in scope', 'exact', '%', 'declined', 'wrong', 'errors', 'to decline', 'declined', 'governed'], WIDTHS);

function row(label: string, cell: ClassCell): string {
  return `  ${label.padEnd(12)} ${cells([cell.inScope, cell.exact, percent(cell.exact, cell.inScope), cell.declined, cell.wrong, cell.errors, cell.mustDecline, cell.declinedRight, cell.governed], WIDTHS)}`;
}

/** One table per class (a row per domain and one for all), then every question once per domain. */
export function printClassTables(title: string, runs: readonly DomainRun[], log: Log = console.log): void {
  log(title);
  log('  (in scope: exact, declined, wrong governed, errors; must decline: declined, governed. Target: wrong 0, governed 0)');
  log(`  ${'class / set'.padEnd(12)} ${HEADER}`);
  for (const [questionClass, domains] of classTable(runs)) {
    log(`  ${questionClass}`);
    for (const { domain, cell } of domains) log(row(`  ${domain}`, cell));
  }
  log('  every question once');
  for (const run of runs) log(row(`  ${run.domain.name}`, scoreOutcomes(run.outcomes)));
  if (runs.length > 1) log(row('  all', scoreOutcomes(runs.flatMap((run) => run.outcomes))));
}
