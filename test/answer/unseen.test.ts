// The unseen question sets, asked of the real answer pipeline (offline planner, DuckDB warehouses,
// deployed CML models). Asserted here: that the sets are well formed, and what the pipeline already
// guarantees on them and must never lose. The figures themselves are printed by `npm run eval:ask`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { readModelDir } from '../../src/demo-setup.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { UNSEEN_DOMAINS } from './unseen/domains.js';
import { expectedProblem } from './unseen/expected.js';
import { runUnseenSets, type DomainRun, type QuestionOutcome } from './unseen/harness.js';
import { scoreRun } from './unseen/score.js';
import { isDecline, type Language } from './unseen/types.js';

let runs: DomainRun[];
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // PostgreSQL starts in a fraction of the time embedded PGlite takes; either is a real store.
  const database = (await hasService('postgres')) ? await createTestDatabase() : undefined;
  drop = database?.drop;
  runs = await runUnseenSets(database ? { databaseUrl: database.url } : {});
}, 120_000);
afterAll(async () => {
  await drop?.();
});

const outcomes = (): QuestionOutcome[] => runs.flatMap((run) => run.outcomes);
const show = (list: readonly QuestionOutcome[]) => list.map((o) => `${o.question.question} → ${o.answer?.answer ?? o.error}`);

describe('the unseen sets', () => {
  it('are four domains of 40 to 65 questions, each with all five languages and questions that must be declined', () => {
    expect(runs.map((run) => run.domain.name)).toEqual(['freight', 'weather', 'league', 'market']);
    for (const run of runs) {
      const questions = run.domain.questions;
      expect(questions.length, run.domain.name).toBeGreaterThanOrEqual(40);
      expect(questions.length, run.domain.name).toBeLessThanOrEqual(65);
      expect(new Set(questions.map((q) => q.lang)), run.domain.name).toEqual(new Set<Language>(['en', 'es', 'fr', 'de', 'pt']));
      expect(questions.filter((q) => isDecline(q) && q.decline === 'out_of_scope').length, run.domain.name).toBeGreaterThanOrEqual(3);
      expect(questions.filter((q) => isDecline(q) && q.decline !== 'out_of_scope').length, run.domain.name).toBeGreaterThanOrEqual(2);
    }
    const all = runs.flatMap((run) => run.domain.questions.map((q) => q.question.toLowerCase()));
    expect(all.length).toBe(new Set(all).size);
    expect(runs.reduce((sum, run) => sum + run.metricCount, 0)).toBeGreaterThanOrEqual(40);
  });

  it('have models that compile with no diagnostics at all', async () => {
    for (const domain of UNSEEN_DOMAINS) {
      const { model, diagnostics } = compileModel(await readModelDir(domain.modelDir));
      expect(diagnostics, domain.name).toEqual([]);
      expect(model, domain.name).toBeDefined();
    }
  });

  it('expect a number for every in-scope question, and no top-N is ill-posed by a tie at its cut-off', () => {
    const problems = outcomes().flatMap((outcome) => {
      if (isDecline(outcome.question)) return [];
      const problem = expectedProblem(outcome.expected!);
      return problem ? [`${outcome.question.question}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });
});

describe('the answer pipeline on questions nobody tuned it for', () => {
  it('answers every question without an error', () => {
    expect(show(outcomes().filter((o) => o.verdict === 'error'))).toEqual([]);
  });

  it('declines every out-of-scope question', () => {
    const answered = outcomes().filter((o) => isDecline(o.question) && o.question.decline === 'out_of_scope' && o.verdict !== 'declined');
    expect(show(answered)).toEqual([]);
    for (const run of runs) {
      const score = scoreRun(run);
      expect(score.outOfScopeDeclined, run.domain.name).toBe(score.outOfScope);
    }
  });

  it('never makes a refusal look governed: no reveal, no value, no rows, never high', () => {
    const refusals = outcomes().filter((o) => o.answer && !o.answer.provenance.reveal_backed);
    expect(refusals.length).toBeGreaterThan(0);
    for (const { answer, question } of refusals) {
      expect(answer!.provenance.confidence, question.question).not.toBe('high');
      expect(answer!.provenance.reveal, question.question).toBeUndefined();
      expect(answer!.data.value, question.question).toBeUndefined();
      expect(answer!.data.rows, question.question).toEqual([]);
      expect(answer!.no_match?.reason, question.question).toEqual(expect.any(String));
    }
  });

  it('never states a wrong number as governed: no wrong governed answer, every high answer exact, on every set', () => {
    const wrong = outcomes().filter((o) => o.verdict === 'wrong');
    expect(show(wrong)).toEqual([]);
    for (const run of runs) {
      const score = scoreRun(run);
      expect(score.wrongGoverned, run.domain.name).toBe(0);
      expect(score.highExact, run.domain.name).toBe(score.high);
    }
  });

  it('answers most in-scope questions exactly (a floor under today\'s figure, not a target)', () => {
    const scores = runs.map(scoreRun);
    const exact = scores.reduce((sum, score) => sum + score.exact, 0);
    const inScope = scores.reduce((sum, score) => sum + score.inScope, 0);
    expect(exact / inScope).toBeGreaterThanOrEqual(0.9);
  });

  it('reads every governed number from the warehouse: each governed answer ran SQL on it', () => {
    const governed = outcomes().filter((o) => o.answer?.provenance.reveal_backed);
    expect(governed.length).toBeGreaterThan(0);
    for (const outcome of governed) expect(outcome.sql.length, outcome.question.question).toBeGreaterThan(0);
  });
});
