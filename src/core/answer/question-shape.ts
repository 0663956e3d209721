// The grammar of a question around its metrics: "by X" / "per X" / "nach X" breakdowns, "monthly",
// "top 5 X" / "los 3 mejores X", and typo correction of unknown words. Dimensions are only read here
// as phrases; which field they name depends on the reveal, decided later.
import type { Granularity } from '../semantic/model.js';
import { GRAIN_WORDS, type CatalogIndex } from './catalog-index.js';
import { closestWord, MIN_TYPO_LENGTH } from './fuzzy.js';
import type { GrammarValueReading } from './grammar-values.js';
import { tokenise } from './text.js';

export interface QuestionWord {
  readonly position: number;
  readonly raw: string;
  /** After typo correction, when there was one. */
  readonly stem: string;
  readonly stop: boolean;
  readonly corrected: boolean;
}

/** A breakdown the question asks for, before it is resolved against a reveal. */
export interface DimensionRequest {
  readonly stems: readonly string[];
  /** The words as written, for messages. */
  readonly words: string;
  readonly grain?: Granularity;
  /** True when no dimension of any reveal has this name: the breakdown cannot resolve. */
  readonly unknown: boolean;
}

export interface TopRequest {
  readonly limit: number;
  readonly direction: 'asc' | 'desc';
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
const CONNECTORS = new Set(['and', 'y', 'et', 'und', 'e', 'then']);
const TOP_WORDS = new Set(['top', 'best', 'highest', 'biggest', 'largest', 'leading', 'mejores', 'mayores', 'principales', 'meilleurs', 'meilleures', 'premiers', 'premieres', 'besten', 'hochsten', 'grossten', 'melhores', 'maiores']);
const BOTTOM_WORDS = new Set(['worst', 'bottom', 'lowest', 'smallest', 'weakest', 'peores', 'menores', 'pires', 'piores', 'derniers', 'schlechtesten', 'niedrigsten', 'kleinsten']);
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
const MAX_DIMENSION_WORDS = 3;

export function isBreakdownMarker(raw: string): boolean {
  return BREAKDOWN_MARKERS.has(raw);
}

function numberValue(raw: string): number | undefined {
  if (/^\d{1,3}$/.test(raw)) return Number(raw) > 0 ? Number(raw) : undefined;
  return NUMBER_WORDS[raw];
}

/** Words that start a breakdown or a top-N, or are its number: a value may stand before them, a preposition not. */
export function isGrammarWord(raw: string): boolean {
  return BREAKDOWN_MARKERS.has(raw) || TOP_WORDS.has(raw) || BOTTOM_WORDS.has(raw) || GRAIN_ADVERBS.has(raw) || numberValue(raw) !== undefined;
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
 * Words as the planner sees them; unknown long words are corrected to the nearest catalog word. A
 * grammar word read as a value (`valueReadings`, from `readGrammarValues`) is content, not a stop word.
 */
export function readWords(question: string, index: CatalogIndex, knownValueStems: Pick<ReadonlySet<string>, 'has'>, valueReadings: ReadonlyMap<number, GrammarValueReading> = new Map()): QuestionWord[] {
  return tokenise(question).map((raw, position) => {
    const token = valueReadings.get(position) === 'value' ? { ...raw, stop: false } : raw;
    const known = token.stop || isGrammarWord(token.raw) || index.vocabulary.has(token.stem) || knownValueStems.has(token.stem);
    if (known || token.raw.length < MIN_TYPO_LENGTH) return { position, raw: token.raw, stem: token.stem, stop: token.stop, corrected: false };
    const correction = closestWord(token.stem, index.vocabulary);
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
        out.push({ stems, words: span.map((word) => word.raw).join(' '), unknown: false, ...(grain ? { grain } : {}) });
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
      out.push({ stems: [first.stem], words: first.raw, unknown: true });
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
    readDimensionList(words, Math.max(i, numberAt) + 1, index, consumed, dimensions);
    return { limit: numberValue(words[numberAt]!.raw)!, direction };
  }
  return undefined;
}

/** `notMarkers`: positions of "by"/"nach"/"par" that introduce a value ("sold by Acme"), not a breakdown. */
export function readShape(words: readonly QuestionWord[], index: CatalogIndex, notMarkers: ReadonlySet<number> = new Set()): QuestionShape {
  const consumed = new Set<number>();
  const dimensions: DimensionRequest[] = [];
  const top = readTop(words, consumed, index, dimensions);
  words.forEach((word, position) => {
    if (consumed.has(position)) return;
    const grain = GRAIN_ADVERBS.get(word.raw);
    if (grain) {
      consumed.add(position);
      dimensions.push({ stems: [grain], words: word.raw, grain, unknown: false });
    } else if (BREAKDOWN_MARKERS.has(word.raw) && !notMarkers.has(position)) {
      consumed.add(position);
      readDimensionList(words, position + 1, index, consumed, dimensions);
    }
  });
  return { words, consumed, dimensions, ...(top ? { top } : {}) };
}
