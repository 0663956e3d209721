// A decline quotes only what the question says: every phrase between double quotes in a refusal is
// in the question as asked (case aside), over the evaluation sets and the unseen sets. Suggested
// wording and metric labels are written without double quotes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogIndex, planOffline } from '../../src/core/answer/offline-planner.js';
import { compileModel } from '../../src/core/cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { quotesNotInQuestion } from './decline-quoting.js';
import { demoValues, EVAL_SET } from './eval-set.js';
import { HELD_OUT_SET } from './held-out-set.js';
import { runUnseenSets, type DomainRun } from './unseen/harness.js';

describe('quoting in declines', () => {
  it('finds what a reason quotes that the question does not say', () => {
    expect(quotesNotInQuestion('Nothing explains "jugó", so Matches would not answer.', '¿Cuántos partidos JUGÓ?')).toEqual([]);
    expect(quotesNotInQuestion('Nothing explains "jugo".', '¿Cuántos partidos jugó?')).toEqual(['jugo']);
    expect(quotesNotInQuestion('ask "by region"', 'revenue region')).toEqual(['by region']);
  });
});

describe('declines of the offline planner over the evaluation sets', () => {
  it('quote only words of the question', async () => {
    const { model } = compileModel(await readModelDir(DEMO_MODEL_DIR));
    const index = buildCatalogIndex(model!);
    const declines = [...EVAL_SET, ...HELD_OUT_SET].flatMap(({ question }) => {
      const plan = planOffline(question, index, { values: demoValues });
      return plan.kind === 'no_match' ? [{ question, reason: plan.reason }] : [];
    });
    expect(declines.length).toBeGreaterThan(20);
    expect(declines.flatMap(({ question, reason }) => quotesNotInQuestion(reason, question).map((phrase) => `${question} → "${phrase}"`))).toEqual([]);
  });
});

describe('declines of the answer pipeline over the unseen sets', () => {
  let runs: DomainRun[];
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = (await hasService('postgres')) ? await createTestDatabase() : undefined;
    drop = database?.drop;
    runs = await runUnseenSets(database ? { databaseUrl: database.url } : {});
  }, 120_000);
  afterAll(async () => {
    await drop?.();
  });

  it('quote only words of the question', () => {
    const declines = runs.flatMap((run) => run.outcomes).filter((o) => o.answer?.no_match);
    expect(declines.length).toBeGreaterThan(20);
    const misquoted = declines.flatMap((o) => quotesNotInQuestion(o.answer!.no_match!.reason, o.question.question).map((phrase) => `${o.question.question} → "${phrase}"`));
    expect(misquoted).toEqual([]);
  });
});
