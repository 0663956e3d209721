// Which words of a question are the chosen metrics' own. A metric's words are where its phrase stands
// whole ("meter reads"); the same stem once more elsewhere ("meter reads in Reading") may be a value
// and is offered to the values first. A word of one of the chosen metric's phrases left over once
// values and breakdowns are read ("Canadian energy consumption" for Energy used, synonym
// "consumption") restates the metric and is its word too.
import type { IndexedMetric } from './catalog-index.js';
import type { MetricCandidate } from './metric-ranking.js';
import type { QuestionWord } from './question-shape.js';

/** Positions of `content` inside a whole occurrence of a phrase of two or more words of one of `metrics`. */
function longPhrasePositions(metrics: readonly IndexedMetric[], content: readonly QuestionWord[]): Set<number> {
  const inside = new Set<number>();
  for (const metric of metrics) {
    for (const { stems } of metric.phrases) {
      if (stems.length < 2) continue;
      for (let start = 0; start + stems.length <= content.length; start++) {
        if (!stems.every((stem, k) => content[start + k]!.stem === stem)) continue;
        for (let k = 0; k < stems.length; k++) inside.add(content[start + k]!.position);
      }
    }
  }
  return inside;
}

export interface MetricWordSplit {
  /** Words of the chosen metrics. */
  readonly metricWords: Set<number>;
  /** Repeats of a metric word: values first, else the metric's. */
  readonly repeats: readonly number[];
}

/**
 * The chosen metrics' words among `content` (question order, reserved values left out). Each stem has
 * one home: its place inside a phrase of several words ("meter reads"), else its first mention; its
 * other mentions are repeats ("Reading" after "readings").
 */
export function splitMetricWords(chosen: readonly MetricCandidate[], content: readonly QuestionWord[]): MetricWordSplit {
  const covered = content.filter((word) => chosen.some((candidate) => candidate.covered.has(word.stem)));
  const inside = longPhrasePositions(
    chosen.map((candidate) => candidate.metric),
    content,
  );
  const home = new Map<string, number>();
  for (const word of covered) {
    const earlier = home.get(word.stem);
    if (earlier === undefined || (!inside.has(earlier) && inside.has(word.position))) home.set(word.stem, word.position);
  }
  const repeats = covered.filter((word) => home.get(word.stem) !== word.position && !inside.has(word.position)).map((word) => word.position);
  return { metricWords: new Set(covered.map((word) => word.position).filter((position) => !repeats.includes(position))), repeats };
}

/**
 * Positions of `leftover` words that belong to a phrase of one of `chosen` and name no other metric
 * of `all`: not a one-word phrase of another ("buyers and customers" names Customers, not Buyers'
 * "active customers"). A word read as a typo of such a word restates nothing ("cross-border" is not
 * "gross").
 */
export function restatingWords(leftover: readonly QuestionWord[], chosen: readonly IndexedMetric[], all: readonly IndexedMetric[]): number[] {
  const own = new Set(chosen.flatMap((metric) => metric.phrases.flatMap((phrase) => phrase.stems)));
  const others = new Set(
    all
      .filter((metric) => !chosen.includes(metric))
      .flatMap((metric) => metric.phrases.filter((phrase) => phrase.stems.length === 1).map((phrase) => phrase.stems[0]!)),
  );
  return leftover.filter((word) => !word.corrected && own.has(word.stem) && !others.has(word.stem)).map((word) => word.position);
}
