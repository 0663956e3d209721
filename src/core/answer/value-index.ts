// The compact value store the planner reads filter values from: the distinct values of a base node's
// string dimensions (joined ones included), normalised like question words (case, accents, plurals), so
// "new york" finds 'New York'. Exact lookup is a binary search over sorted keys; near lookup (typos in
// long words) uses a pigeonhole index over the distinct value words, so it stays fast on a million values.
// Built once per data-key scope by the caller (src/answering) and then only read.
import { tokenise } from './text.js';

/** One value as the planner matches it: `stems` are its content words after the question pipeline. */
export interface ValuePhrase {
  readonly field: string;
  readonly value: string;
  readonly stems: readonly string[];
  /** Matched through a typo-corrected word: the answer states it as an assumption. */
  readonly near?: boolean;
  /** Every word of the value is a grammar word ("OR", "THE", "DIE"): the question decides how it reads. */
  readonly grammar?: boolean;
  /** Found through another word for the value (value-synonyms.ts): that word as written, normalised. */
  readonly words?: readonly string[];
}

/** What the planner asks of the values of one reveal. */
export interface ValueLookup {
  /** Values whose stems are a prefix of `stems`, longest first; within one length, base fields first. */
  phrases(stems: readonly string[]): readonly ValuePhrase[];
  /** Whether `stem` is a word of some value (such words are never "corrected" as typos). */
  hasStem(stem: string): boolean;
  /** The value word `stem` is most plausibly a typo of (see NEAR_MIN_LENGTH), or undefined. */
  nearStem(stem: string): string | undefined;
  /** The distinct values of one field, as stored (for a language model's prompt and its validation). */
  fieldValues(field: string): readonly string[];
  /** Stems of the values made of grammar words only ("OR", "THE"): read by `readGrammarValues`. */
  grammarStems(): ReadonlySet<string>;
  /** First stems of the values held by `fields` (cached by the caller). */
  firstStems(fields: ReadonlySet<string>): ReadonlySet<string>;
  /** Distinct values held. */
  readonly size: number;
}

/** Words shorter than this (in the question or in a value) are never matched by edit distance: short words are too often another word. */
export const NEAR_MIN_LENGTH = 5;
/** From this length on, two edits are allowed (one below). */
const TWO_EDITS_LENGTH = 8;
/** Longest value matched, in content words: longer values are still stored but found only by field. */
const MAX_PHRASE_WORDS = 8;

/** Edits a word of this length may be away from the value word it is taken for. */
export function allowedEdits(length: number): number {
  return length >= TWO_EDITS_LENGTH ? 2 : length >= NEAR_MIN_LENGTH ? 1 : 0;
}

/**
 * Optimal string alignment distance (a swap of neighbours counts once), or `max + 1` as soon as it
 * is certain to exceed `max`: candidates are checked by the hundred per lookup.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  // Three rows reused across calls: near lookup checks hundreds of candidates per word.
  if (rows[0]!.length < cols) rows = [new Int32Array(cols * 2), new Int32Array(cols * 2), new Int32Array(cols * 2)];
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}

let rows: Int32Array[] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Start of each of the three segments of a word of `length` letters, and its end. */
function segmentBounds(length: number): [number, number, number, number] {
  return [0, Math.floor(length / 3), Math.floor((2 * length) / 3), length];
}

/**
 * Sorted strings packed into one: a million short keys as separate strings cost about twice their
 * letters in headers and pointers. Keys are normalised (a-z, 0-9, spaces), so the text is one byte a letter.
 */
class PackedStrings {
  private readonly text: string;
  /** Key k is text.slice(start[k], start[k + 1] - 1): each key is followed by a newline. */
  private readonly start: Uint32Array;

  constructor(sorted: readonly string[]) {
    this.text = sorted.length ? `${sorted.join('\n')}\n` : '';
    this.start = new Uint32Array(sorted.length + 1);
    let at = 0;
    sorted.forEach((key, k) => {
      this.start[k] = at;
      at += key.length + 1;
    });
    this.start[sorted.length] = at;
  }

