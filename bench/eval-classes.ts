// The class sets: comparisons of two periods, shares, "per", negation, several filters, verbs that
// bind a value to its role and questions in other languages, over three domains written for them,
// asked end to end through the answer service and scored against hand-written SQL, per class and
// per domain. Then the held-back domain, figures only: its questions stay unread by whoever changes
// the planner. A wrong governed answer is a defect at any time; a decline is not. Last, the questions
// in other languages of the class sets again, translated by a loopback model (reference translations).
// Run: npx tsx bench/eval-classes.ts   (npm run eval:classes)
import { printForeignTable } from '../test/answer/classes/foreign-report.js';
import { runClassSets, runForeignWithTranslation } from '../test/answer/classes/run.js';
import { printClassTables } from '../test/answer/classes/report.js';
import { printFailures } from '../test/answer/unseen/report.js';

async function main(): Promise<void> {
  // The store is embedded PGlite, so the run needs no server.
  const { classes, holdout } = await runClassSets();
  printClassTables('Class sets (bikeshare, hotels, remittance)', classes);
  printFailures(classes);
  console.log('');
  printClassTables('Held back from planner development (workforce): figures only', holdout);
  // The questions in other languages again, with a language model that translates them (reference
  // translations) and fails every other request, so the offline planner plans the English.
  const translated = await runForeignWithTranslation();
  console.log('');
  printForeignTable('Questions in other languages (class sets), offline and with translation', classes, translated);
  printFailures(translated);
  console.log('');
  printForeignTable('Questions in other languages (held back): offline only, it has no reference translations', holdout, undefined);
}

await main();
