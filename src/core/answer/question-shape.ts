// The grammar of a question around its metrics: "by X" / "per X" / "nach X" breakdowns, "monthly",
// "top 5 X" / "los 3 mejores X", and typo correction of unknown words. Dimensions are only read here
// as phrases; which field they name depends on the reveal, decided later.
import type { Granularity } from '../semantic/model.js';
import { GRAIN_WORDS, type CatalogIndex } from './catalog-index.js';
import { closestWord, MIN_TYPO_LENGTH, transpositionDistance } from './fuzzy.js';
import type { GrammarValueReading } from './grammar-values.js';
import { adjectiveBases, tokenise } from './text.js';
import type { KnownValues } from './value-filters.js';

export interface QuestionWord {
  readonly position: number;
  readonly raw: string;
  /** After typo correction, when there was one. */
  readonly stem: string;
  readonly stop: boolean;
  readonly corrected: boolean;
  /** Corrected to a word of a stored value (not of the catalog): a filter it yields is marked near. */
  readonly near?: boolean;
}

/** A breakdown the question asks for, before it is resolved against a reveal. */
export interface DimensionRequest {
  readonly stems: readonly string[];
  /** The words as written, for messages. */
  readonly words: string;
  /** Positions of those words in the question. */
  readonly positions: readonly number[];
  readonly grain?: Granularity;
  /** True when no dimension of any reveal has this name: the breakdown cannot resolve. */
  readonly unknown: boolean;
}

export interface TopRequest {
  readonly limit: number;
  readonly direction: 'asc' | 'desc';
  /** Breakdowns named as what is ranked ("top 3 branches"); 0 when a plain "by X" names it. */
  readonly subjects: number;
  /** Position of the word that ranks ("top", "most"). */
  readonly at: number;
}

export interface QuestionShape {
  readonly words: readonly QuestionWord[];
  /** Positions the grammar used up: markers, numbers, dimension phrases. */
  readonly consumed: ReadonlySet<number>;
  readonly dimensions: readonly DimensionRequest[];
  readonly top?: TopRequest;
}

// Markers of a breakdown. "each"/"cada"/"chaque"/"jede" cover "for each X", "para cada X", "pour chaque X".
const BREAKDOWN_MARKERS = new Set(['by', 'per', 'por', 'par', 'nach', 'pro', 'je', 'across', 'each', 'every', 'cada', 'chaque', 'jede', 'jeden', 'jedes', 'jeder']);
export const CONNECTORS: ReadonlySet<string> = new Set(['and', 'y', 'et', 'und', 'e', 'then']);
const TOP_WORDS = new Set(['top', 'best', 'highest', 'biggest', 'largest', 'leading', 'mejores', 'mayores', 'principales', 'meilleurs', 'meilleures', 'premiers', 'premieres', 'besten', 'hochsten', 'grossten', 'melhores', 'maiores']);
const BOTTOM_WORDS = new Set(['worst', 'bottom', 'lowest', 'smallest', 'weakest', 'peores', 'menores', 'pires', 'piores', 'derniers', 'schlechtesten', 'niedrigsten', 'kleinsten']);
// Superlatives that rank only when the question names what is ranked ("which branch had the most
// loans", "les 3 genres avec le plus de prêts"); alone ("most loans") they stay unexplained words.
const MOST_WORDS = new Set(['most', 'more', 'greatest', 'mejor', 'mayor', 'mas', 'plus', 'meilleur', 'meilleure', 'meisten', 'meiste', 'mehr', 'hochste', 'grosste', 'beste', 'mais', 'maior', 'melhor']);
const LEAST_WORDS = new Set(['fewest', 'least', 'less', 'fewer', 'peor', 'menor', 'menos', 'moins', 'pire', 'wenigsten', 'wenigste', 'weniger', 'niedrigste', 'kleinste', 'schlechteste', 'pior']);
// "more than 3", "plus de 10", "mehr als 5": a comparison with a number restricts, it does not rank.
const COMPARISON_WORDS = new Set(['than', 'que', 'de', 'del', 'als', 'do', 'da']);
// German "am meisten": the article is part of the superlative.
const SUPERLATIVE_ARTICLES = new Set(['am']);
/** Rows of a ranking whose size the question does not give: one for "which branch", ten for "top branches". */
export const DEFAULT_PLURAL_TOP_LIMIT = 10;
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20,
  dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, diez: 10,
  deux: 2, trois: 3, quatre: 4, cinq: 5, dix: 10,
  zwei: 2, drei: 3, vier: 4, funf: 5, zehn: 10,
  dois: 2, quatro: 4, dez: 10,
};
// Adverbs that ask for a time breakdown without a marker: "monthly revenue", "Umsatz monatlich".
const GRAIN_ADVERBS: ReadonlyMap<string, Granularity> = new Map<string, Granularity>([
  ...['daily', 'diario', 'diaria', 'quotidien', 'quotidienne', 'taglich'].map((w) => [w, 'day'] as const),
  ...['weekly', 'semanal', 'hebdomadaire', 'wochentlich'].map((w) => [w, 'week'] as const),
  ...['monthly', 'mensual', 'mensuel', 'mensuelle', 'monatlich', 'mensal'].map((w) => [w, 'month'] as const),
  ...['quarterly', 'trimestral', 'trimestriel', 'quartalsweise'].map((w) => [w, 'quarter'] as const),
  ...['yearly', 'annual', 'anual', 'annuel', 'jahrlich'].map((w) => [w, 'year'] as const),
]);
/** Every grain adverb, as written. */
export const GRAIN_ADVERB_WORDS: readonly string[] = [...GRAIN_ADVERBS.keys()];
const MAX_DIMENSION_WORDS = 3;