  /** The index of `key`, or -1. */
  indexOf(key: string): number {
    let low = 0;
    let high = this.start.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(middle, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low < this.start.length - 1 && this.compare(low, key) === 0 ? low : -1;
  }

  /** Key k. */
  at(k: number): string {
    return this.text.slice(this.start[k]!, this.start[k + 1]! - 1);
  }

  /** Key k against `key`, in code unit order (as `<` orders strings). */
  private compare(k: number, key: string): number {
    const from = this.start[k]!;
    const length = this.start[k + 1]! - 1 - from;
    const shared = Math.min(length, key.length);
    for (let i = 0; i < shared; i++) {
      const difference = this.text.charCodeAt(from + i) - key.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }
}

function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

export interface ValueColumn {
  /** Field id relative to the base node: no dot on the base itself (`channel`), `customers.segment` when joined. */
  readonly field: string;
  readonly values: Iterable<string>;
}

/**
 * Immutable store of the values of several fields. Per field an array of the stored values; one sorted
 * array of distinct keys (stems joined by a space) with the ids of their values; one sorted array of
 * distinct value words; and a pigeonhole index of those words for near lookup: a word within two edits
 * of another shares at least one of its three segments with it, shifted by at most two letters.
 */
export class ValueStore implements ValueLookup {
  readonly size: number;
  private readonly fields: readonly string[];
  private readonly columns: readonly (readonly string[])[];
  /** Id of the first value of each field, then the total: a value's id is its field's start + its position. */
  private readonly fieldStart: Uint32Array;
  private readonly keys: PackedStrings;
  /** The values of keys[k] are ids[keyStart[k]] … ids[keyStart[k + 1] - 1], base fields first. */
  private readonly keyStart: Uint32Array;
  private readonly ids: Uint32Array;
  private readonly words: readonly string[];
  /** `length|segment|letters` → indexes into `words`. */
  private readonly segments: ReadonlyMap<string, readonly number[]>;

  static build(input: Iterable<ValueColumn>): ValueStore {
    // Fields of the base node first: "Europe" is both where an order ships and where its customer
    // lives; the reveal's own node is what its metrics count.
    const columns = [...input].map((column, order) => ({ column, order })).sort((a, b) => Number(a.column.field.includes('.')) - Number(b.column.field.includes('.')) || a.order - b.order);
    const fields: string[] = [];
    const stored: string[][] = [];
    const keyOf: string[] = [];
    const wordSet = new Set<string>();
    const grammarWords = new Set<string>();
    for (const { column } of columns) {
      if (fields.includes(column.field)) continue;
      const seen = new Set<string>();
      const values: string[] = [];
      for (const value of column.values) {
        if (seen.has(value)) continue;
        seen.add(value);
        // Grammar words inside a value are left out ("The Home Depot" is "home depot"); a value made of
        // grammar words only (state "OR", product "THE") keeps them all, or it could never be named.
        const tokens = tokenise(value);
        const content = tokens.filter((token) => !token.stop);
        const stems = (content.length > 0 ? content : tokens).map((token) => token.stem);
        if (stems.length === 0) continue;
        if (content.length === 0) for (const word of stems) grammarWords.add(word);
        values.push(value);
        const key = stems.join(' ');
        keyOf.push(key);
        for (const word of stems) wordSet.add(word);
      }
      fields.push(column.field);
      stored.push(values);
    }
    return new ValueStore(fields, stored, keyOf, [...wordSet].sort(), grammarWords);
  }

  private readonly grammar: ReadonlySet<string>;

  private constructor(fields: string[], columns: string[][], keyOf: string[], words: string[], grammar: ReadonlySet<string>) {
    this.grammar = grammar;
    this.fields = fields;
    this.columns = columns;
    this.size = keyOf.length;
    this.fieldStart = new Uint32Array(fields.length + 1);
    for (let f = 0; f < fields.length; f++) this.fieldStart[f + 1] = this.fieldStart[f]! + columns[f]!.length;

    const order = new Uint32Array(this.size);
    for (let id = 0; id < this.size; id++) order[id] = id;
    // Ties keep id order, and ids follow the field order: base fields first within a key.
    order.sort((a, b) => (keyOf[a]! < keyOf[b]! ? -1 : keyOf[a]! > keyOf[b]! ? 1 : a - b));
    const keys: string[] = [];
    const starts: number[] = [];
    for (let position = 0; position < order.length; position++) {
      const key = keyOf[order[position]!]!;
      if (keys.length === 0 || keys[keys.length - 1] !== key) {
        keys.push(key);
        starts.push(position);
      }
    }
    starts.push(order.length);
    this.keys = new PackedStrings(keys);
    this.keyStart = Uint32Array.from(starts);
    this.ids = order;

    this.words = words;
    const segments = new Map<string, number[]>();
    words.forEach((word, index) => {
      if (word.length < NEAR_MIN_LENGTH) return; // short value words are never the target of a correction
      const bounds = segmentBounds(word.length);
      for (let s = 0; s < 3; s++) {
        const key = `${word.length}|${s}|${word.slice(bounds[s], bounds[s + 1])}`;
        const bucket = segments.get(key);
        if (bucket) bucket.push(index);
        else segments.set(key, [index]);
      }
    });
    this.segments = segments;
  }

  phrases(stems: readonly string[]): ValuePhrase[] {
    const found: ValuePhrase[] = [];
    if (stems.length === 0 || !this.hasStem(stems[0]!)) return found; // most question words start no value
    for (let length = Math.min(stems.length, MAX_PHRASE_WORDS); length >= 1; length--) {
      const prefix = stems.slice(0, length);
      const key = prefix.join(' ');
      const k = this.keys.indexOf(key);
      if (k < 0) continue;
      for (let position = this.keyStart[k]!; position < this.keyStart[k + 1]!; position++) {
        const id = this.ids[position]!;
        const field = this.fieldOf(id);
        const grammar = prefix.every((stem) => this.grammar.has(stem));
        found.push({ field: this.fields[field]!, value: this.columns[field]![id - this.fieldStart[field]!]!, stems: prefix, ...(grammar ? { grammar } : {}) });
      }
    }
    return found;
  }

  grammarStems(): ReadonlySet<string> {
    return this.grammar;
  }

  firstStems(fields: ReadonlySet<string>): ReadonlySet<string> {
    const found = new Set<string>();
    if (fields.size === 0) return found;
    for (let k = 0; k < this.keyStart.length - 1; k++) {
      for (let position = this.keyStart[k]!; position < this.keyStart[k + 1]!; position++) {
        if (!fields.has(this.fields[this.fieldOf(this.ids[position]!)]!)) continue;
        found.add(this.keys.at(k).split(' ')[0]!);
        break;
      }
    }
    return found;
  }

  hasStem(stem: string): boolean {
    return this.words[lowerBound(this.words, stem)] === stem;
  }

  nearStem(stem: string): string | undefined {
    const max = allowedEdits(stem.length);
    if (max === 0 || this.hasStem(stem)) return undefined;
    let best: { word: string; edits: number } | undefined;
    const checked = new Set<number>();
    for (let length = stem.length - max; length <= stem.length + max; length++) {
      if (length < NEAR_MIN_LENGTH) continue;
      const bounds = segmentBounds(length);
      for (let s = 0; s < 3; s++) {
        const size = bounds[s + 1]! - bounds[s]!;
        for (let shift = -max; shift <= max; shift++) {
          const start = bounds[s]! + shift;
          if (start < 0 || start + size > stem.length) continue;
          for (const index of this.segments.get(`${length}|${s}|${stem.slice(start, start + size)}`) ?? []) {
            if (checked.has(index)) continue;
            checked.add(index);
            const word = this.words[index]!;
            const edits = boundedDistance(stem, word, best ? best.edits : max);
            // Fewer edits win; on a tie the first word in sorted order, so the answer never flickers.
            if (edits <= max && (!best || edits < best.edits || (edits === best.edits && word < best.word))) best = { word, edits };
          }
        }
      }
    }
    return best?.word;
  }

  fieldValues(field: string): readonly string[] {
    const f = this.fields.indexOf(field);
    return f < 0 ? [] : this.columns[f]!;
  }

  /** Field ids held, base fields first. */
  fieldIds(): readonly string[] {
    return this.fields;
  }

  private fieldOf(id: number): number {
    let low = 0;
    let high = this.fields.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.fieldStart[middle]! <= id) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** No values: a reveal with no string dimension, or values not (yet) known. */
export const NO_VALUES: ValueLookup = ValueStore.build([]);
