// Questions for five classes of planner defects, over two small models of their own (grid: meter
// reads; supply: deliveries to retail chains). Each question is tagged with the class it exercises;
// the expected answer is SQL over the tables, as in the unseen sets. Now is 2025-06-18 15:00 UTC.
import type { DeclineKind, Expected, Language, Trait, UnseenQuestion } from '../unseen/types.js';

export type DefectClass =
  /** A metric named by its exact label, with another metric's synonym elsewhere in the question. */
  | 'label_beside_synonym'
  /** A value that is also an everyday word ("Reading", "Heat", "Target"). */
  | 'everyday_value'
  /** An adjective or a full name for a stored value ("sunny" for sun, "California" for CA). */
  | 'value_forms'
  /** A decline quoting words the question does not contain. */
  | 'decline_quotes'
  /** An everyday verb or noun of measurement the model does not list. */
  | 'measurement_words';

export interface DefectCase {
  readonly defect: DefectClass;
  readonly question: UnseenQuestion;
  /** For a decline: the synonym it must suggest adding, and to which metric. */
  readonly suggests?: { readonly metric: string; readonly synonym: string };
}

const value = (sql: string): Expected => ({ value: sql });

export const answered = (defect: DefectClass, question: string, traits: Trait[], sql: string, lang: Language = 'en'): DefectCase => ({
  defect,
  question: { question, lang, traits, expect: value(sql) },
});

export const declined = (defect: DefectClass, question: string, kind: DeclineKind, why: string, suggests?: DefectCase['suggests'], lang: Language = 'en'): DefectCase => ({
  defect,
  question: { question, lang, traits: [], decline: kind, why },
  ...(suggests ? { suggests } : {}),
});
