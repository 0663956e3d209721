// "X per Y" over two metrics: "fare revenue per trip", "transfers per sender", "room revenue per room
// night", "Zimmerumsatz pro Zimmernacht". A breakdown marker the shape reader used up without a
// dimension after it ("per station" is a breakdown by station; "per trip" is not) introduces a
// divisor when the words right after it name exactly one metric in full. The plan then carries the
// numerator as its metric and `per: { by }`: the server answers with the ratio metric the model
// declares for the two, or with the semantic layer's `per`. The divisor's words are kept from the
// ranking of the numerator.
import type { CatalogIndex, IndexedReveal } from './catalog-index.js';
import { chooseMetrics, rankMetrics, type MetricCandidate } from './metric-ranking.js';
import type { QuestionShape, QuestionWord } from './question-shape.js';

/** Markers of a ratio: "per", "pro", "je" (de), "por" (es, pt), "par" (fr). */
const RATIO_MARKERS = new Set(['per', 'pro', 'je', 'por', 'par']);
const MAX_DIVISOR_WORDS = 3;

export interface RatioReading {
  /** The marker's position. */
  readonly marker: number;
  /** Positions of the divisor's words. */
  readonly positions: readonly number[];
  readonly divisor: MetricCandidate;
}

/** The "per <metric>" of the question, when it has one. */
export function readRatio(words: readonly QuestionWord[], shape: QuestionShape, index: CatalogIndex, reveals: readonly IndexedReveal[]): RatioReading | undefined {
  // In a ranking "por ventas", "par chiffre d'affaires" name what it ranks by.
  if (shape.top) return undefined;
  for (const [position, word] of words.entries()) {
    if (!RATIO_MARKERS.has(word.raw) || !shape.consumed.has(position)) continue;
    let start = position + 1;
    while (start < words.length && words[start]!.stop) start++;
    const span: QuestionWord[] = [];
    for (let at = start; at < words.length && span.length < MAX_DIVISOR_WORDS; at++) {
      const next = words[at]!;
      if (next.stop || shape.consumed.has(at)) break;
      span.push(next);
    }
    // The longest run of words that is exactly one metric's phrase.
    for (let length = span.length; length >= 1; length--) {
      const stems = span.slice(0, length).map((w) => w.stem);
      const choice = chooseMetrics(rankMetrics(stems, reveals, index));
      if (choice.kind !== 'chosen' || choice.metrics.length !== 1) continue;
      const divisor = choice.metrics[0]!;
      if (!divisor.full || divisor.matchedBy === 'description' || !stems.every((stem) => divisor.covered.has(stem))) continue;
      return { marker: position, positions: span.slice(0, length).map((w) => w.position), divisor };
    }
  }
  return undefined;
}
