// Other words for stored values, on top of a reveal's value store: the words a model declares in a
// dimension's `values:` ("domestic" for 'United States', "Texas" for 'TX'), and, for places, the names
// and demonyms of the place lexicon (place-names.ts): "California" for 'CA' in a field of state codes,
// "Canadian" for 'Canada'. A filter found through one is on the value as stored.
//
// Codes are taken for a family (US states, countries) only when every code the field holds belongs to
// it; when the codes fit both (CA, DE are states and countries), the dimension's own words ("state",
// "country") decide, or none is taken: a guess would filter on the wrong place.
import type { IndexedDimension, IndexedReveal } from './catalog-index.js';
import { FAMILY_WORDS, PLACES, type Place, type PlaceFamily } from './place-names.js';
import { identifierWords, normalise, tokenise } from './text.js';
import type { ValueLookup, ValuePhrase } from './value-index.js';

interface SynonymEntry {
  readonly field: string;
  readonly value: string;
  readonly stems: readonly string[];
  /** The synonym's words as written, normalised. */
  readonly words: readonly string[];
}

/** Fields with more values than this hold no codes of a family (there are 52 states, 50 countries here). */
const MAX_CODE_FIELD_VALUES = 400;

/**
 * A synonym's words as the matcher reads a question: without stop words. A synonym that loses a word
 * that way is not taken: "e-bike" would be read as "bike" ("e" is a stop word of other languages), and
 * "bikes" would then filter on electric bikes; such a synonym matches nothing rather than too much.
 */
function phraseOf(text: string): { stems: string[]; words: string[] } {
  const tokens = tokenise(text);
  const content = tokens.filter((token) => !token.stop);
  if (content.length !== tokens.length) return { stems: [], words: [] };
  return { stems: content.map((token) => token.stem), words: content.map((token) => token.raw) };
}

const CODES: Readonly<Record<PlaceFamily, ReadonlyMap<string, Place>>> = {
  us_state: new Map(PLACES.filter((p) => p.family === 'us_state').flatMap((p) => p.codes.map((code) => [code, p] as const))),
  country: new Map(PLACES.filter((p) => p.family === 'country').flatMap((p) => p.codes.map((code) => [code, p] as const))),
};

/** The family whose codes the field holds, if any (see the head of this file). */
function codeFamily(dimension: IndexedDimension, values: readonly string[]): PlaceFamily | undefined {
  if (values.length === 0 || values.length > MAX_CODE_FIELD_VALUES) return undefined;
  const codes = values.filter((value) => /^[A-Z]{2,3}$/.test(value));
  const fits = (['us_state', 'country'] as const).filter((family) => codes.length >= 2 && codes.every((code) => CODES[family].has(code)));
  if (fits.length <= 1) return fits[0];
  const words = new Set(normalise(`${identifierWords(dimension.field.replace(/\./g, ' '))} ${dimension.label}`).split(' '));
  const named = fits.filter((family) => [...FAMILY_WORDS[family]].some((word) => words.has(word)));
  return named.length === 1 ? named[0] : undefined;
}

/** Words of a place that name it: names and demonyms. */
const placeWords = (place: Place): string[] => [...place.names, ...place.demonyms];

function placeEntries(dimension: IndexedDimension, lookup: ValueLookup): SynonymEntry[] {
  const entries: SynonymEntry[] = [];
  const stored = (stems: readonly string[]): ValuePhrase | undefined =>
    stems.length === 0 ? undefined : lookup.phrases(stems).find((phrase) => phrase.field === dimension.field && phrase.stems.length === stems.length);
  const add = (value: string, words: readonly string[]): void => {
    for (const word of words) {
      const phrase = phraseOf(word);
      if (phrase.stems.length === 0 || stored(phrase.stems)) continue;
      entries.push({ field: dimension.field, value, ...phrase });
    }
  };
  // A place stored by one of its names or demonyms: the others are words for it.
  for (const place of PLACES) {
    const words = placeWords(place);
    for (const word of words) {
      const found = stored(phraseOf(word).stems);
      if (found) add(found.value, words);
    }
  }
  // A place stored by its code: its names and demonyms are words for it, in a field of that family.
  const values = lookup.fieldValues(dimension.field);
  const family = codeFamily(dimension, values.length <= MAX_CODE_FIELD_VALUES ? values : []);
  if (family) {
    for (const value of values) {
      const place = CODES[family].get(value);
      if (place) add(value, placeWords(place));
    }
  }
  return entries;
}

