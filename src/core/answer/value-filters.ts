// Filters from values named in a question: "revenue in Europe" → ship_region = 'Europe', "web and
// mobile orders" → channel in ('web', 'mobile'). Values are the distinct values of string dimensions,
// looked up from the data by the caller and kept in a value store (value-index.ts); they are matched
// on whole words and returned as stored.
import type { IndexedReveal } from './catalog-index.js';
import { namedByForm } from './everyday-values.js';
import type { QuestionWord } from './question-shape.js';
import { ValueStore, type ValueLookup, type ValuePhrase } from './value-index.js';

export type { ValueLookup, ValuePhrase } from './value-index.js';

export interface Filter {
  readonly field: string;
  /** `notEquals` and `notIn` leave values out ("excluding OTA") and keep the rows without a value. */
  readonly operator: 'equals' | 'in' | 'notEquals' | 'notIn';
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

/** Stems of the values made of grammar words only, over several lookups: read by `readGrammarValues`. */
export function grammarValues(lookups: Iterable<ValueLookup>): Pick<ReadonlySet<string>, 'has' | 'size'> {
  const sets = [...new Set(lookups)].map((lookup) => lookup.grammarStems());
  return { has: (stem) => sets.some((set) => set.has(stem)), size: sets.reduce((sum, set) => sum + set.size, 0) };
}

/** A value named in the question, with every field that holds it (the same words, from the lookup's order). */
export interface ValueMatch {
  /** Positions of the question words that name the value, in order. */
  readonly positions: readonly number[];
  /** The longest phrase found, then every other field holding a value of exactly these words. */
  readonly candidates: readonly ValuePhrase[];
  /** Found through a typo-corrected word. */
  readonly near: boolean;
}

/** A value bound to one field: what a filter is made from. */
export interface BoundValue {
  readonly field: string;
  readonly value: string;
  readonly near?: boolean;
  /** Left out by the question ("excluding OTA"): a negated filter. */
  readonly negated?: boolean;
  /** Where the value starts in the question. */
  readonly at?: number;
}

/** Values of at least `minWords` words named in the words not in `blocked`, longest first, left to right, each once. */
export function findValueMatches(words: readonly QuestionWord[], blocked: ReadonlySet<number>, lookup: ValueLookup, minWords = 1): ValueMatch[] {
  const content = words.filter((word) => !word.stop);
  const stems = content.map((word) => word.stem);
  const matches: ValueMatch[] = [];
  for (let i = 0; i < content.length; i++) {
    const word = content[i]!;
    if (blocked.has(word.position)) continue;
    // "heating" is not the retailer 'Heat' (everyday-values.ts): a name is named by its own word.
    const named = (candidate: ValuePhrase): boolean => namedByForm(candidate, content.slice(i, i + candidate.stems.length));
    const found = lookup.phrases(stems.slice(i));
    const phrase = found.find((candidate) => candidate.stems.length >= minWords && candidate.stems.every((stem, k) => content[i + k]?.stem === stem && !blocked.has(content[i + k]!.position)) && named(candidate));
    if (!phrase) continue;
    const key = phrase.stems.join(' ');
    const candidates = found.filter((candidate) => candidate.stems.join(' ') === key && named(candidate));
    const span = content.slice(i, i + phrase.stems.length);
    matches.push({ positions: span.map((w) => w.position), candidates, near: span.some((w) => w.near === true) });
    i += phrase.stems.length - 1;
  }
  return matches;
}

/** One filter per field: one value is `equals`, several ("web and mobile") are `in`. */
export function filtersFrom(values: readonly BoundValue[]): Filter[] {
  const byField = new Map<string, string[]>();
  const nearFields = new Set<string>();
  for (const { field, value, near } of values) {
    const list = byField.get(field) ?? [];
    if (!list.includes(value)) list.push(value);
    byField.set(field, list);
    if (near) nearFields.add(field);
  }
  return [...byField].map(([field, list]) => {
    const near = nearFields.has(field) ? { near: true } : {};
    return list.length === 1 ? { field, operator: 'equals' as const, value: list[0]!, ...near } : { field, operator: 'in' as const, value: list, ...near };
  });
}
