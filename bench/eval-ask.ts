// Accuracy of the offline planner on the evaluation set, per category, with the false-governed rate
// on out-of-scope questions, the accuracy of high-confidence plans and the planning time; then the
// unseen sets: four domains nobody tuned the planner for, asked end to end through the answer
// service and scored against hand-written SQL.
// Run: npx tsx bench/eval-ask.ts
import { buildCatalogIndex } from '../src/core/answer/catalog-index.js';
import { planOffline } from '../src/core/answer/offline-planner.js';
import { compileModel } from '../src/core/cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../src/demo-setup.js';
import { demoValues, EVAL_SET, scoreEval, type EvalReport } from '../test/answer/eval-set.js';
import { HELD_OUT_SET } from '../test/answer/held-out-set.js';
import { runUnseenSets } from '../test/answer/unseen/harness.js';
import { printFailures, printUnseenTables } from '../test/answer/unseen/report.js';

const TIMING_ROUNDS = 20;

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

function printReport(title: string, report: EvalReport): void {
  console.log(title);
  for (const [category, { total, correct }] of report.byCategory) {
    if (total > 0) console.log(`  ${category.padEnd(16)} ${String(correct).padStart(3)}/${String(total).padEnd(3)} ${percent(correct / total)}`);
  }
  console.log(`Overall accuracy          ${percent(report.accuracy)}`);
  console.log(`False-governed rate       ${percent(report.falseGovernedRate)} (out-of-scope questions given a governed plan)`);
  console.log(`High-confidence accuracy  ${percent(report.highConfidence.accuracy)} over ${report.highConfidence.total} plans matched by name, label or synonym`);
}

async function main(): Promise<void> {
  const { model, diagnostics } = compileModel(await readModelDir(DEMO_MODEL_DIR));
  if (!model) throw new Error(`The demo model does not compile: ${diagnostics.map((d) => d.message).join('; ')}`);
  const index = buildCatalogIndex(model);
  const plan = (question: string) => planOffline(question, index, { values: demoValues });

  const report = scoreEval(plan);
  printReport(`Offline planner, ${EVAL_SET.length} questions (the evaluation set)`, report);
  console.log('');
  const heldOut = scoreEval(plan, HELD_OUT_SET);
  printReport(`Held out: ${HELD_OUT_SET.length} questions written after the planner, never tuned on`, heldOut);
  console.log(`Wrong governed answers    ${heldOut.failures.filter((failure) => failure.actual.kind === 'governed').length} (the other misses are refusals)`);
  console.log('');

  // Timing after the first pass above, so value lookups and indexes are warm as in a running server.
  const times: number[] = [];
  for (let round = 0; round < TIMING_ROUNDS; round++) {
    for (const { question } of EVAL_SET) {
      const started = performance.now();
      plan(question);
      times.push(performance.now() - started);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number): string => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  console.log(`Planning time             p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (target p50 < 10 ms)`);

  // End to end: the store is embedded PGlite, so the run needs no server.
  console.log('');
  const unseen = await runUnseenSets();
  printUnseenTables(unseen);

  for (const [title, failures] of [
    ['Misses', report.failures],
    ['Held-out misses', heldOut.failures],
  ] as const) {
    if (failures.length === 0) continue;
    console.log(`\n${title}:`);
    for (const failure of failures) console.log(`  [${failure.category}] ${failure.question} → ${failure.actual.kind === 'no_match' ? `no match: ${failure.actual.reason}` : JSON.stringify(failure.actual)}`);
  }
  printFailures(unseen);
}

await main();
