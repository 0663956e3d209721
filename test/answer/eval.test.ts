import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogIndex, type CatalogIndex } from '../../src/core/answer/catalog-index.js';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import { compileModel } from '../../src/core/cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../src/demo-setup.js';
import { demoValues, EVAL_SET, scoreEval, type EvalReport } from './eval-set.js';
import { HELD_OUT_SET } from './held-out-set.js';

describe('offline planner on the evaluation set', () => {
  let index: CatalogIndex;
  let report: EvalReport;

  beforeAll(async () => {
    const { model } = compileModel(await readModelDir(DEMO_MODEL_DIR));
    index = buildCatalogIndex(model!);
    report = scoreEval((question) => planOffline(question, index, { values: demoValues }));
  });

  it('has at least 100 questions in every category', () => {
    expect(EVAL_SET.length).toBeGreaterThanOrEqual(100);
    for (const [category, { total }] of report.byCategory) expect(total, category).toBeGreaterThan(0);
  });

  it('never gives a governed plan to an out-of-scope question', () => {
    const governed = report.failures.filter((failure) => failure.category === 'out_of_scope').map((failure) => failure.question);
    expect(governed).toEqual([]);
    expect(report.falseGovernedRate).toBe(0);
  });

  it('answers at least 90% of the questions as expected', () => {
    expect(report.accuracy, JSON.stringify(report.failures, null, 1)).toBeGreaterThanOrEqual(0.9);
  });

  it('is right at least 98% of the time when the metric matched by name, label or synonym', () => {
    expect(report.highConfidence.total).toBeGreaterThan(50);
    expect(report.highConfidence.accuracy, JSON.stringify(report.failures, null, 1)).toBeGreaterThanOrEqual(0.98);
  });

  it('on questions it was never tuned on: no governed plan out of scope, and high-confidence plans right', () => {
    const heldOut = scoreEval((question) => planOffline(question, index, { values: demoValues }), HELD_OUT_SET);
    expect(heldOut.falseGovernedRate).toBe(0);
    expect(heldOut.highConfidence.total).toBeGreaterThan(10);
    expect(heldOut.highConfidence.accuracy, JSON.stringify(heldOut.failures, null, 1)).toBeGreaterThanOrEqual(0.98);
    // Wrong answers are refusals, never another metric: every failure is a no-match.
    expect(heldOut.failures.filter((failure) => failure.actual.kind === 'governed')).toEqual([]);
  });
});
