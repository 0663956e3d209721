import { describe, expect, it } from 'vitest';
import { boundedDistance, ValueStore } from './value-index.js';
import { transpositionDistance } from './fuzzy.js';
import { contentStems, stem } from './text.js';

const store = ValueStore.build([
  { field: 'customers.city', values: ['Chicago', 'Paris', 'Zürich', 'Kraków'] },
  { field: 'city', values: ['New York', 'New York City', 'São Paulo', 'Chicago', 'Rome'] },
  { field: 'segment', values: ['Enterprise', 'Small Business', 'Mid-Market', '', '   ', 'the'] },
  { field: 'carrier', values: ['Transcontinental', 'Oak'] },
]);

const stems = (text: string) => contentStems(text);

describe('ValueStore exact lookup', () => {
  it('finds values whatever their case and accents', () => {
    expect(store.phrases(stems('new york')).map((p) => p.value)).toContain('New York');
    expect(store.phrases(stems('NEW YORK')).map((p) => p.value)).toContain('New York');
    expect(store.phrases(stems('sao paulo'))[0]).toMatchObject({ field: 'city', value: 'São Paulo' });
    expect(store.phrases(stems('zurich'))[0]).toMatchObject({ field: 'customers.city', value: 'Zürich' });
    expect(store.phrases(stems('krakow'))[0]!.value).toBe('Kraków');
  });

  it('returns the longest value first, each with the words it used', () => {
    const found = store.phrases(stems('new york city revenue'));
    expect(found.map((p) => p.value)).toEqual(['New York City', 'New York']);
    expect(found[0]!.stems).toEqual(['new', 'york', 'city']);
  });

  it('lists a field of the base node before a joined field holding the same value', () => {
    expect(store.phrases(stems('chicago')).map((p) => p.field)).toEqual(['city', 'customers.city']);
  });

  it('matches plural and singular alike, as question words are stemmed', () => {
    expect(store.phrases(stems('mid markets'))[0]!.value).toBe('Mid-Market');
    expect(store.phrases(stems('small businesses'))[0]!.value).toBe('Small Business');
  });

  it('skips empty values, keeps values of grammar words only (marked), and knows every value word', () => {
    expect(store.fieldValues('segment')).toEqual(['Enterprise', 'Small Business', 'Mid-Market', 'the']);
    expect(store.phrases(['the'])).toEqual([{ field: 'segment', value: 'the', stems: ['the'], grammar: true }]);
    expect(store.grammarStems()).toEqual(new Set(['the']));
    expect(store.hasStem('paulo')).toBe(true);
    expect(store.hasStem('market')).toBe(true);
    expect(store.hasStem('london')).toBe(false);
    expect(store.phrases(stems('london'))).toEqual([]);
    expect(store.size).toBe(15);
  });

  it('holds many values per field, not a sample', () => {
    const big = ValueStore.build([{ field: 'sku', values: Array.from({ length: 60_000 }, (_, i) => `Item ${String(i).padStart(5, '0')}`) }]);
    expect(big.size).toBe(60_000);
    expect(big.phrases(stems('item 59999'))[0]!.value).toBe('Item 59999');
    expect(big.phrases(stems('item 00000'))[0]!.value).toBe('Item 00000');
  });
});

describe('ValueStore near lookup', () => {
  it('corrects one edit in a word of five to seven letters', () => {
    expect(store.nearStem('chicgo')).toBe('chicago'); // a letter missing
    expect(store.nearStem('chicaco')).toBe('chicago'); // a letter replaced
    expect(store.nearStem('pariss')).toBe('paris'); // a letter added
    expect(store.nearStem('prais')).toBe('paris'); // two letters swapped
  });

  it('corrects two edits only in words of eight letters or more', () => {
    // Stems on both sides, as the planner asks: "enterprise" is stored as its stem.
    expect(store.nearStem(stem('entreprize'))).toBe(stem('enterprise'));
    expect(store.nearStem('transcontinantel')).toBe('transcontinental');
    expect(store.nearStem('chcgo')).toBeUndefined(); // five letters, two edits from "chicago"
  });

  it('never corrects a short word, nor a word that is itself a value word', () => {
    expect(store.nearStem('rom')).toBeUndefined();
    expect(store.nearStem('oka')).toBeUndefined();
    expect(store.nearStem('romee')).toBeUndefined(); // both words need five letters: "rome" has four
    expect(store.nearStem('paris')).toBeUndefined();
  });

  it('finds nothing when no word is close enough', () => {
    expect(store.nearStem('madrid')).toBeUndefined();
    expect(store.nearStem('enterprisezzz')).toBeUndefined();
  });

  it('agrees with a brute-force search on random typos', () => {
    let seed = 7;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0; // mulberry32
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const word = () => Array.from({ length: 5 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * 26)]).join('');
    const words = Array.from({ length: 1000 }, word);
    const many = ValueStore.build([{ field: 'name', values: words }]);
    const vocabulary = [...new Set(words.flatMap((w) => stems(w)))];
    for (let n = 0; n < 120; n++) {
      const original = vocabulary[Math.floor(random() * vocabulary.length)]!;
      const chars = [...original];
      const edits = 1 + Math.floor(random() * 2);
      for (let e = 0; e < edits; e++) chars[Math.floor(random() * chars.length)] = letters[Math.floor(random() * 26)]!;
      const typo = chars.join('');
      if (vocabulary.includes(typo) || typo.length < 5) continue;
      const max = typo.length >= 8 ? 2 : 1;
      const distances = vocabulary.map((w) => transpositionDistance(typo, w));
      const best = Math.min(...distances);
      const expected = best <= max ? vocabulary.filter((_, i) => distances[i] === best).sort()[0] : undefined;
      expect(many.nearStem(typo), typo).toBe(expected);
    }
  });
});

describe('boundedDistance', () => {
  it('counts a swap once and stops past the bound', () => {
    expect(boundedDistance('reveneu', 'revenue', 2)).toBe(1);
    expect(boundedDistance('kitten', 'sitting', 3)).toBe(3);
    expect(boundedDistance('kitten', 'sitting', 1)).toBe(2);
    expect(boundedDistance('abc', 'abcdef', 2)).toBe(3);
  });
});
