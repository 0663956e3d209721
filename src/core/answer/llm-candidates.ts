// Retrieval for the language-model planner: the offline ranking picks the few metrics a question can
// be about, and only those (with their reveals' fields and a few known values) are shown to the model.
// The prompt then stays small whatever the size of the catalog, and the model can only choose among
// names the catalog holds.
import type { CatalogIndex, IndexedReveal } from './catalog-index.js';
import { trigramDice } from './fuzzy.js';
import { rankMetrics } from './metric-ranking.js';
import { readWords } from './question-shape.js';
import { normalise } from './text.js';
import { revealLookups } from './offline-planner.js';
import { knownValues, type ValueLookup } from './value-filters.js';

export interface CandidateMetric {
  readonly reveal: string;
  readonly name: string;
  readonly label: string;
  /** Named by the question (name, label or synonym): only such a pick may be high confidence. */
  readonly namedInQuestion: boolean;
}

export interface CandidateReveal {
  readonly name: string;
  readonly label: string;
  /** Field ids the plan may break down by: string dimensions and the time field at each grain. */
  readonly dimensions: readonly string[];
  /** Field ids the plan may filter on (string dimensions). */
  readonly filterFields: readonly string[];
  readonly fieldLabels: ReadonlyMap<string, string>;
  /** Every known value of a filter field (to validate), of which the prompt shows a few. */
  readonly values: ReadonlyMap<string, readonly string[]>;
}

export interface Retrieval {
  /** Best first. */
  readonly metrics: readonly CandidateMetric[];
  readonly reveals: readonly CandidateReveal[];
}

export interface RetrievalOptions {
  readonly domain?: string;
  readonly values?: (reveal: string) => ReadonlyMap<string, readonly string[]>;
  readonly lookup?: (reveal: string) => ValueLookup | undefined;
  readonly maxCandidates: number;
}

/**
 * When the ranking finds fewer metrics than this (a question in words no synonym covers), the labels
 * most like the question fill up, so the model can still recognise what the ranking could not.
 */
const MIN_CANDIDATES = 3;
const GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
const NO_VALUES: ReadonlyMap<string, readonly string[]> = new Map();

function describeReveal(reveal: IndexedReveal, values: ReadonlyMap<string, readonly string[]>): CandidateReveal {
  // The index already leaves out hidden and time dimensions; time is asked for through a grain.
  const fields = reveal.dimensions;
  const grains = reveal.timeField ? GRAINS.map((grain) => `${reveal.timeField}.${grain}`) : [];
  return {
    name: reveal.name,
    label: reveal.label,
    dimensions: [...fields.map((field) => field.field), ...grains],
    filterFields: fields.filter((field) => field.type === 'string').map((field) => field.field),
    fieldLabels: new Map(fields.map((field) => [field.field, field.label])),
    values,
  };
}

export function retrieveCandidates(question: string, index: CatalogIndex, options: RetrievalOptions): Retrieval {
  const reveals = options.domain === undefined ? index.reveals : index.reveals.filter((reveal) => reveal.domain === options.domain);
  const lookups = revealLookups(reveals, options);
  const valuesOf = (reveal: string): ReadonlyMap<string, readonly string[]> => {
    const lookup = options.lookup?.(reveal);
    if (!lookup) return options.values?.(reveal) ?? NO_VALUES;
    const fields = reveals.find((candidate) => candidate.name === reveal)?.dimensions ?? [];
    return new Map(fields.filter((field) => field.type === 'string').map((field) => [field.field, lookup.fieldValues(field.field)]));
  };
  const stems = readWords(question, index, knownValues(lookups.values()))
    .filter((word) => !word.stop)
    .map((word) => word.stem);

  const picked = new Map<string, CandidateMetric>();
  for (const candidate of rankMetrics(stems, reveals, index)) {
    if (picked.size >= options.maxCandidates) break;
    const { metric } = candidate;
    picked.set(`${metric.reveal}.${metric.name}`, { reveal: metric.reveal, name: metric.name, label: metric.label, namedInQuestion: candidate.matchedBy !== 'description' });
  }
  const floor = Math.min(MIN_CANDIDATES, options.maxCandidates);
  if (picked.size < floor) {
    const text = normalise(question);
    const similar = reveals
      .flatMap((reveal) => reveal.metrics)
      .map((metric) => ({ metric, similarity: trigramDice(text, normalise(metric.label)) }))
      .sort((a, b) => b.similarity - a.similarity);
    for (const { metric } of similar) {
      if (picked.size >= floor) break;
      const key = `${metric.reveal}.${metric.name}`;
      if (!picked.has(key)) picked.set(key, { reveal: metric.reveal, name: metric.name, label: metric.label, namedInQuestion: false });
    }
  }

  const metrics = [...picked.values()];
  const revealNames = [...new Set(metrics.map((metric) => metric.reveal))];
  return {
    metrics,
    reveals: revealNames.map((name) => describeReveal(reveals.find((reveal) => reveal.name === name)!, valuesOf(name))),
  };
}
