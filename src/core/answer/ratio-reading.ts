// "X per Y" over two metrics: "fare revenue per trip", "transfers per sender", "room revenue per room
// night", "Zimmerumsatz pro Zimmernacht". A breakdown marker the shape reader used up without a
// dimension after it ("per station" is a breakdown by station; "per trip" is not) introduces a
// divisor when the words right after it name exactly one metric in full. The plan then carries the
// numerator as its metric and `per: { by }`: the server answers with the ratio metric the model
// declares for the two, or with the semantic layer's `per`. The divisor's words are kept from the
// ranking of the numerator. "fees per dollar sent", "fuel cost per kilometre driven": a unit, then
// words that name one metric measured in it ("money sent"), is that metric.
import { findUnit, UNITS, type Unit } from '../semantic/units.js';
import type { CatalogIndex, IndexedMetric, IndexedReveal } from './catalog-index.js';
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

/** The unit a word names, in the plural or the singular ("dollar", "kilometre", "minute"). */
function namedUnit(word: QuestionWord): Unit | undefined {
  if (word.stop) return undefined;
  return findUnit(word.raw) ?? findUnit(`${word.raw}s`) ?? findUnit(word.stem) ?? UNITS.find((unit) => unit.display.singular?.trim() === word.raw);
}

/**
 * "dollar sent", "kilometre driven": the one metric measured in the unit the first word names whose
 * name, label or synonym holds every other word. The words are needed: "per dollar" alone could be
 * any metric in dollars, "per minute" a rate over time.
 */
function unitDivisor(span: readonly QuestionWord[], reveals: readonly IndexedReveal[]): MetricCandidate | undefined {
  const unit = span[0] && namedUnit(span[0]);
  const rest = span.slice(1).map((word) => word.stem);
  if (!unit || rest.length === 0) return undefined;
  const phraseOf = (metric: IndexedMetric) => metric.phrases.find((phrase) => rest.every((stem) => phrase.stems.includes(stem)));
  const found = reveals.flatMap((reveal) => reveal.metrics).filter((metric) => metric.unit !== undefined && findUnit(metric.unit) === unit && phraseOf(metric) !== undefined);
  if (found.length !== 1) return undefined;
  const metric = found[0]!;
  return { metric, score: 1, full: true, matchedBy: phraseOf(metric)!.source, covered: new Set(span.map((word) => word.stem)) };
}

/** The "per <metric>" of the question, when it has one. */
export function readRatio(words: readonly QuestionWord[], shape: QuestionShape, index: CatalogIndex, reveals: readonly IndexedReveal[]): RatioReading | undefined {
  // In a ranking "por ventas", "par chiffre d'affaires" name what it ranks by.
  if (shape.top) return undefined;
  for (const [position, word] of words.entries()) {
    if (!RATIO_MARKERS.has(word.raw) || !shape.consumed.has(position)) continue;
    let start = position + 1;
    while (start < words.length && words[start]!.stop) start++;
    // A unit is no dimension: the shape may have read "per dollar" as an unknown breakdown.
    const unknown = new Set(shape.dimensions.filter((request) => request.unknown).flatMap((request) => request.positions));
    const span: QuestionWord[] = [];
    for (let at = start; at < words.length && span.length < MAX_DIVISOR_WORDS; at++) {
      const next = words[at]!;
      if (next.stop || (shape.consumed.has(at) && !unknown.has(at))) break;
      span.push(next);
    }
    // The longest run of words that is exactly one metric's phrase.
    for (let length = span.length; length >= 1; length--) {
      if (span.slice(0, length).some((w) => unknown.has(w.position))) continue;
      const stems = span.slice(0, length).map((w) => w.stem);
      const choice = chooseMetrics(rankMetrics(stems, reveals, index));
      if (choice.kind !== 'chosen' || choice.metrics.length !== 1) continue;
      const divisor = choice.metrics[0]!;
      if (!divisor.full || divisor.matchedBy === 'description' || !stems.every((stem) => divisor.covered.has(stem))) continue;
      return { marker: position, positions: span.slice(0, length).map((w) => w.position), divisor };
    }
    const byUnit = unitDivisor(span, reveals);
    if (byUnit) return { marker: position, positions: span.map((w) => w.position), divisor: byUnit };
  }
  return undefined;
}
