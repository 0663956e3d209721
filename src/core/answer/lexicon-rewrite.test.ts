// The word-list rewrite of questions in other languages: analytical words become the English the
// planner reads, periods, names, catalog words and domain words stay as typed, and every phrase of
// the rewritten text can be quoted back as the question typed it.
import { describe, expect, it } from 'vitest';
import { analyticalLexicon } from './analytical-lexicon.js';
import { periodSpans, rewriteWithLexicon } from './lexicon-rewrite.js';
import { NOW } from './test-helpers.js';

const clock = { now: NOW, timezone: 'UTC' };
const rewrite = (question: string, language: Parameters<typeof rewriteWithLexicon>[1], keep?: (word: string) => boolean) =>
  rewriteWithLexicon(question, language, { ...clock, ...(keep ? { keep } : {}) });

describe('rewriteWithLexicon', () => {
  it('turns question words, comparison cues and grammar into English and leaves domain words and periods as typed', () => {
    expect(rewrite('Quanti viaggi sono partiti da Central Station nel 2024?', 'it').text).toBe('how many viaggi were partiti da Central Station nel 2024?');
    expect(rewrite('Quante prenotazioni in più nel 2024 rispetto al 2023?', 'it').text).toBe('how many prenotazioni more nel 2024 compared to 2023?');
    expect(rewrite('Combien de trajets en plus en 2024 par rapport à 2023 ?', 'fr').text).toBe('how many trajets more en 2024 compared to 2023 ?');
    expect(rewrite('Quantas transferências a mais em 2024 do que em 2023?', 'pt').text).toBe('how many transferências more em 2024 than em 2023?');
    expect(rewrite('¿Cuántos viajes más en 2024 que en 2023?', 'es').text).toBe('¿how many viajes more en 2024 than en 2023?');
    expect(rewrite('Fahrten im Vergleich zum Vorjahr', 'de').text).toBe('Fahrten compared to Vorjahr');
    expect(rewrite('durchschnittliche Fahrtdauer im Mai 2025', 'de').text).toBe('average Fahrtdauer im Mai 2025');
  });

  it('reads "than" only after a comparative, and "über" as "via" only before no number', () => {
    expect(rewrite('ventas que crecieron', 'es').text).toBe('ventas que crecieron');
    expect(rewrite('Überweisungen über die App', 'de').text).toBe('Überweisungen via die App');
    expect(rewrite('Überweisungen über 100 Dollar', 'de').text).toBe('Überweisungen über 100 Dollar');
  });

  it('keeps names typed with a capital, and words the catalog knows', () => {
    expect(rewrite('viaggi verso La Spezia', 'it').text).toBe('viaggi verso La Spezia');
    expect(rewrite('affluence moyenne des matchs', 'fr').text).toBe('affluence average des matchs');
    expect(rewrite('affluence moyenne des matchs', 'fr', (word) => word === 'moyenne').text).toBe('affluence moyenne des matchs');
  });

  it('translates months, weekdays and "first quarter" outside the periods it keeps', () => {
    expect(rewrite('ventas de los lunes', 'es').text).toBe('ventas de los monday');
    expect(rewrite('vendite del primo trimestre', 'it').text).toBe('vendite of the first quarter');
    expect(rewrite('vendite nel primo trimestre del 2025', 'it').text).toBe('vendite nel primo trimestre del 2025');
  });

  it('quotes a phrase of the rewritten text as the question typed it', () => {
    const read = rewrite('Quante prenotazioni in più nel 2024 rispetto al 2023?', 'it');
    expect(read.changed).toBe(true);
    expect(read.typed('prenotazioni')).toBe('prenotazioni');
    expect(read.typed('more')).toBe('in più');
    expect(read.typed('compared to')).toBe('rispetto al');
    expect(read.typed('how many prenotazioni')).toBe('Quante prenotazioni');
    expect(read.typed('HOW MANY')).toBe('Quante');
    expect(read.typed('nowhere')).toBeUndefined();
    expect(read.kept).toEqual(['prenotazioni']);
  });

  it('changes nothing in a question it has no word for', () => {
    const read = rewrite('Zimmerumsatz pro Zimmernacht im Jahr 2024', 'de');
    expect(read).toMatchObject({ text: 'Zimmerumsatz pro Zimmernacht im Jahr 2024', changed: false, kept: ['Zimmerumsatz', 'pro', 'Zimmernacht'] });
  });
});

describe('periodSpans', () => {
  it('finds every period of a comparison, leftmost first', () => {
    const question = 'prenotazioni nel 2024 rispetto al 2023';
    expect(periodSpans(question, clock).map(([start, end]) => question.slice(start, end))).toEqual(['nel 2024', '2023']);
  });
});

describe('the analytical lexicon', () => {
  it('leaves to the planner the markers whose reading depends on what follows, in every language', () => {
    for (const language of ['es', 'fr', 'de', 'pt', 'it'] as const) {
      const single = new Set(analyticalLexicon(language).filter((entry) => entry.words.length === 1).map((entry) => entry.words[0]));
      for (const marker of ['por', 'par', 'pro', 'per', 'je', 'nach', 'desde', 'hacia', 'de', 'aus', 'vers', 'verso', 'da']) expect(single.has(marker), `${language} ${marker}`).toBe(false);
    }
  });
});
