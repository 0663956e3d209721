// Filters from values named in a question: "revenue in Europe" → ship_region = 'Europe', "web and
// mobile orders" → channel in ('web', 'mobile'). Values are the distinct values of string dimensions,
// looked up from the data by the caller; they are matched on whole words and returned as stored.
import type { IndexedReveal } from './catalog-index.js';
import type { QuestionWord } from './question-shape.js';
import { tokenise } from './text.js';

export interface ValuePhrase {
  readonly field: string;
  readonly value: string;
  readonly stems: readonly string[];
  /** Every word of the value is a grammar word ("OR", "THE", "DIE"): the question decides how it reads. */
  readonly grammar: boolean;
}

export interface Filter {
  readonly field: string;
  readonly operator: 'equals' | 'in';
  readonly value: string | readonly string[];
}

/** Value phrases by their first stem, longest first; a base-node field before a joined one. */
export type ValueLookup = ReadonlyMap<string, readonly ValuePhrase[]>;

// The caller caches the values per reveal; the lookup built from them is cached alongside.
const lookups = new WeakMap<ReadonlyMap<string, readonly string[]>, Map<string, ValueLookup>>();

export function valueLookup(reveal: IndexedReveal, values: ReadonlyMap<string, readonly string[]>): ValueLookup {
  const perReveal = lookups.get(values) ?? new Map<string, ValueLookup>();
  lookups.set(values, perReveal);
  const cached = perReveal.get(reveal.name);
  if (cached) return cached;
  const fields = reveal.dimensions.filter((dimension) => dimension.type === 'string' && values.has(dimension.field));
  // Base fields first: "Europe" is both where an order ships and where its customer lives; the
  // reveal's own node is what its metrics count.
  fields.sort((a, b) => Number(b.onBase) - Number(a.onBase));
  const lookup = new Map<string, ValuePhrase[]>();
  for (const dimension of fields) {
    for (const value of values.get(dimension.field) ?? []) {
      // Grammar words inside a value are left out ("The Home Depot" is "home depot"); a value made of
      // grammar words only (state "OR", product "THE") keeps them all, or it could never be named.
      const tokens = tokenise(value);
      const content = tokens.filter((token) => !token.stop);
      const grammar = content.length === 0;
      const stems = (grammar ? tokens : content).map((token) => token.stem);
      if (stems.length === 0) continue;
      const bucket = lookup.get(stems[0]!) ?? [];
      bucket.push({ field: dimension.field, value, stems, grammar });
      lookup.set(stems[0]!, bucket);
    }
  }
  for (const bucket of lookup.values()) bucket.sort((a, b) => b.stems.length - a.stems.length);
  perReveal.set(reveal.name, lookup);
  return lookup;
}

/** Every stem of every value: such words are never "corrected" as typos. */
export function valueStems(lookup: ValueLookup): ReadonlySet<string> {
  return stemsOf(lookup).all;
}

/** Stems of the values made of grammar words only: such words of a question are read by `readGrammarValues`. */
export function grammarValueStems(lookup: ValueLookup): ReadonlySet<string> {
  return stemsOf(lookup).grammar;
}

// Lookups are cached per values map, so their stems are computed once, not per question.
const stemSets = new WeakMap<ValueLookup, { all: ReadonlySet<string>; grammar: ReadonlySet<string> }>();
function stemsOf(lookup: ValueLookup): { all: ReadonlySet<string>; grammar: ReadonlySet<string> } {
  let sets = stemSets.get(lookup);
  if (!sets) {
    const all = new Set<string>();
    const grammar = new Set<string>();
    for (const bucket of lookup.values()) {
      for (const phrase of bucket) {
        for (const stem of phrase.stems) {
          all.add(stem);
          if (phrase.grammar) grammar.add(stem);
        }
      }
    }
    sets = { all, grammar };
    stemSets.set(lookup, sets);
  }
  return sets;
}

/** A value named in the question, with every field that holds it (the same words, from the lookup's order). */
export interface ValueMatch {
  /** Positions of the question words that name the value, in order. */
  readonly positions: readonly number[];
  /** The longest phrase found, then every other field holding a value of exactly these words. */
  readonly candidates: readonly ValuePhrase[];
}

/** A value bound to one field: what a filter is made from. */
export interface BoundValue {
  readonly field: string;
  readonly value: string;
}

/** Values of at least `minWords` words named in the words not in `blocked`, longest first, left to right, each once. */
export function findValueMatches(words: readonly QuestionWord[], blocked: ReadonlySet<number>, lookup: ValueLookup, minWords = 1): ValueMatch[] {
  const content = words.filter((word) => !word.stop);
  const matches: ValueMatch[] = [];
  for (let i = 0; i < content.length; i++) {
    const word = content[i]!;
    if (blocked.has(word.position)) continue;
    const bucket = lookup.get(word.stem) ?? [];
    const phrase = bucket.find((candidate) => candidate.stems.length >= minWords && candidate.stems.every((stem, k) => content[i + k]?.stem === stem && !blocked.has(content[i + k]!.position)));
    if (!phrase) continue;
    const key = phrase.stems.join(' ');
    const candidates = bucket.filter((candidate) => candidate.stems.join(' ') === key);
    matches.push({ positions: content.slice(i, i + phrase.stems.length).map((w) => w.position), candidates });
    i += phrase.stems.length - 1;
  }
  return matches;
}

/** One filter per field: one value is `equals`, several ("web and mobile") are `in`. */
export function filtersFrom(values: readonly BoundValue[]): Filter[] {
  const byField = new Map<string, string[]>();
  for (const { field, value } of values) {
    const list = byField.get(field) ?? [];
    if (!list.includes(value)) list.push(value);
    byField.set(field, list);
  }
  return [...byField].map(([field, list]) => (list.length === 1 ? { field, operator: 'equals' as const, value: list[0]! } : { field, operator: 'in' as const, value: list }));
}

/**
 * Filters for the values named in the words not in `blocked`, each on the first field holding it;
 * the positions they used are added to `used`. Values shared by fields of opposite roles are bound
 * by `bindValues` (value-roles.ts) instead.
 */
export function findFilters(words: readonly QuestionWord[], blocked: ReadonlySet<number>, lookup: ValueLookup, used: Set<number>): Filter[] {
  const matches = findValueMatches(words, blocked, lookup);
  for (const match of matches) for (const position of match.positions) used.add(position);
  return filtersFrom(matches.map((match) => ({ field: match.candidates[0]!.field, value: match.candidates[0]!.value })));
}

/** Distinct values of string dimensions, keyed by field id relative to the reveal's base node. */
export interface ValueIndex {
  get(reveal: string, field: string): readonly string[] | undefined;
}