function declaredEntries(dimension: IndexedDimension): SynonymEntry[] {
  return [...dimension.valueSynonyms].flatMap(([value, words]) =>
    words.map((word) => ({ field: dimension.field, value, ...phraseOf(word) })).filter((entry) => entry.stems.length > 0),
  );
}

/** A value store that also finds values by their other words. */
class SynonymLookup implements ValueLookup {
  private readonly byKey = new Map<string, SynonymEntry[]>();
  private readonly words = new Set<string>();
  private readonly longest: number;

  constructor(
    private readonly base: ValueLookup,
    entries: readonly SynonymEntry[],
  ) {
    for (const entry of entries) {
      const key = entry.stems.join(' ');
      const list = this.byKey.get(key) ?? [];
      if (!list.some((other) => other.field === entry.field && other.value === entry.value)) list.push(entry);
      this.byKey.set(key, list);
      for (const stem of entry.stems) this.words.add(stem);
    }
    this.longest = Math.max(0, ...entries.map((entry) => entry.stems.length));
  }

  get size(): number {
    return this.base.size;
  }

  phrases(stems: readonly string[]): readonly ValuePhrase[] {
    const found = [...this.base.phrases(stems)];
    if (stems.length === 0 || !this.words.has(stems[0]!)) return found;
    for (let length = Math.min(stems.length, this.longest); length >= 1; length--) {
      const prefix = stems.slice(0, length);
      for (const entry of this.byKey.get(prefix.join(' ')) ?? []) found.push({ field: entry.field, value: entry.value, stems: prefix, words: entry.words });
    }
    // Longest first, as the store answers; within one length the stored values before the synonyms.
    return found.map((phrase, order) => ({ phrase, order })).sort((a, b) => b.phrase.stems.length - a.phrase.stems.length || a.order - b.order).map(({ phrase }) => phrase);
  }

  hasStem(stem: string): boolean {
    return this.base.hasStem(stem) || this.words.has(stem);
  }

  nearStem(stem: string): string | undefined {
    return this.base.nearStem(stem);
  }

  fieldValues(field: string): readonly string[] {
    return this.base.fieldValues(field);
  }

  grammarStems(): ReadonlySet<string> {
    return this.base.grammarStems();
  }

  firstStems(fields: ReadonlySet<string>): ReadonlySet<string> {
    const found = new Set(this.base.firstStems(fields));
    for (const entries of this.byKey.values()) for (const entry of entries) if (fields.has(entry.field)) found.add(entry.stems[0]!);
    return found;
  }
}

const cache = new WeakMap<ValueLookup, Map<string, ValueLookup>>();

/** `lookup` with the other words for the values of `reveal`'s string dimensions; cached per lookup and reveal. */
export function withValueSynonyms(reveal: IndexedReveal, lookup: ValueLookup): ValueLookup {
  const perReveal = cache.get(lookup) ?? new Map<string, ValueLookup>();
  cache.set(lookup, perReveal);
  const cached = perReveal.get(reveal.name);
  if (cached) return cached;
  const strings = reveal.dimensions.filter((dimension) => dimension.type === 'string');
  const entries = strings.flatMap((dimension) => [...declaredEntries(dimension), ...(lookup.size > 0 ? placeEntries(dimension, lookup) : [])]);
  const wrapped = entries.length > 0 ? new SynonymLookup(lookup, entries) : lookup;
  perReveal.set(reveal.name, wrapped);
  return wrapped;
}
