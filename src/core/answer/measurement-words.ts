// Everyday words for how a number comes about: verbs of doing and measuring ("send", "drive",
// "consume", "score") and nouns of a measurement ("reading", "tally"). A metric's name rarely lists
// them, and unknown they keep a question from being answered. One is accounted for when the model
// grounds it: the description of the metric asked for uses it ("Electricity drawn through the meters"
// grounds "drawn"), it names the metric's unit ("in dollars" for a metric in usd), it is the event
// that dates every row of the reveal (its time dimension `shipped_at` or "Pickup time" grounds
// "shipped", "picked up"), the description of a dimension the plan breaks down or filters by uses it
// ("Agency running the station" grounds "runs"), or it links a ranking's subject to what it is ranked
// by ("which carrier moved the least weight"). Otherwise the decline says which synonym to add to
// which metric, and where, so the model's editor can decide.
//
// Words that restrict or change a number ("late", "cancelled", "returned", "won", "lost", "delivered",
// "new", "average") are deliberately absent: a synonym for them would answer for every row.
import type { IndexedMetric, IndexedReveal } from './catalog-index.js';
import type { NoMatch } from './plan.js';
import type { QuestionShape, QuestionWord } from './question-shape.js';
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
  'record records recorded schedule schedules scheduled',
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

export interface Grounds {
  /**
   * Verbs may be grounded by what the metric, the dimensions and the ranking say. Not beside a role
   * ("did WAS score at home"): there a verb may say who did it, which none of them does.
   */
  readonly verbs: boolean;
  /** Stems of the reveal's time dimension (its id and label): the event that dates every row, grounded beside a role too. */
  readonly event?: ReadonlySet<string>;
  /** Stems of the descriptions of the dimensions the plan breaks down or filters by. */
  readonly described?: ReadonlySet<string>;
  /** Positions of the words between a ranking's subject and its ranking word ("which carrier moved the least weight"). */
  readonly links?: ReadonlySet<number>;
}

/**
 * Positions of `leftover` words the plan grounds (see above): a measurement word the chosen metrics'
 * description, the reveal's time dimension or a used dimension's description has, or that links a
 * ranking; a particle right after one; a word naming a metric's unit.
 */
export function groundedWords(leftover: readonly QuestionWord[], all: readonly QuestionWord[], metrics: readonly IndexedMetric[], grounds: Grounds): Set<number> {
  const grounded = new Set<number>();
  const { verbs } = grounds;
  for (const word of leftover) {
    if (metrics.some((metric) => namesUnit(word, metric))) {
      grounded.add(word.position);
      continue;
    }
    if (!isMeasurementWord(word)) continue;
    // The stem as typed too: "drawn" may have been read as a typo of a catalog word ("draw").
    const stems = [word.stem, stem(word.raw)];
    const next = all[word.position + 1];
    // "picked up" is the event of a "Pickup time".
    const phrasal = next && PARTICLES.has(next.raw) ? stems.map((s) => `${s}${next.raw}`) : [];
    if ([...stems, ...phrasal].some((s) => grounds.event?.has(s))) grounded.add(word.position);
    if (!verbs && !NOUN_STEMS.has(word.stem)) continue;
    const described = metrics.some((metric) => stems.some((s) => metric.descriptionStems.has(s)));
    const ofDimension = verbs && stems.some((s) => grounds.described?.has(s));
    const links = verbs && grounds.links?.has(word.position) === true;
    if (described || ofDimension || links) grounded.add(word.position);
  }
  for (const word of leftover) {
    const before = all[word.position - 1];
    if (PARTICLES.has(word.raw) && before && grounded.has(before.position)) grounded.add(word.position);
  }
  return grounded;
}

/**
 * What grounds verbs in a plan over `reveal` that breaks down or filters by `fields`: its time
 * dimension's words, those fields' descriptions, and in a ranking of a subject ("which carrier … the
 * least weight") the measurement words between the subject and the ranking word, when only such
 * words and particles stand there.
 */
export function groundsOf(reveal: IndexedReveal, words: readonly QuestionWord[], shape: QuestionShape, fields: readonly string[], verbs: boolean): Grounds {
  const used = reveal.dimensions.filter((dimension) => fields.includes(dimension.field));
  const links = new Set<number>();
  const top = shape.top;
  if (top && top.subjects > 0) {
    const subjectEnd = Math.max(...shape.dimensions.slice(0, top.subjects).flatMap((request) => request.positions));
    const between = words.slice(subjectEnd + 1, top.at).filter((word) => !word.stop);
    const linking = between.length > 0 && between.every((word, k) => isMeasurementWord(word) || (k > 0 && PARTICLES.has(word.raw)));
    if (linking) for (const word of between) links.add(word.position);
  }
  return {
    verbs,
    event: reveal.timeStems ?? new Set(),
    described: new Set(used.flatMap((dimension) => [...(dimension.descriptionStems ?? [])])),
    links,
  };
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
