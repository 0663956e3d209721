// Telling a question's language from its function words: English questions stay English whatever
// names, values or shared words ("per", "total", "media", "die") they hold.
import { describe, expect, it } from 'vitest';
import { englishWordShare, isGrammarOfAnyLanguage, questionLanguage } from './question-language.js';

describe('questionLanguage', () => {
  it('reads the language of questions in the five other languages', () => {
    expect(questionLanguage('¿Cuántos viajes hubo en 2024?')).toBe('es');
    expect(questionLanguage('comisiones excluyendo el canal web en 2024')).toBe('es');
    expect(questionLanguage('Combien de trajets en plus en 2024 par rapport à 2023 ?')).toBe('fr');
    expect(questionLanguage("taux d'annulation au premier trimestre 2025")).toBe('fr');
    expect(questionLanguage('Buchungen von Gästen aus Japan im Jahr 2024')).toBe('de');
    expect(questionLanguage('Wie viele Fahrten endeten 2024 an der Station Harbour Front?')).toBe('de');
    expect(questionLanguage('reservas excluindo OTA em 2024')).toBe('pt');
    expect(questionLanguage('receita de tarifas por viagem em 2024')).toBe('pt');
    expect(questionLanguage('Quanti viaggi sono partiti da Central Station nel 2024?')).toBe('it');
    expect(questionLanguage('volume dei trasferimenti verso il Messico tramite app nel 2024')).toBe('it');
  });

  it('never takes an English question for another language', () => {
    for (const question of [
      'How many trips were there in 2024?',
      'revenue per trip in 2024',
      'total media spend per part',
      'die hard fans total media part',
      'How many trips from Los Angeles in 2024?',
      'trips from Del Mar by month',
      'fare revenue of El Paso riders',
      'transfers to La Paz via the app',
      'trips by station',
      'revenue',
      '',
    ]) {
      expect(questionLanguage(question), question).toBe('en');
    }
  });
});

describe('englishWordShare', () => {
  it('counts common English words, numbers and the words a caller knows', () => {
    expect(englishWordShare('How many trips were there in 2024?', () => false)).toBeGreaterThan(0.8);
    expect(englishWordShare('xq zzv blorp', () => false)).toBe(0);
    expect(englishWordShare('xq zzv blorp', (word) => word === 'blorp')).toBeCloseTo(1 / 3);
  });
});

describe('isGrammarOfAnyLanguage', () => {
  it('knows function, share, negation and direction words of every language, not domain words', () => {
    for (const word of ['nel', 'desde', 'anteil', 'quota', 'excluyendo', 'verso', 'aus', 'the']) expect(isGrammarOfAnyLanguage(word), word).toBe(true);
    for (const word of ['viajes', 'fahrten', 'prenotazioni', 'reservas']) expect(isGrammarOfAnyLanguage(word), word).toBe(false);
  });
});
