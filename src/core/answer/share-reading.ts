// "What share of trips were electric", "percentage of transfers sent from Spain", "share of each rider
// type in fare revenue", "Anteil der Fahrten …": a part over its whole. The word that asks for a share
// is the plan's, unless a metric's own name holds it and every other word of that name is in the
// question ("e-bike share", "share of orders that were cancelled" for a metric "share of cancelled
// orders"): then the model declares the share, and its metric answers when it is that very share (the
// same metric over the rows of the value named), else the question is declined. Completing the plan decides the
// part: the value the question names last ("electric"), or, without one, each group of the breakdown.
import type { CatalogIndex, IndexedMetric } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';

/** Nouns that ask for a part of a whole, in six languages (accents stripped). */
const SHARE_WORDS = new Set(
  'share shares percentage percentages percent fraction proportion portion porcentaje proporcion fraccion parte part pourcentage anteil prozentsatz quote quota porcentagem proporcao percentuale frazione'.split(' '),
);

export interface ShareReading {
  /** Position of the word that asks for a share. */
  readonly cue: number;
  /** A metric whose own name holds the share word and every other word of which the question uses, in another order. */
  readonly declared?: IndexedMetric;
}

/** Positions of content words inside a metric phrase the question spells out in full. */
function insideMetricNames(words: readonly QuestionWord[], index: CatalogIndex): Set<number> {
  const content = words.filter((word) => !word.stop);
  const inside = new Set<number>();
  for (const reveal of index.reveals) {
    for (const metric of reveal.metrics) {
      for (const { stems } of metric.phrases) {
        if (stems.length < 2) continue;
        for (let start = 0; start + stems.length <= content.length; start++) {
          if (stems.every((stem, k) => content[start + k]!.stem === stem)) for (const word of content.slice(start, start + stems.length)) inside.add(word.position);
        }
      }
    }
  }
  return inside;
}

/**
 * Whether a metric's phrase that holds the share word has all its words in the question, in any
 * order ("share of orders that were cancelled" for a cancellation rate called "share of cancelled
 * orders"): the model declares that share, and the metric answers it.
 */
function declaredShare(words: readonly QuestionWord[], stem: string, index: CatalogIndex): IndexedMetric | undefined {
  const stems = new Set(words.filter((word) => !word.stop).map((word) => word.stem));
  return index.reveals
    .flatMap((reveal) => reveal.metrics)
    .find((metric) => metric.phrases.some((phrase) => phrase.stems.length > 1 && phrase.stems.includes(stem) && phrase.stems.every((s) => stems.has(s))));
}

/** "share of", "Anteil der", "part des", "quota dei": a share word asks for one only before what it is of. */
const OF_WORDS = new Set('of de des du d der des von del dei degli delle della di do da dos das'.split(' '));

export function readShare(words: readonly QuestionWord[], index: CatalogIndex): ShareReading | undefined {
  const named = insideMetricNames(words, index);
  const at = words.findIndex((word, position) => SHARE_WORDS.has(word.raw) && !named.has(position) && OF_WORDS.has(words[position + 1]?.raw ?? ''));
  if (at < 0) return undefined;
  const declared = declaredShare(words, words[at]!.stem, index);
  return { cue: at, ...(declared ? { declared } : {}) };
}

/**
 * The label of a metric whose description tells the share asked for: every content word of the
 * question is in it ("share of orders that were cancelled" and a cancellation rate described as "Share
 * of orders that were cancelled or refunded"). The model then has its own definition of that share,
 * which a description alone may not govern, and the share of one value may differ from it.
 */
export function describedShare(stems: readonly string[], metrics: CatalogIndex['reveals'][number]['metrics']): string | undefined {
  return metrics.find((metric) => stems.length > 1 && stems.every((stem) => metric.descriptionStems.has(stem)))?.label;
}
