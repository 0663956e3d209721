// Shared by the period tests: a fixed "now", the vectors' shape, and checks that compare the whole
// result (token, dates and phrase) so no field goes unchecked.
import { expect } from 'vitest';
import { findPeriod } from './periods.js';

export const NOW = new Date('2025-06-18T10:00:00Z'); // Wednesday, in the first half of 2025
export const UTC = { now: NOW, timezone: 'UTC' };

export type Vector = readonly [question: string, token: string, start: string, end: string, phrase?: string];
type Expected = readonly [token: string, start: string, end: string];

export function expectPeriods(vectors: readonly Vector[], options = UTC): void {
  for (const [question, token, start, end, phrase] of vectors) {
    expect(findPeriod(question, options), question).toEqual({ token, start, end, phrase: phrase ?? question });
  }
}

export function expectNone(questions: readonly string[], options = UTC): void {
  for (const question of questions) expect(findPeriod(question, options), question).toBeUndefined();
}

/** A vector from a question, its expected token and dates, and the phrase when it is not the whole question. */
export const v = (question: string, [token, start, end]: Expected, phrase?: string): Vector => [question, token, start, end, phrase];

export const H1_2019 = ['2019_h1', '2019-01-01', '2019-07-01'] as const;
export const LAST_H2 = ['last_year_h2', '2024-07-01', '2025-01-01'] as const;
/** The current half runs to tomorrow, like "this year". */
export const THIS_H1 = ['this_year_h1', '2025-01-01', '2025-06-19'] as const;
