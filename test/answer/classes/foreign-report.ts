// The questions in other languages, per language and per domain, read two ways: offline (the word
// list, no language model) and with translation (a model translates; everything else offline). Of
// the in-scope questions: exact / declined / wrong governed; of the must-decline ones: governed.
import type { DomainRun, QuestionOutcome } from '../unseen/harness.js';
import type { Language } from '../unseen/types.js';
import { scoreOutcomes, type ClassCell } from './report.js';

type Log = (line: string) => void;

const FOREIGN: readonly Language[] = ['es', 'fr', 'de', 'pt', 'it'];

const foreign = (runs: readonly DomainRun[]): QuestionOutcome[] => runs.flatMap((run) => run.outcomes.filter((o) => o.question.lang !== 'en'));

function cell(cell: ClassCell): string {
  const governed = cell.mustDecline > 0 ? `, ${cell.governed}/${cell.mustDecline} governed` : '';
  return `${cell.exact}/${cell.inScope} exact, ${cell.declined} declined, ${cell.wrong} wrong${cell.errors ? `, ${cell.errors} errors` : ''}${governed}`;
}

/** Rows per domain and per language, then all; each row gives the offline reading, then (when run) the translated one. */
export function printForeignTable(title: string, offline: readonly DomainRun[], translated: readonly DomainRun[] | undefined, log: Log = console.log): void {
  log(title);
  log(`  ${'set'.padEnd(14)} ${'offline (word list)'.padEnd(48)} ${translated ? 'with translation' : ''}`);
  const line = (label: string, left: readonly QuestionOutcome[], right: readonly QuestionOutcome[] | undefined): void => {
    log(`  ${label.padEnd(14)} ${cell(scoreOutcomes(left)).padEnd(48)} ${right ? cell(scoreOutcomes(right)) : ''}`);
  };
  const ofDomain = (runs: readonly DomainRun[], name: string) => foreign(runs.filter((run) => run.domain.name === name));
  for (const run of offline) line(run.domain.name, ofDomain(offline, run.domain.name), translated && ofDomain(translated, run.domain.name));
  for (const language of FOREIGN) {
    const inLanguage = (o: QuestionOutcome) => o.question.lang === language;
    line(language, foreign(offline).filter(inLanguage), translated && foreign(translated).filter(inLanguage));
  }
  line('all', foreign(offline), translated && foreign(translated));
}
