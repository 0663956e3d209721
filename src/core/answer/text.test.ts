import { describe, expect, it } from 'vitest';
import { closestWord, transpositionDistance } from './fuzzy.js';
import { contentStems, normalise, stem } from './text.js';

describe('text pipeline', () => {
  it('strips accents, case and apostrophes', () => {
    expect(normalise("Chiffre d'Affaires — Käufer, países")).toBe('chiffre d affaires kaufer paises');
  });

  it('stems plurals lightly and keeps words ending in ss/us', () => {
    expect(['orders', 'countries', 'business', 'status', 'sales', 'refunded'].map(stem)).toEqual(['order', 'country', 'business', 'status', 'sale', 'refund']);
  });

  it('gives one stem to the forms of a word: irregular plurals, -ed/-ing, doubled consonants, British spelling', () => {
    const same: Array<[string, string]> = [
      ['people', 'person'], ['children', 'child'], ['women', 'woman'], ['analyses', 'analysis'], ['diagnoses', 'diagnosis'],
      ['statuses', 'status'], ['countries', 'country'], ['cities', 'city'], ['movies', 'movie'], ['cases', 'case'],
      ['purchases', 'purchase'], ['branches', 'branch'], ['sizes', 'size'], ['cancelled', 'cancel'], ['canceled', 'cancel'],
      ['cancelling', 'cancel'], ['delayed', 'delay'], ['shipped', 'ship'], ['admitted', 'admit'], ['referred', 'refer'],
      ['closed', 'close'], ['completed', 'complete'], ['rated', 'rate'], ['pricing', 'price'], ['applied', 'apply'],
      ['refunded', 'refund'], ['returning', 'return'], ['installed', 'install'], ['travelled', 'traveled'],
      ['mice', 'mouse'], ['loaves', 'loaf'], ['sold', 'sell'], ['paid', 'pay'], ['spent', 'spending'],
    ];
    for (const [form, base] of same) expect(stem(form), `${form} / ${base}`).toBe(stem(base));
  });

  it('keeps apart words that only look alike', () => {
    const apart: Array<[string, string]> = [
      ['business', 'busy'], ['news', 'new'], ['rate', 'rat'], ['plane', 'plan'], ['note', 'not'], ['site', 'sit'],
      ['added', 'ad'], ['string', 'str'], ['sale', 'sal'], ['police', 'policy'], ['series', 'sery'], ['lately', 'late'],
      ['took', 'takings'], ['sold', 'sale'], ['fell', 'fall'], ['ran', 'runs'],
    ];
    for (const [a, b] of apart) expect(stem(a), `${a} / ${b}`).not.toBe(stem(b));
    // Staff leaves are absences: "leaves" meets "leave", not "leaf".
    expect(stem('leaves')).toBe(stem('leave'));
  });

  it('drops stop words and quantity fillers in every language and maps dimension words to English', () => {
    expect(contentStems('how many orders')).toEqual(['order']);
    expect(contentStems('cuántos pedidos por canal')).toEqual(['pedido', 'por', 'channel']);
    expect(contentStems('Kunden nach Land')).toEqual(['kunden', 'nach', 'country']);
  });
});

describe('typo correction', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(transpositionDistance('reveneu', 'revenue')).toBe(1);
  });

  it('corrects close words and leaves unrelated ones alone', () => {
    const vocabulary = ['revenue', 'channel', 'customer', 'discount', 'sale'];
    expect(closestWord('reveneu', vocabulary)).toBe('revenue');
    expect(closestWord('chanel', vocabulary)).toBe('channel');
    expect(closestWord('headcount', vocabulary)).toBeUndefined();
    expect(closestWord('salary', vocabulary)).toBeUndefined();
  });
});