export function isBreakdownMarker(raw: string): boolean {
  return BREAKDOWN_MARKERS.has(raw);
}

/** "monthly", "taglich": an adverb that asks for a time breakdown. */
export function isGrainAdverb(raw: string): boolean {
  return GRAIN_ADVERBS.has(raw);
}

function numberValue(raw: string): number | undefined {
  if (/^\d{1,3}$/.test(raw)) return Number(raw) > 0 ? Number(raw) : undefined;
  return NUMBER_WORDS[raw];
}

function rankDirection(raw: string): 'asc' | 'desc' | undefined {
  if (TOP_WORDS.has(raw) || MOST_WORDS.has(raw)) return 'desc';
  if (BOTTOM_WORDS.has(raw) || LEAST_WORDS.has(raw)) return 'asc';
  return undefined;
}

/** Words that rank ("most", "top", "highest") or count ("3", "three"): an article may stand before them. */
export function isRankingWord(raw: string): boolean {
  return TOP_WORDS.has(raw) || rankDirection(raw) !== undefined || numberValue(raw) !== undefined;
}

/** Words that start a breakdown or a ranking, or are its number: a value may stand before them, a preposition not. */
export function isGrammarWord(raw: string): boolean {
  return BREAKDOWN_MARKERS.has(raw) || rankDirection(raw) !== undefined || GRAIN_ADVERBS.has(raw) || numberValue(raw) !== undefined;
}

const phraseSets = new WeakMap<CatalogIndex, ReadonlySet<string>>();
/** Every dimension phrase of every reveal, as `stem stem`. */
function dimensionPhrases(index: CatalogIndex): ReadonlySet<string> {
  let phrases = phraseSets.get(index);
  if (!phrases) {
    phrases = new Set(index.reveals.flatMap((reveal) => reveal.dimensions.flatMap((dimension) => dimension.phrases.map((phrase) => phrase.join(' ')))));
    phraseSets.set(index, phrases);
  }
  return phrases;
}

/**
 * Words as the planner sees them; unknown long words are corrected to the nearest catalog word, or
 * to the nearest word of a stored value when that is closer (fewer edits; the catalog wins ties). A
 * grammar word read as a value (`valueReadings`, from `readGrammarValues`) is content, not a stop word.
 */
