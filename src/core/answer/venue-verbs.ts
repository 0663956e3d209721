// Verbs that say which side a team played, by where they stand around its name: "LA host POR",
// "matches hosted by DER", "when Washington Wolves visited Derby Forge", "LA host against POR". The
// subject of "host" is the home side, of "visit" the away side; the object of "visited" and whoever
// "hosted by" names is the home side; "against" names the other side of a value bound beside it.
// Accents are stripped, as `normalise` does.
import type { QuestionWord } from './question-shape.js';
import type { RoleSide } from './value-role-words.js';
import { ARTICLES } from './value-role-words.js';

const list = (text: string): string[][] => text.split(',').map((phrase) => phrase.trim().split(' '));

/** Right after a team: the verb says the side its subject played. */
const AFTER: ReadonlyArray<readonly [readonly string[], RoleSide]> = [
  ...list('host, hosts, hosted, welcomed, welcome, welcomes').map((words) => [words, 'home'] as const),
  ...list('visit, visits, visited, travelled to, traveled to, went to').map((words) => [words, 'away'] as const),
];
/** Right before a team: the words say the side of their object. */
const BEFORE: ReadonlyArray<readonly [readonly string[], RoleSide]> = [
  ...list('hosted by, at home to, visited, visiting, travelled to, traveled to, went to, a visit to').map((words) => [words, 'home'] as const),
  ...list('welcomed, welcoming, hosted, hosting, host').map((words) => [words, 'away'] as const),
];
const AGAINST = list('against, versus, vs, v');
/** Words that open a clause saying which matches: "goals when Lions visited Tigers". */
const CONJUNCTIONS = new Set(['when', 'whenever', 'where']);

export interface VenueVerb {
  /** The side the value played, or undefined when "against" only says it played the other one. */
  readonly side?: RoleSide;
  readonly positions: readonly number[];
}

const at = (words: readonly QuestionWord[], start: number, phrase: readonly string[]): boolean => start >= 0 && phrase.every((word, k) => words[start + k]?.raw === word);

/** The verb around the value at `positions` that gives its side, or "against" before it; articles aside. */
export function venueVerb(words: readonly QuestionWord[], positions: readonly number[]): VenueVerb | undefined {
  let before = positions[0]! - 1;
  while (before >= 0 && ARTICLES.has(words[before]!.raw) && words[before]!.stop) before--;
  const after = positions.at(-1)! + 1;
  const range = (start: number, length: number): number[] => Array.from({ length }, (_, k) => start + k);
  // Longest first: "hosted by" before "hosted".
  for (const [phrase, side] of [...BEFORE].sort((a, b) => b[0].length - a[0].length)) {
    if (at(words, before - phrase.length + 1, phrase)) return { side, positions: range(before - phrase.length + 1, phrase.length) };
  }
  for (const phrase of AGAINST) if (at(words, before - phrase.length + 1, phrase)) return { positions: range(before - phrase.length + 1, phrase.length) };
  for (const [phrase, side] of AFTER) {
    if (!at(words, after, phrase)) continue;
    // "goals when Lions visited Tigers": the clause says which matches, its conjunction with it (never a first "when", which asks for a time).
    const conjunction = before > 0 && CONJUNCTIONS.has(words[before]!.raw) ? [before] : [];
    return { side, positions: [...conjunction, ...range(after, phrase.length)] };
  }
  return undefined;
}

/** Whether a phrase that gives the side of the team after it ends at `end` ("hosted by"): its "by" introduces the team, not a breakdown. */
export function endsVenuePhrase(words: readonly QuestionWord[], end: number): boolean {
  return BEFORE.some(([phrase]) => at(words, end - phrase.length + 1, phrase));
}

/** The side the subject of `verb` played ("hosted": home, "visited": away), when the verb says one. */
export function venueSubjectSide(verb: string): RoleSide | undefined {
  return AFTER.find(([phrase]) => phrase.length === 1 && phrase[0] === verb)?.[1];
}
