// Filters from values named in a question: "revenue in Europe" → ship_region = 'Europe', "web and
// mobile orders" → channel in ('web', 'mobile'). Values are the distinct values of string dimensions,
// looked up from the data by the caller and kept in a value store (value-index.ts); they are matched
// on whole words and returned as stored.
import type { IndexedReveal } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';
import { ValueStore, type ValueLookup, type ValuePhrase } from './value-index.js';

export type { ValueLookup, ValuePhrase } from './value-index.js';

export interface Filter {
  readonly field: string;
  readonly operator: 'equals' | 'in';
  readonly value: string | readonly string[];
  /** A value was found through a typo-corrected word: the answer should say which value it assumed. */
  readonly near?: boolean;
}

// Callers that hold plain value lists cache them per reveal; the store built from them is cached alongside.
const lookups = new WeakMap<ReadonlyMap<string, readonly string[]>, Map<string, ValueLookup>>();

/** A store over `values` (by field id), restricted to the reveal's string dimensions. */
export function valueLookup(reveal: IndexedReveal, values: ReadonlyMap<string, readonly string[]>): ValueLookup {
  const perReveal = lookups.get(values) ?? new Map<string, ValueLookup>();
  lookups.set(values, perReveal);
  const cached = perReveal.get(reveal.name);
  if (cached) return cached;
  const fields = reveal.dimensions.filter((dimension) => dimension.type === 'string' && values.has(dimension.field));
  const lookup = ValueStore.build(fields.map((dimension) => ({ field: dimension.field, values: values.get(dimension.field)! })));
  perReveal.set(reveal.name, lookup);
  return lookup;
}

/** Words of the values of several reveals, as the question reader asks about them. */
export interface KnownValues {
  has(stem: string): boolean;
  near?(stem: string): string | undefined;
}

export function knownValues(lookups: Iterable<ValueLookup>): KnownValues {
  // Reveals over one base node share one store: ask it once.
  const all = [...new Set(lookups)];
  return {
    has: (stem) => all.some((lookup) => lookup.hasStem(stem)),
    near: (stem) => {
      // The first reveal's correction wins; reveals of one workspace rarely disagree on a typo.
      for (const lookup of all) {
        const found = lookup.nearStem(stem);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  };
}

const onBase = (field: string): boolean => !field.includes('.');

function hasRival(phrase: ValuePhrase, candidates: readonly ValuePhrase[]): boolean {
  return candidates.some(
    (other) => other.field !== phrase.field && onBase(other.field) === onBase(phrase.field) && other.stems.length === phrase.stems.length && other.stems.every((stem, k) => stem === phrase.stems[k]),
  );
}

/** Filters for the values named in the words not in `blocked`; the positions they used are added to `used`. */
export function findFilters(words: readonly QuestionWord[], blocked: ReadonlySet<number>, lookup: ValueLookup, used: Set<number>): Filter[] {
  const content = words.filter((word) => !word.stop);
  const byField = new Map<string, string[]>();
  const nearFields = new Set<string>();
  const stems = content.map((word) => word.stem);
  for (let i = 0; i < content.length; i++) {
    const word = content[i]!;
    if (blocked.has(word.position)) continue;
    const candidates = lookup.phrases(stems.slice(i));
    const phrase = candidates.find((candidate) =>
      candidate.stems.every((stem, k) => content[i + k]?.stem === stem && !blocked.has(content[i + k]!.position)),
    );
    if (!phrase) continue;
    // The same value in two fields of one level (two joins of one node: where a shipment leaves and
    // where it arrives) leaves the field undecided: no filter, so the plan cannot pick the wrong one.
    if (hasRival(phrase, candidates)) continue;
    for (let k = 0; k < phrase.stems.length; k++) used.add(content[i + k]!.position);
    if (phrase.near || content.slice(i, i + phrase.stems.length).some((w) => w.near)) nearFields.add(phrase.field);
    const list = byField.get(phrase.field) ?? [];
    if (!list.includes(phrase.value)) list.push(phrase.value);
    byField.set(phrase.field, list);
    i += phrase.stems.length - 1;
  }
  return [...byField].map(([field, list]) => {
    const near = nearFields.has(field) ? { near: true } : {};
    return list.length === 1 ? { field, operator: 'equals' as const, value: list[0]!, ...near } : { field, operator: 'in' as const, value: list, ...near };
  });
}
