// What the offline planner knows about a model, built once per deployed model: for every reveal its
// metrics as phrases (name, label, synonyms) and the dimensions reachable from its base node, all in
// stemmed form, plus word weights (inverse document frequency over metrics) for ranking.
import type { Granularity, SemanticModel, SemanticNode } from '../semantic/model.js';
import { contentStems, identifierWords } from './text.js';

export type PhraseSource = 'name' | 'label' | 'synonym';

export interface MetricPhrase {
  readonly stems: readonly string[];
  readonly source: PhraseSource;
}

export interface IndexedMetric {
  readonly reveal: string;
  readonly name: string;
  readonly label: string;
  readonly phrases: readonly MetricPhrase[];
  /** Content stems of the description: a weak signal, used only when nothing else matched. */
  readonly descriptionStems: ReadonlySet<string>;
}

export interface IndexedDimension {
  /** Field id relative to the reveal's base node (`channel`, `customers.segment`). */
  readonly field: string;
  readonly label: string;
  readonly type: string;
  /** Declared on the base node itself: wins ties against a joined node's dimension of the same name. */
  readonly onBase: boolean;
  readonly phrases: readonly (readonly string[])[];
}

export interface IndexedReveal {
  readonly name: string;
  readonly domain: string;
  readonly label: string;
  /** Field id of the default time dimension (`created_at`), when the reveal has one. */
  readonly timeField?: string;
  readonly metrics: readonly IndexedMetric[];
  readonly dimensions: readonly IndexedDimension[];
  /** Every stem of a dimension phrase of this reveal: such words are explained in a question. */
  readonly dimensionStems: ReadonlySet<string>;
}

export interface CatalogIndex {
  readonly reveals: readonly IndexedReveal[];
  /** Inverse document frequency of metric phrase stems, documents being metrics. */
  readonly metricWeight: (stem: string) => number;
  /** Inverse document frequency of description stems. */
  readonly descriptionWeight: (stem: string) => number;
  /** Stems of metric phrases and dimension phrases of every reveal: the targets of typo correction. */
  readonly vocabulary: ReadonlySet<string>;
  /** Stems of metric phrases, across reveals. */
  readonly metricStems: ReadonlySet<string>;
  /** Stems of dimension phrases, across reveals. */
  readonly dimensionStems: ReadonlySet<string>;
}

/** Time grains a question can break down by ("by month"), in the words the lexicon reduces to. */
export const GRAIN_WORDS: ReadonlyMap<string, Granularity> = new Map<string, Granularity>([
  ['day', 'day'],
  ['week', 'week'],
  ['month', 'month'],
  ['quarter', 'quarter'],
  ['year', 'year'],
]);

function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

function phraseKey(stems: readonly string[]): string {
  return stems.join(' ');
}

function indexMetrics(model: SemanticModel, revealName: string): IndexedMetric[] {
  const reveal = model.reveals.get(revealName)!;
  return [...reveal.metrics.values()].map((metric) => {
    const candidates: MetricPhrase[] = [
      { stems: contentStems(identifierWords(metric.name)), source: 'name' },
      { stems: contentStems(metric.label), source: 'label' },
      ...metric.synonyms.map((synonym) => ({ stems: contentStems(synonym), source: 'synonym' as const })),
    ];
    const seen = new Set<string>();
    const phrases = candidates.filter((phrase) => {
      const key = phraseKey(phrase.stems);
      if (phrase.stems.length === 0 || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { reveal: revealName, name: metric.name, label: metric.label, phrases, descriptionStems: new Set(contentStems(metric.description)) };
  });
}

/**
 * Nodes a reveal can reach from its base by following joins declared towards the "one" side
 * (many_to_one, one_to_one): breaking a metric down by such a node's dimension never fans rows out.
 */
export function reachableNodes(model: SemanticModel, base: string): Array<{ node: SemanticNode; path: string | undefined }> {
  const found: Array<{ node: SemanticNode; path: string | undefined }> = [];
  const visited = new Set<string>();
  const visit = (name: string, path: string | undefined): void => {
    const node = model.nodes.get(name);
    if (!node || visited.has(name)) return;
    visited.add(name);
    found.push({ node, path });
    for (const join of node.joins) {
      if (join.relationship === 'one_to_many') continue;
      visit(join.to, join.to);
    }
  };
  visit(base, undefined);
  return found;
}

function indexDimensions(model: SemanticModel, base: string): IndexedDimension[] {
  const dimensions: IndexedDimension[] = [];
  for (const { node, path } of reachableNodes(model, base)) {
    const nodeWords = unique([contentStems(identifierWords(node.name)), contentStems(node.label)].map(phraseKey)).map((key) => key.split(' '));
    for (const dimension of node.dimensions.values()) {
      if (dimension.hidden) continue;
      // Time dimensions are asked for through a grain ("by month"); their labels ("Ordered at") would
      // otherwise read "by orders" as a breakdown by order date.
      if (dimension.type === 'date' || dimension.type === 'timestamp') continue;
      const own = unique([phraseKey(contentStems(identifierWords(dimension.name))), phraseKey(contentStems(dimension.label))])
        .filter((key) => key !== '')
        .map((key) => key.split(' '));
      // A joined node's dimension can also be named with its node: "customer segment".
      const qualified = path === undefined ? [] : nodeWords.flatMap((words) => own.map((phrase) => [...words, ...phrase]));
      dimensions.push({
        field: path === undefined ? dimension.name : `${path}.${dimension.name}`,
        label: dimension.label,
        type: dimension.type,
        onBase: path === undefined,
        phrases: [...own, ...qualified],
      });
    }
  }
  return dimensions;
}

function inverseDocumentFrequency(documents: ReadonlyArray<ReadonlySet<string>>): (stem: string) => number {
  const frequency = new Map<string, number>();
  for (const document of documents) for (const stem of document) frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
  const total = documents.length;
  // BM25's idf: rare words (a metric's own name) weigh more than words many metrics share ("order").
  return (stem) => {
    const n = frequency.get(stem) ?? 0;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  };
}

export function buildCatalogIndex(model: SemanticModel): CatalogIndex {
  const reveals: IndexedReveal[] = [...model.reveals.values()].map((reveal) => {
    const dimensions = indexDimensions(model, reveal.base);
    const timeField = reveal.time ? (reveal.time.node === reveal.base ? reveal.time.dimension : `${reveal.time.node}.${reveal.time.dimension}`) : undefined;
    return {
      name: reveal.name,
      domain: reveal.domain,
      label: reveal.label,
      ...(timeField ? { timeField } : {}),
      metrics: indexMetrics(model, reveal.name),
      dimensions,
      dimensionStems: new Set(dimensions.flatMap((dimension) => dimension.phrases.flat())),
    };
  });
  const metrics = reveals.flatMap((reveal) => reveal.metrics);
  const metricStems = new Set(metrics.flatMap((metric) => metric.phrases.flatMap((phrase) => phrase.stems)));
  const dimensionStems = new Set(reveals.flatMap((reveal) => [...reveal.dimensionStems]));
  return {
    reveals,
    metricWeight: inverseDocumentFrequency(metrics.map((metric) => new Set(metric.phrases.flatMap((phrase) => phrase.stems)))),
    descriptionWeight: inverseDocumentFrequency(metrics.map((metric) => metric.descriptionStems)),
    vocabulary: new Set([...metricStems, ...dimensionStems, ...GRAIN_WORDS.keys()]),
    metricStems,
    dimensionStems,
  };
}