export function readWords(question: string, index: CatalogIndex, knownValues: KnownValues, valueReadings: ReadonlyMap<number, GrammarValueReading> = new Map()): QuestionWord[] {
  return tokenise(question).map((read, position) => {
    const token = valueReadings.get(position) === 'value' ? { ...read, stop: false } : read;
    const known = token.stop || isGrammarWord(token.raw) || index.vocabulary.has(token.stem) || knownValues.has(token.stem);
    if (known) return { position, raw: token.raw, stem: token.stem, stop: token.stop, corrected: false };
    // "rainy" → rain, "sunny" → sun: an adjective reaches the value or catalog word it is made from.
    const base = adjectiveBases(token.stem).find((candidate) => index.vocabulary.has(candidate) || knownValues.has(candidate));
    if (base) return { position, raw: token.raw, stem: base, stop: token.stop, corrected: true };
    // Short words, and short stems of longer words ("bought" → buy, "moved" → move, one letter from
    // "mode"), are too often another word to correct.
    if (token.raw.length < MIN_TYPO_LENGTH || token.stem.length < MIN_TYPO_LENGTH) return { position, raw: token.raw, stem: token.stem, stop: token.stop, corrected: false };
    const correction = closestWord(token.stem, index.vocabulary);
    const valueWord = knownValues.near?.(token.stem);
    if (valueWord !== undefined && (correction === undefined || transpositionDistance(token.stem, valueWord) < transpositionDistance(token.stem, correction))) {
      return { position, raw: token.raw, stem: valueWord, stop: token.stop, corrected: true, near: true };
    }
    return { position, raw: token.raw, stem: correction ?? token.stem, stop: token.stop, corrected: correction !== undefined };
  });
}

/**
 * Reads dimension phrases from `start`, joined by "and"/"y"/"et"/"und". Stops silently at a metric
 * word ("top 5 regions by revenue"): a marker may introduce the metric rather than a breakdown.
 */
function readDimensionList(words: readonly QuestionWord[], start: number, index: CatalogIndex, consumed: Set<number>, out: DimensionRequest[]): void {
  const phrases = dimensionPhrases(index);
  let i = start;
  for (;;) {
    while (i < words.length && words[i]!.stop && !CONNECTORS.has(words[i]!.raw)) i++;
    const first = words[i];
    if (!first || isGrammarWord(first.raw) || CONNECTORS.has(first.raw)) return;
    let matched = 0;
    for (let length = MAX_DIMENSION_WORDS; length >= 1 && matched === 0; length--) {
      const span = words.slice(i, i + length);
      if (span.length < length || span.some((word) => word.stop || isGrammarWord(word.raw))) continue;
      const stems = span.map((word) => word.stem);
      const grain = length === 1 ? GRAIN_WORDS.get(stems[0]!) : undefined;
      if (grain || phrases.has(stems.join(' '))) {
        out.push({ stems, words: span.map((word) => word.raw).join(' '), positions: span.map((word) => word.position), unknown: false, ...(grain ? { grain } : {}) });
        matched = length;
      }
    }
    if (matched === 0 && index.metricStems.has(first.stem)) {
      // "by sales channel": a metric word before a dimension phrase qualifies it; skip to the dimension.
      // Otherwise ("top 5 regions by revenue") the marker introduced the metric: no breakdown here.
      const next = words[i + 1];
      if (next && !next.stop && !isGrammarWord(next.raw) && (phrases.has(next.stem) || startsPhrase(phrases, words, i + 1))) {
        i++;
        continue;
      }
      return;
    }
    if (matched === 0) {
      out.push({ stems: [first.stem], words: first.raw, positions: [first.position], unknown: true });
      matched = 1;
    }
    for (let k = i; k < i + matched; k++) consumed.add(k);
    i += matched;
    if (i < words.length && CONNECTORS.has(words[i]!.raw)) {
      consumed.add(i);
      i++;
    } else {
      return;
    }
  }
}

/** Whether a dimension phrase of two or more words starts at `start`. */
function startsPhrase(phrases: ReadonlySet<string>, words: readonly QuestionWord[], start: number): boolean {
  for (let length = MAX_DIMENSION_WORDS; length >= 2; length--) {
    const span = words.slice(start, start + length);
    if (span.length === length && phrases.has(span.map((word) => word.stem).join(' '))) return true;
  }
  return false;
}

function readTop(words: readonly QuestionWord[], consumed: Set<number>, index: CatalogIndex, dimensions: DimensionRequest[]): TopRequest | undefined {
  for (let i = 0; i < words.length; i++) {
    const raw = words[i]!.raw;
    const direction = TOP_WORDS.has(raw) ? 'desc' : BOTTOM_WORDS.has(raw) ? 'asc' : undefined;
    if (!direction) continue;
    // "top 5", "5 best", "los 3 mejores": the number sits right before or right after the word.
    const numberAt = [i + 1, i - 1].find((j) => words[j] !== undefined && numberValue(words[j]!.raw) !== undefined);
    if (numberAt === undefined) continue;
    consumed.add(i);
    consumed.add(numberAt);
    const before = dimensions.length;
    readDimensionList(words, Math.max(i, numberAt) + 1, index, consumed, dimensions);
    return { limit: numberValue(words[numberAt]!.raw)!, direction, subjects: dimensions.length - before, at: i };
  }
  return readRankedSubject(words, consumed, index, dimensions);
}

