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
