// Words of a question that sit inside a metric's whole name, as any metric of the catalog spells it:
// there, a value of several words ("home win" in "home win rate"), a breakdown marker ("goals per
// match") or a grain adverb ("average daily rate") is the metric's, not a filter, a breakdown or a grain;
// a ranking word ("which station had the highest temperature") ranks and names the metric too.
import type { CatalogIndex } from './catalog-index.js';
import { GRAIN_ADVERB_WORDS, isBreakdownMarker, isGrainAdverb, isRankingWord, type QuestionShape, type QuestionWord } from './question-shape.js';
import { stem } from './text.js';
import { findValueMatches, type ValueLookup } from './value-filters.js';

/** Positions of values of two or more words, except those inside or equal to a metric's whole name. */
export function multiWordValuePositions(words: readonly QuestionWord[], consumed: ReadonlySet<number>, lookups: readonly ValueLookup[], index: CatalogIndex): Set<number> {
  const positions = new Set<number>();
  for (const lookup of lookups) {
    for (const match of findValueMatches(words, consumed, lookup, 2)) {
      // "home win rate": the value 'home win' inside the whole name of a metric is the metric's.
      if (insideMetricPhrase(words, match.positions, index)) continue;
      for (const position of match.positions) positions.add(position);
    }
  }
  return positions;
}

/** Whether the words at `positions` sit inside a metric phrase that the question spells out whole. */
function insideMetricPhrase(words: readonly QuestionWord[], positions: readonly number[], index: CatalogIndex): boolean {
  const content = words.filter((word) => !word.stop);
  const at = content.findIndex((word) => word.position === positions[0]);
  const span = positions.map((position) => words[position]!.stem);
  return index.reveals.some((reveal) =>
    reveal.metrics.some((metric) =>
      metric.phrases.some(({ stems }) => {
        // The metric's whole name too ("away wins" for the value 'away win' and the metric Away wins):
        // beside another metric, the value still gives way to it (valuesOverMetrics).
        if (stems.length < span.length) return false;
        for (let offset = 0; offset + span.length <= stems.length; offset++) {
          const start = at - offset;
          if (start < 0 || start + stems.length > content.length) continue;
          if (stems.every((stem, k) => content[start + k]!.stem === stem)) return true;
        }
        return false;
      }),
    ),
  );
}

const markerPhrases = new WeakMap<CatalogIndex, ReadonlyArray<readonly string[]>>();
const GRAIN_ADVERB_STEMS = new Set(GRAIN_ADVERB_WORDS.map(stem));

/**
 * Breakdown markers and grain adverbs inside a metric's own name as the question writes it ("goals
 * per match", "Tore pro Spiel", "average daily rate"): part of the metric, not a breakdown, a time
 * grain nor a ratio of two metrics.
 */
export function markersInMetricNames(words: readonly QuestionWord[], index: CatalogIndex): Set<number> {
  let phrases = markerPhrases.get(index);
  if (!phrases) {
    phrases = index.reveals
      .flatMap((reveal) => reveal.metrics.flatMap((metric) => metric.phrases.map((phrase) => phrase.stems)))
      .filter((stems) => stems.some((stem) => isBreakdownMarker(stem) || GRAIN_ADVERB_STEMS.has(stem)));
    markerPhrases.set(index, phrases);
  }
  const found = new Set<number>();
  if (phrases.length === 0) return found;
  const content = words.filter((word) => !word.stop);
  for (const phrase of phrases) {
    for (let start = 0; start + phrase.length <= content.length; start++) {
      if (!phrase.every((stem, k) => content[start + k]!.stem === stem)) continue;
      for (const word of content.slice(start, start + phrase.length)) {
        if (isBreakdownMarker(word.raw) || isGrainAdverb(word.raw)) found.add(word.position);
      }
    }
  }
  return found;
}

/**
 * Ranking words the shape used up that also begin or sit inside a metric's whole name as the question
 * spells it ("the highest temperature" for Highest temperature, "the largest parcel"): the metric
 * ranked by is that one, not the one the other words name ("temperature" alone is the average).
 */
export function rankingWordsInMetricNames(words: readonly QuestionWord[], shape: QuestionShape, index: CatalogIndex): QuestionWord[] {
  if (!shape.top) return [];
  const content = words.filter((word) => !word.stop);
  const found = new Set<QuestionWord>();
  for (const reveal of index.reveals) {
    for (const metric of reveal.metrics) {
      for (const { stems } of metric.phrases) {
        if (stems.length < 2) continue;
        for (let start = 0; start + stems.length <= content.length; start++) {
          const span = content.slice(start, start + stems.length);
          if (!stems.every((stem, k) => span[k]!.stem === stem)) continue;
          for (const word of span) if (shape.consumed.has(word.position) && isRankingWord(word.raw)) found.add(word);
        }
      }
    }
  }
  return [...found];
}
