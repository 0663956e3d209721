// What a question says about time besides a period: "right now", "currently", "actuellement" ask for
// the state as of now, and a filter value that names a year ("the 2023/24 season", "FY2024") already
// bounds the rows in time. Either way no default window may be assumed: it would restrict the number
// in a way the question did not ask for.
import { normalise } from './text.js';

const NOW_PHRASES = [
  'right now', 'now', 'currently', 'at the moment', 'at present', 'presently', 'as of now', 'as things stand',
  'ahora', 'ahora mismo', 'actualmente', 'en este momento', 'hoy en dia',
  'actuellement', 'en ce moment', 'maintenant', 'a present', 'a l heure actuelle',
  'jetzt', 'aktuell', 'derzeit', 'momentan', 'gerade', 'zurzeit', 'zur zeit',
  'agora', 'atualmente', 'no momento', 'neste momento',
];
const NOW = new RegExp(`(?:^| )(?:${NOW_PHRASES.join('|')})(?: |$)`);

/** Whether the question asks for the state as of now ("shipments in transit right now"). */
export function asksAsOfNow(question: string): boolean {
  return NOW.test(normalise(question));
}

/** A year inside a value ("2023/24", "FY2024", "Class of 2019"). */
const YEAR = /(?<!\d)(19|20)\d\d(?!\d)/;

/** Whether a filter value names a year, so the filter bounds the rows in time itself. */
export function valueNamesYear(value: string | readonly string[]): boolean {
  return (typeof value === 'string' ? [value] : value).some((v) => YEAR.test(v));
}

/**
 * The question without the period phrase. A short word in capitals leading the phrase, in a question
 * that uses lower case, is a value the period's preposition only looked like ("shipments from IN last
 * year": the state IN, then "last year"): it stays in the question.
 */
export function withoutPeriodPhrase(question: string, phrase: string): string {
  const lead = /^(\p{Lu}{1,3})\s+/u.exec(phrase);
  if (lead && /\p{Ll}/u.test(question)) return question.replace(phrase, `${lead[1]} `);
  return question.replace(phrase, ' ');
}
