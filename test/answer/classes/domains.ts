// The class sets: three domains written for the classes of question the planner is taught next
// (comparisons, shares, "per", negation, several filters, direction verbs, other languages). None is
// a domain any model in the repository was tuned for.
import { fileURLToPath } from 'node:url';
import type { Trait, UnseenDomain } from '../unseen/types.js';
import { bikeshareTables } from './bikeshare/data.js';
import { BIKESHARE_QUESTIONS } from './bikeshare/questions.js';
import { hotelTables } from './hotels/data.js';
import { HOTEL_QUESTIONS } from './hotels/questions.js';
import { remittanceTables } from './remittance/data.js';
import { REMITTANCE_QUESTIONS } from './remittance/questions.js';

/** The classes, each a trait of the questions that exercise it. */
export const QUESTION_CLASSES = ['comparison', 'share', 'per', 'negation', 'multi_filter', 'direction_verb', 'foreign_language'] as const satisfies readonly Trait[];
export type QuestionClass = (typeof QUESTION_CLASSES)[number];

const modelDir = (name: string): string => fileURLToPath(new URL(`./${name}/model/`, import.meta.url));

export const CLASS_DOMAINS: readonly UnseenDomain[] = [
  { name: 'bikeshare', schema: 'bikeshare', modelDir: modelDir('bikeshare'), tables: bikeshareTables, questions: BIKESHARE_QUESTIONS },
  { name: 'hotels', schema: 'hotels', modelDir: modelDir('hotels'), tables: hotelTables, questions: HOTEL_QUESTIONS },
  { name: 'remittance', schema: 'remit', modelDir: modelDir('remittance'), tables: remittanceTables, questions: REMITTANCE_QUESTIONS },
];
