// The light stemmer every catalog phrase and question word goes through: inflections only (plurals,
// -ed, -ing), with the Porter rules that keep its output consistent across a word's forms
// ("closed"/"close", "cancelled"/"canceled"/"cancel", "shipped"/"ship", "cases"/"case"), and a table
// of irregular plurals. No derivational suffixes: "business" stays apart from "busy", "news" from
// "new", "cancellation" from "cancel". Words of other languages pass through it unchanged or lose a
// plural "-s", which is all the matching needs.

// Irregular plurals and verbs, and plurals whose "-es" the rules below would cut wrongly.
const IRREGULAR: Readonly<Record<string, string>> = {
  people: 'person', persons: 'person', children: 'child', men: 'man', women: 'woman', feet: 'foot', teeth: 'tooth',
  mice: 'mouse', geese: 'goose', analyses: 'analysis', diagnoses: 'diagnosis', crises: 'crisis', theses: 'thesis',
  hypotheses: 'hypothesis', bases: 'base', indices: 'index', matrices: 'matrix', vertices: 'vertex', criteria: 'criterion',
  phenomena: 'phenomenon', buses: 'bus', gases: 'gas', knives: 'knife', wives: 'wife', lives: 'life',
  shelves: 'shelf', halves: 'half', loaves: 'loaf', wolves: 'wolf', thieves: 'thief', calves: 'calf', quizzes: 'quiz',
  // Irregular verbs a business question uses. Not those that would land on another word a catalog
  // may hold as a value or metric: "left", "found", "fell" (the fall season), "ran" (runs scored),
  // "took" and "held" ("-ings" nouns meet their verb here: "takings" → take, "holdings" → hold).
  sold: 'sell', bought: 'buy', paid: 'pay', went: 'go', gone: 'go',
  written: 'write', wrote: 'write', lent: 'lend', spent: 'spend', sent: 'send', built: 'build', grew: 'grow', grown: 'grow',
  kept: 'keep', made: 'make', came: 'come', got: 'get', gotten: 'get',
};
// Words whose final "s" is not a plural.
const SINGULAR_IN_S = new Set(['news', 'series', 'species', 'means', 'physics', 'economics', 'mathematics', 'analytics', 'logistics', 'aids', 'ethics']);

const VOWELS = /[aeiou]/;

function isConsonant(word: string, i: number): boolean {
  const ch = word[i]!;
  if (VOWELS.test(ch)) return false;
  // "y" after a consonant sounds as a vowel ("city"), after a vowel as a consonant ("day").
  return ch !== 'y' || i === 0 || !isConsonant(word, i - 1);
}

/** Porter's measure: the number of vowel-consonant sequences ("tree" 0, "trouble" 1, "private" 2). */
function measure(word: string): number {
  let m = 0;
  let previousVowel = false;
  for (let i = 0; i < word.length; i++) {
    const consonant = isConsonant(word, i);
    if (consonant && previousVowel) m++;
    previousVowel = !consonant;
  }
  return m;
}

/** Ends consonant-vowel-consonant, the last not w, x or y ("hop", "rat"): such a short stem kept its "e". */
function endsShortSyllable(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  return isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !/[wxy]$/.test(word);
}

function hasVowel(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (!isConsonant(word, i)) return true;
  return false;
}

function singular(word: string): string {
  if (SINGULAR_IN_S.has(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  // "boxes", "branches", "dishes": "-es" is the plural; "cases", "sizes": only "-s" is.
  if (/(x|ch|sh|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Porter step 1b: "-ed"/"-ing" off, then the stem put back in the shape its bare form has. */
function withoutEdIng(word: string): string {
  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  if (word.endsWith('ied') && word.length > 4) return `${word.slice(0, -3)}y`;
  let base: string;
  if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) base = word.slice(0, -2);
  else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) base = word.slice(0, -3);
  else return word;
  if (/(at|bl|iz)$/.test(base)) return `${base}e`;
  // "shipped" → ship, "admitted" → admit; "added" keeps its "dd" (no two-letter stems).
  if (base.length > 3 && /([bdfgkmnprtv])\1$/.test(base)) return base.slice(0, -1);
  if (measure(base) === 1 && endsShortSyllable(base)) return `${base}e`;
  return base;
}

/** Porter step 5: a final "e" goes when the stem stays long ("complete" → complet), not from "rate". */
function withoutFinalE(word: string): string {
  if (!word.endsWith('e')) return word;
  const base = word.slice(0, -1);
  const m = measure(base);
  return m > 1 || (m === 1 && !endsShortSyllable(base)) ? base : word;
}

/** "movie" and "movies" alike: a final "-ie" reads as the "-y" that "-ies" became. */
function ieAsY(word: string): string {
  return word.length > 4 && word.endsWith('ie') ? `${word.slice(0, -2)}y` : word;
}

/** British doubled "l" ("cancelled", "travelling", "modelling") and its bare form meet on one "l". */
function singleFinalL(word: string): string {
  return word.length >= 5 && word.endsWith('ll') ? word.slice(0, -1) : word;
}

export function stem(word: string): string {
  const irregular = IRREGULAR[word];
  // The base form goes through the rules too, so "mice" meets "mouse" wherever "mouse" ends up.
  return regularStem(irregular ?? word);
}

function regularStem(word: string): string {
  if (word.length <= 3) return word;
  return singleFinalL(withoutFinalE(ieAsY(withoutEdIng(singular(word)))));
}
