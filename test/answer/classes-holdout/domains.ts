// HELD BACK from planner development. The domain here is asked with the same classes of question as
// test/answer/classes/, but nobody changing the question planner reads its model or its questions:
// its figures, reported apart, tell whether what the planner learnt on the class sets carries over to
// a domain it has never seen. Reports print its figures only, never its questions.
import { fileURLToPath } from 'node:url';
import type { UnseenDomain } from '../unseen/types.js';
import { workforceTables } from './workforce/data.js';
import { WORKFORCE_QUESTIONS } from './workforce/questions.js';

export const HOLDOUT_DOMAINS: readonly UnseenDomain[] = [
  {
    name: 'workforce',
    schema: 'hr',
    modelDir: fileURLToPath(new URL('./workforce/model/', import.meta.url)),
    tables: workforceTables,
    questions: WORKFORCE_QUESTIONS,
  },
];
