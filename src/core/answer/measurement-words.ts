// Everyday words for how a number comes about: verbs of doing and measuring ("send", "drive",
// "consume", "score") and nouns of a measurement ("reading", "tally"). A metric's name rarely lists
// them, and unknown they keep a question from being answered. One is accounted for when the model
// grounds it: the description of the metric asked for uses it ("Electricity drawn through the meters"
// grounds "drawn"), or it names the metric's unit ("in dollars" for a metric in usd). Otherwise the
// decline says which synonym to add to which metric, and where, so the model's editor can decide.
//
// Words that restrict or change a number ("late", "cancelled", "returned", "won", "lost", "delivered",
// "new", "average") are deliberately absent: a synonym for them would answer for every row.
import type { IndexedMetric } from './catalog-index.js';
import type { NoMatch } from './plan.js';
import type { QuestionWord } from './question-shape.js';
import { findUnit } from '../semantic/units.js';
import { stem } from './text.js';

const VERBS = [
  'send sends sent sending ship ships shipping pick picks picked picking drive drives drove driven driving',
  'travel travels travelled traveled travelling fly flies flew flown ride rides rode ridden cover covers covered',
  'move moves moved moving carry carries carried haul hauls hauled transport transported handle handles handled',
  'run runs ran running operate operates operated manage managed serve serves served host hosts hosted',
  'play plays played score scores scored produce produces produced build builds built create creates created',
  'list lists listed post posts posted publish published issue issues issued book books booked',
  'buy buys bought purchase purchased pay pays paid spend spends spent charge charges charged invoice invoiced',
  'bill billed earn earns earned collect collects collected raise raised use uses using consume consumes consumed',
  'burn burns burned burnt draw draws drew drawn read reads measure measures measured observe observed',
  'show shows showed shown give gives gave given award awarded reach reaches reached arrive arrives arrived',
  'work works worked employ employs employed visit visits visited attend attends attended see saw seen',
].join(' ');
const NOUNS = 'reading readings tally tallies volume volumes quantity quantities level levels';

const NOUN_STEMS: ReadonlySet<string> = new Set(NOUNS.split(' ').map(stem));
const LEXICON: ReadonlySet<string> = new Set([...VERBS.split(' ').map(stem), ...NOUN_STEMS]);
// Particles that belong to such a verb ("picked up", "handed out"): grounded with it.
const PARTICLES = new Set(['up', 'out', 'off', 'in', 'through', 'over', 'with']);

export function isMeasurementWord(word: QuestionWord): boolean {
  return LEXICON.has(word.stem) || LEXICON.has(stem(word.raw));
}

/** Whether `word` names `metric`'s unit ("dollars" for usd, "kwh" for kWh). */
function namesUnit(word: QuestionWord, metric: IndexedMetric): boolean {
  const unit = metric.unit ? findUnit(metric.unit) : undefined;
  return unit !== undefined && (findUnit(word.raw) === unit || findUnit(word.stem) === unit);
}

/**
 * Positions of `leftover` words the chosen metrics ground: a measurement word their description uses,
 * a particle right after one, a word naming their unit.
 */
export function groundedWords(leftover: readonly QuestionWord[], all: readonly QuestionWord[], metrics: readonly IndexedMetric[], { verbs }: { verbs: boolean }): Set<number> {
  const grounded = new Set<number>();
  for (const word of leftover) {
    if (!verbs && !NOUN_STEMS.has(word.stem) && !metrics.some((metric) => namesUnit(word, metric))) continue;
    // The stem as typed too: "drawn" may have been read as a typo of a catalog word ("draw").
    const described = isMeasurementWord(word) && metrics.some((metric) => metric.descriptionStems.has(word.stem) || metric.descriptionStems.has(stem(word.raw)));
    if (described || metrics.some((metric) => namesUnit(word, metric))) grounded.add(word.position);
  }
  for (const word of leftover) {
    const before = all[word.position - 1];
    if (PARTICLES.has(word.raw) && before && grounded.has(before.position)) grounded.add(word.position);
  }
  return grounded;
}

export type SynonymSuggestion = NonNullable<NoMatch['suggestions']>[number];

/** What to add so that the measurement words among `unexplained` name `metric`. */
export function synonymSuggestions(unexplained: readonly QuestionWord[], metric: IndexedMetric, typed: (word: QuestionWord) => string): SynonymSuggestion[] {
  if (!metric.span) return [];
  const words = [...new Set(unexplained.filter(isMeasurementWord).map((word) => typed(word).toLowerCase()))];
  return words.map((synonym) => ({ action: 'add_synonym', reveal: metric.reveal, metric: metric.name, synonym, file: metric.span!.file, line: metric.span!.line }));
}

/** The suggestions in words, for the decline's reason. */
export function suggestionText(suggestions: readonly SynonymSuggestion[], metricLabel: string): string {
  if (suggestions.length === 0) return '';
  const first = suggestions[0]!;
  const words = suggestions.map((s) => `"${s.synonym}"`).join(', ');
  return ` If ${words} says what ${metricLabel} measures, add synonyms: [${words}] to metric ${first.metric} in ${first.file}:${first.line}.`;
}
