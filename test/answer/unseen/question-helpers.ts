// Short constructors so a question set reads as a list of questions and their expected SQL.
import type { DeclineKind, DeclineQuestion, Expected, InScopeQuestion, Language, Trait } from './types.js';

export const value = (sql: string): Expected => ({ value: sql });
export const rows = (sql: string): Expected => ({ rows: sql });
export const ranked = (sql: string): Expected => ({ ranked: sql });
/** The current period's value and the comparison period's, each one row of one column. */
export const compared = (current: string, comparison: string): Expected => ({ compared: { current, comparison } });
/** Each group's fraction (0 to 1) of the total: the shape of `rows`. */
export const shares = (sql: string): Expected => ({ shares: sql });

export const ask = (question: string, lang: Language, traits: Trait[], expect: Expected): InScopeQuestion => ({ question, lang, traits, expect });

export const decline = (question: string, lang: Language, traits: Trait[], kind: DeclineKind, why: string): DeclineQuestion => ({
  question,
  lang,
  traits,
  decline: kind,
  why,
});

/** A question in another language with its reference English translation (the question itself unchanged). */
export const translated = <Q extends InScopeQuestion | DeclineQuestion>(question: Q, english: string): Q => ({ ...question, english });
