// Prints the unseen sets' figures (one table per set, then by trait) and every miss with the
// question, the expected and the actual answer, and the SQL the service ran.
import type { Answer } from '../../../src/answering/answer.js';
import type { ExpectedResult, ResultRow } from './expected.js';
import type { DomainRun, QuestionOutcome } from './harness.js';
import { scoreRun, traitScores, type SetScore } from './score.js';
import { isDecline } from './types.js';

type Log = (line: string) => void;

const share = (part: number, whole: number): string => (whole === 0 ? '—' : `${((part / whole) * 100).toFixed(1)}%`);
const line = (label: string, value: string, note = ''): string => `  ${label.padEnd(30)} ${value.padEnd(14)} ${note}`.trimEnd();
const fraction = (part: number, whole: number): string => `${part}/${whole}`.padEnd(8) + share(part, whole);

export function printSetTable(score: SetScore, log: Log = console.log): void {
  log(`Unseen set "${score.name}": ${score.questions} questions, ${score.metricCount} metrics`);
  log(line('exact in scope', fraction(score.exact, score.inScope)));
  log(line('declined in scope', fraction(score.declined, score.inScope), score.errors ? `(${score.errors} errors)` : ''));
  log(line('wrong governed', String(score.wrongGoverned), `target 0 (in scope with other numbers: ${score.wrongInScope}; answered though it must be declined: ${score.governedMustDecline})`));
  log(line('precision at high', fraction(score.highExact, score.high), 'target 100%'));
  log(line('out of scope declined', fraction(score.outOfScopeDeclined, score.outOfScope)));
  log(line('unanswerable declined', fraction(score.unanswerableDeclined, score.unanswerable), '(inexpressible restriction or undecidable role)'));
}

function totalOf(scores: readonly SetScore[]): SetScore {
  const sum = (key: keyof SetScore) => scores.reduce((total, score) => total + (score[key] as number), 0);
  return {
    name: 'all unseen sets',
    questions: sum('questions'),
    metricCount: sum('metricCount'),
    inScope: sum('inScope'),
    exact: sum('exact'),
    declined: sum('declined'),
    wrongInScope: sum('wrongInScope'),
    governedMustDecline: sum('governedMustDecline'),
    wrongGoverned: sum('wrongGoverned'),
    outOfScope: sum('outOfScope'),
    outOfScopeDeclined: sum('outOfScopeDeclined'),
    unanswerable: sum('unanswerable'),
    unanswerableDeclined: sum('unanswerableDeclined'),
    high: sum('high'),
    highExact: sum('highExact'),
    errors: sum('errors'),
  };
}

const showRows = (rows: readonly ResultRow[]): string =>
  rows.length === 0 ? '(no rows)' : rows.slice(0, 8).map((row) => `${row.keys.map((k) => k ?? 'NULL').join(' / ')}: ${row.value}`).join('; ') + (rows.length > 8 ? `; … ${rows.length} rows` : '');

function showExpected(expected: ExpectedResult | undefined, outcome: QuestionOutcome): string {
  if (isDecline(outcome.question)) return `declined (${outcome.question.decline}: ${outcome.question.why})`;
  if (!expected) return '?';
  if (expected.kind === 'value') return String(expected.value);
  if (expected.kind === 'compared') return `${expected.current} against ${expected.comparison} (change ${expected.current !== null && expected.comparison !== null ? expected.current - expected.comparison : '?'})`;
  return `${expected.kind}: ${showRows(expected.rows)}`;
}

function showAnswer(answer: Answer | undefined, error: string | undefined): string {
  if (error) return `error: ${error}`;
  if (!answer) return '?';
  if (!answer.provenance.reveal_backed) return `declined: ${answer.no_match?.reason ?? answer.answer}`;
  const rows = answer.data.rows.slice(0, 8).map((row) => Object.values(row).map((v) => (v === null ? 'NULL' : String(v))).join(' / '));
  const shown = answer.data.columns.length > 1 || answer.data.rows.length > 1 ? ` rows [${answer.data.columns.join(', ')}]: ${rows.join('; ')}${answer.data.rows.length > 8 ? `; … ${answer.data.rows.length} rows` : ''}` : '';
  return `${answer.provenance.confidence} ${answer.provenance.reveal}.${answer.data.metric} = ${answer.data.value ?? '(none)'} for ${answer.data.period}${shown}`;
}

export function printFailures(runs: readonly DomainRun[], log: Log = console.log): void {
  for (const run of runs) {
    const misses = run.outcomes.filter((o) => o.verdict !== 'exact' && !(isDecline(o.question) && o.verdict === 'declined'));
    if (misses.length === 0) continue;
    log(`\nMisses in "${run.domain.name}" (${misses.length}):`);
    for (const outcome of misses) {
      log(`  [${outcome.verdict}] ${outcome.question.question}`);
      log(`      expected: ${showExpected(outcome.expected, outcome)}`);
      log(`      actual:   ${showAnswer(outcome.answer, outcome.error)}`);
      const query = outcome.sql.at(0);
      if (outcome.verdict === 'wrong' && query) log(`      sql:      ${query.replace(/\s+/g, ' ')}`);
    }
  }
}

/** One table per set, the sets together, and exact answers by trait. */
export function printUnseenTables(runs: readonly DomainRun[], log: Log = console.log): void {
  const scores = runs.map(scoreRun);
  for (const score of scores) {
    printSetTable(score, log);
    log('');
  }
  printSetTable(totalOf(scores), log);
  log('\nBy trait (in-scope questions of every unseen set): exact / total, wrong governed');
  for (const [trait, { total, exact, wrong }] of traitScores(runs)) log(`  ${trait.padEnd(18)} ${`${exact}/${total}`.padEnd(8)} ${share(exact, total).padEnd(7)} wrong ${wrong}`);
}
