// Five classes of planner defects, on two small models written for them (test/answer/planner-defects):
// a label spelled out beside another metric's synonym, values that are everyday words, adjectives and
// full names of stored values, declines quoting words the question does not contain, and everyday
// measurement words. Each question is asked of the real answer pipeline (offline planner, DuckDB,
// deployed CML) and scored against SQL over the tables; a wrong governed number fails every class.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src/core/cml/index.js';
import { readModelDir } from '../../src/demo-setup.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { quotesNotInQuestion } from './decline-quoting.js';
import type { DefectCase, DefectClass } from './planner-defects/cases.js';
import { DEFECT_CASES, DEFECT_DOMAINS } from './planner-defects/domains.js';
import { runUnseenSets, type QuestionOutcome } from './unseen/harness.js';
import { isDecline } from './unseen/types.js';

let outcomes: Map<string, QuestionOutcome>;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const database = (await hasService('postgres')) ? await createTestDatabase() : undefined;
  drop = database?.drop;
  const runs = await runUnseenSets({ domains: DEFECT_DOMAINS, ...(database ? { databaseUrl: database.url } : {}) });
  outcomes = new Map(runs.flatMap((run) => run.outcomes).map((outcome) => [outcome.question.question, outcome]));
}, 120_000);
afterAll(async () => {
  await drop?.();
});

const CLASSES: readonly DefectClass[] = ['label_beside_synonym', 'everyday_value', 'value_forms', 'decline_quotes', 'measurement_words'];
const casesOf = (defect: DefectClass): DefectCase[] => DEFECT_CASES.filter((c) => c.defect === defect);
const outcomeOf = (c: DefectCase): QuestionOutcome => outcomes.get(c.question.question)!;
const show = (o: QuestionOutcome): string => `${o.question.question} → ${o.verdict}: ${o.answer?.answer ?? o.error}`;

describe('the planner-defect cases', () => {
  it('have models that compile with no diagnostics', async () => {
    for (const domain of DEFECT_DOMAINS) {
      const { model, diagnostics } = compileModel(await readModelDir(domain.modelDir));
      expect(diagnostics, domain.name).toEqual([]);
      expect(model, domain.name).toBeDefined();
    }
  });

  it.each(CLASSES)('%s: at least five questions over both models', (defect) => {
    const cases = casesOf(defect);
    expect(cases.length).toBeGreaterThanOrEqual(5);
    const models = new Set(DEFECT_DOMAINS.filter((domain) => domain.questions.some((q) => cases.some((c) => c.question === q))).map((domain) => domain.name));
    expect(models.size).toBe(2);
  });
});

describe('the answer pipeline on the planner-defect cases', () => {
  it('never states a wrong governed number and never fails', () => {
    const bad = [...outcomes.values()].filter((o) => o.verdict === 'wrong' || o.verdict === 'error');
    expect(bad.map(show)).toEqual([]);
  });

  it.each(CLASSES)('%s: answers exactly what it should and declines the rest', (defect) => {
    const missed = casesOf(defect)
      .map(outcomeOf)
      .filter((o) => (isDecline(o.question) ? o.verdict !== 'declined' : o.verdict !== 'exact'));
    expect(missed.map(show)).toEqual([]);
  });

  it('quotes only words of the question in every decline', () => {
    const declines = [...outcomes.values()].filter((o) => o.verdict === 'declined');
    expect(declines.length).toBeGreaterThan(5);
    const misquoted = declines.flatMap((o) => quotesNotInQuestion(o.answer!.no_match!.reason, o.question.question).map((phrase) => `${o.question.question} → "${phrase}"`));
    expect(misquoted).toEqual([]);
  });

  it('suggests the synonym to add, with the metric and where it is written, in words and in fields', () => {
    const suggesting = DEFECT_CASES.filter((c) => c.suggests);
    expect(suggesting.length).toBeGreaterThanOrEqual(5);
    for (const c of suggesting) {
      const { reason, suggestions } = outcomeOf(c).answer!.no_match!;
      const { metric, synonym } = c.suggests!;
      const suggestion = suggestions?.find((s) => s.metric === metric && s.synonym === synonym);
      expect(suggestion, `${c.question.question}: ${reason}`).toMatchObject({ action: 'add_synonym', metric, synonym, file: expect.stringMatching(/\.cml$/), line: expect.any(Number) });
      expect(reason).toContain(`add synonyms: ["${synonym}"] to metric ${metric} in ${suggestion!.file}:${suggestion!.line}`);
    }
  });
});