function nextContent(words: readonly QuestionWord[], from: number): number {
  let i = from;
  while (i < words.length && words[i]!.stop) i++;
  return i;
}

/** "more than 3", "plus de 10": the superlative word compares with a number. */
function comparesWithNumber(words: readonly QuestionWord[], at: number): boolean {
  const next = words[at + 1];
  const afterNext = words[at + 2];
  if (next && numberValue(next.raw) !== undefined) return true;
  return next !== undefined && COMPARISON_WORDS.has(next.raw) && afterNext !== undefined && numberValue(afterNext.raw) !== undefined;
}

/** A plural subject ("branches", "canaux") asks for a list, a singular one ("branch") for the first. */
function looksPlural(raw: string): boolean {
  return /[^su]s$/.test(raw) || raw.endsWith('aux');
}

/**
 * Rankings without "top N": "which 3 branches had the most loans", "the 5 products with the
 * highest takings", "which clinic had the fewest visits", "top branches by loans", "qué clínica tuvo
 * más consultas". The subject is the first content word (after a number, or after a leading "top");
 * it must read as a dimension phrase, or the superlative is left unexplained and the question declined.
 */
function readRankedSubject(words: readonly QuestionWord[], consumed: Set<number>, index: CatalogIndex, dimensions: DimensionRequest[]): TopRequest | undefined {
  const at = words.findIndex((word, i) => rankDirection(word.raw) !== undefined && !consumed.has(i));
  if (at < 0 || comparesWithNumber(words, at)) return undefined;
  const direction = rankDirection(words[at]!.raw)!;
  const first = nextContent(words, 0);
  let subject = first;
  let limit: number | undefined;
  if (first === at) subject = nextContent(words, at + 1);
  else if (words[first] && numberValue(words[first]!.raw) !== undefined) {
    limit = numberValue(words[first]!.raw);
    subject = nextContent(words, first + 1);
  }
  if (subject >= words.length || subject === at) return undefined;
  const found: DimensionRequest[] = [];
  const used = new Set<number>();
  readDimensionList(words, subject, index, used, found);
  if (found.length === 0) return undefined;
  for (const position of used) consumed.add(position);
  consumed.add(at);
  if (limit !== undefined) consumed.add(first);
  if (at > 0 && SUPERLATIVE_ARTICLES.has(words[at - 1]!.raw)) consumed.add(at - 1);
  dimensions.push(...found);
  const lastSubjectWord = words[Math.max(...used)]!.raw;
  return { limit: limit ?? (looksPlural(lastSubjectWord) ? DEFAULT_PLURAL_TOP_LIMIT : 1), direction, subjects: found.length, at };
}

/**
 * `notMarkers`: positions of "by"/"nach"/"par" that introduce a value ("sold by Acme"), not a breakdown,
 * and of markers and grain adverbs inside a metric's own name ("goals per match", "average daily rate").
 */
export function readShape(words: readonly QuestionWord[], index: CatalogIndex, notMarkers: ReadonlySet<number> = new Set()): QuestionShape {
  const consumed = new Set<number>();
  const dimensions: DimensionRequest[] = [];
  const top = readTop(words, consumed, index, dimensions);
  words.forEach((word, position) => {
    if (consumed.has(position)) return;
    const grain = notMarkers.has(position) ? undefined : GRAIN_ADVERBS.get(word.raw);
    if (grain) {
      consumed.add(position);
      dimensions.push({ stems: [grain], words: word.raw, positions: [position], grain, unknown: false });
    } else if (BREAKDOWN_MARKERS.has(word.raw) && !notMarkers.has(position)) {
      consumed.add(position);
      readDimensionList(words, position + 1, index, consumed, dimensions);
    }
  });
  return { words, consumed, dimensions, ...(top ? { top } : {}) };
}
