// Values that are everyday words: a city "Reading", a chain "Target", a retailer "Heat". The planner
// matches values on stems, which is right for "refunded" and "refunds" but makes "read", "heating" and
// "targeted" the names 'Reading', 'Heat' and 'Target'. Two rules keep an everyday word from becoming
// a filter, and a name from being lost:
//
// - A value stored as a name (a capital, then lower case) or reached by another word for it is named
//   by that word or its plural only, never by another word of the same stem: "heating" is not 'Heat'.
//   Words the planner derived on purpose ("northern" → 'North') or corrected (a typo) are exempt.
// - Where the word of such a name is also a word the model itself uses for the reveal (a metric's
//   name or description, a dimension's name: "reading", "target"), the question must say which it
//   means. A capital in a question that otherwise uses lower case ("case target for Target"), a
//   possessive ("Target's") or the dimension's own word beside it ("the city of Reading") make it the
//   value; lower case in a question that uses capitals makes it the everyday word; anything else is
//   unsure, and the planner declines rather than guess.
import type { IndexedDimension, IndexedReveal } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';
import { typedCapitalised, type QuestionText } from './question-text.js';
import { contentStems, tokenise } from './text.js';
import type { ValueMatch, ValuePhrase } from './value-filters.js';

/** A value written as a name: 'Reading', 'Target', 'Spark Power' (not 'rain', not 'TX'). */
export function isName(value: string): boolean {
  return /^\p{Lu}/u.test(value) && /\p{Ll}/u.test(value);
}

/** `raw` is `word` or its plural (or `word` the plural of `raw`): "snack" for 'Snacks', "readings" for 'Reading'. */
function sameWord(raw: string, word: string): boolean {
  if (raw === word) return true;
  const plural = (a: string, b: string) => a === `${b}s` || a === `${b}es` || (b.endsWith('y') && a === `${b.slice(0, -1)}ies`);
  return plural(raw, word) || plural(word, raw);
}

/** Whether the question words `span` may name `phrase` (the first rule above). */
export function namedByForm(phrase: ValuePhrase, span: readonly QuestionWord[]): boolean {
  if (phrase.stems.length !== 1 || span.length !== 1) return true;
  const word = span[0]!;
  if (word.corrected) return true;
  if (!phrase.words && !isName(phrase.value)) return true;
  const written = phrase.words ?? tokenise(phrase.value).filter((token) => !token.stop).map((token) => token.raw);
  return written.length === 1 && sameWord(word.raw, written[0]!);
}

const modelWords = new WeakMap<IndexedReveal, ReadonlySet<string>>();

/** Stems of the words the model uses for `reveal`: its label, its metrics' names, labels, synonyms and descriptions, its dimensions' names. */
function modelStems(reveal: IndexedReveal): ReadonlySet<string> {
  let stems = modelWords.get(reveal);
  if (!stems) {
    stems = new Set([
      ...contentStems(reveal.label),
      ...reveal.metrics.flatMap((metric) => [...metric.phrases.flatMap((phrase) => phrase.stems), ...metric.descriptionStems]),
      ...reveal.dimensionStems,
    ]);
    modelWords.set(reveal, stems);
  }
  return stems;
}

export type ValueWordReading = 'value' | 'everyday' | 'unsure';

/** How a one-word match of a name reads (the second rule above). */
export function readValueWord(match: ValueMatch, words: readonly QuestionWord[], text: QuestionText, reveal: IndexedReveal): ValueWordReading {
  const candidate = match.candidates[0];
  if (match.positions.length !== 1 || !candidate || !isName(candidate.value)) return 'value';
  const position = match.positions[0]!;
  const word = words[position]!;
  if (word.corrected || !modelStems(reveal).has(word.stem)) return 'value';
  if (words[position + 1]?.raw === 's') return 'value';
  const dimension = reveal.dimensions.find((d) => d.field === candidate.field);
  if (dimension && besideOwnDimension(words, position, dimension)) return 'value';
  if (!text.caseInformative || text.words === undefined) return 'unsure';
  const first = words.findIndex((w) => !/^\d+$/.test(w.raw));
  if (!typedCapitalised(text, position)) return 'everyday';
  return position === first ? 'unsure' : 'value';
}

/** The nearest content word before or after `position` is a word of the value's dimension ("city of Reading", "Target chain"). */
function besideOwnDimension(words: readonly QuestionWord[], position: number, dimension: IndexedDimension): boolean {
  const stems = new Set(dimension.phrases.flat());
  const near = (step: number): QuestionWord | undefined => {
    for (let at = position + step; at >= 0 && at < words.length; at += step) if (!words[at]!.stop) return words[at];
    return undefined;
  };
  return [near(-1), near(1)].some((word) => word !== undefined && stems.has(word.stem));
}
