// The translation request and the checks a model's translation must pass before the pipeline reads it.
import { describe, expect, it } from 'vitest';
import { checkTranslation, TRANSLATION_PROMPT_START, translationRequest } from './llm-translate.js';

const catalog = (word: string) => ['trip', 'trips', 'fare', 'revenue', 'electric', 'bikes'].includes(word);

describe('translationRequest', () => {
  it("gives the model the catalog's words and the question, and says to keep values, numbers and dates", () => {
    const { system, user } = translationRequest('¿Cuántos viajes hubo en 2024?', 'es', ['Trips', 'rides', 'Fare revenue', 'Trips', '  ']);
    expect(system.startsWith(TRANSLATION_PROMPT_START)).toBe(true);
    expect(system).toContain('Catalog words: Trips; rides; Fare revenue');
    expect(system).toMatch(/number, year and date exactly as written/);
    expect(user).toBe('Translate from Spanish: ¿Cuántos viajes hubo en 2024?');
  });
});

describe('checkTranslation', () => {
  const question = '¿Cuántos viajes hubo en 2024?';

  it('accepts a faithful English translation, without quotes or a label around it', () => {
    expect(checkTranslation(question, 'How many trips were there in 2024?', catalog)).toEqual({ ok: true, text: 'How many trips were there in 2024?' });
    expect(checkTranslation(question, 'Translation: "How many trips were there in 2024?"', catalog)).toEqual({ ok: true, text: 'How many trips were there in 2024?' });
  });

  it('refuses a translation that adds, drops or changes a number or a year', () => {
    expect(checkTranslation(question, 'How many trips were there in 2023?', catalog)).toMatchObject({ ok: false, reason: expect.stringMatching(/changes the numbers/) });
    expect(checkTranslation(question, 'How many trips were there?', catalog)).toMatchObject({ ok: false });
    expect(checkTranslation(question, 'How many of the top 10 trips were there in 2024?', catalog)).toMatchObject({ ok: false });
    expect(checkTranslation('viajes en el primer trimestre de 2025', 'trips in Q1 2025', catalog)).toMatchObject({ ok: false });
  });

  it('refuses a translation that drops or adds a negation', () => {
    const excluding = 'viaggi nel 2024 escluse le bici elettriche';
    expect(checkTranslation(excluding, 'trips in 2024 excluding electric bikes', catalog)).toMatchObject({ ok: true });
    expect(checkTranslation(excluding, 'trips in 2024 on electric bikes', catalog)).toMatchObject({ ok: false, reason: expect.stringMatching(/negation/) });
    expect(checkTranslation('viajes en 2024', 'trips in 2024 not on electric bikes', catalog)).toMatchObject({ ok: false, reason: expect.stringMatching(/negation/) });
  });

  it('refuses an empty, long or unreadable reply, and one still in another language', () => {
    expect(checkTranslation(question, '   ', catalog)).toMatchObject({ ok: false, reason: 'the translation is empty' });
    expect(checkTranslation(question, `How many trips were there in 2024? ${'And also tell me everything else. '.repeat(5)}`, catalog)).toMatchObject({ ok: false, reason: expect.stringMatching(/longer/) });
    expect(checkTranslation(question, 'How many trips\nwere there in 2024?', catalog)).toMatchObject({ ok: false });
    expect(checkTranslation(question, 'xq zzv blorp quux 2024', catalog)).toMatchObject({ ok: false, reason: 'the translation is not mostly English' });
    expect(checkTranslation(question, '¿Cuántos viajes hubo en 2024?', catalog)).toMatchObject({ ok: false, reason: 'the translation is not mostly English' });
  });
});
