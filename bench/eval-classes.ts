// The class sets: comparisons of two periods, shares, "per", negation, several filters, verbs that
// bind a value to its role and questions in other languages, over three domains written for them,
// asked end to end through the answer service and scored against hand-written SQL, per class and
// per domain. Then the held-back domain, figures only: its questions stay unread by whoever changes
// the planner. A wrong governed answer is a defect at any time; a decline is not.
// Run: npx tsx bench/eval-classes.ts   (npm run eval:classes)
import { runClassSets } from '../test/answer/classes/run.js';
import { printClassTables } from '../test/answer/classes/report.js';
import { printFailures } from '../test/answer/unseen/report.js';

async function main(): Promise<void> {
  // The store is embedded PGlite, so the run needs no server.
  const { classes, holdout } = await runClassSets();
  printClassTables('Class sets (bikeshare, hotels, remittance)', classes);
  printFailures(classes);
  console.log('');
  printClassTables('Held back from planner development (workforce): figures only', holdout);
}

await main();
