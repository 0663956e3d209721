// Verbs and function words that say how a number came about without restricting it ("were placed",
// "came in", "took place", "se registraron", "wurden erfasst") must not block an answer; the same
// word must restrict when the catalog knows it as a value, and derived forms of values never vanish.
import { describe, expect, it } from 'vitest';
import { ask, governed } from './models.js';

describe('non-restricting verbs and function words', () => {
  it('are ignored in English, whatever the verb', () => {
    expect(ask('library', 'how many loans were recorded at Central')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'branch', value: 'Central' }] }));
    expect(ask('library', 'loans that took place in Riverside')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'branch', value: 'Riverside' }] }));
    expect(ask('clinic', 'how many visits happened in cardiology')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'department', value: 'cardiology' }] }));
    expect(ask('clinic', 'visits that came in through emergency')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'visit_type', value: 'emergency' }] }));
    expect(ask('energy', 'readings logged at Depot by tariff')).toMatchObject(governed('energy', ['readings'], { dimensions: ['meters.tariff'], filters: [{ field: 'meters.site', value: 'Depot' }] }));
    expect(ask('bakery', 'takings that came in at the Porto shops')).toMatchObject(governed('bakery', ['takings'], { filters: [{ field: 'shops.city', value: 'Porto' }] }));
    // "took" is not "takings": a verb that restricts nothing never becomes a metric word.
    expect(ask('bakery', 'how many receipts took place in Lyon')).toMatchObject(governed('bakery', ['receipts'], { filters: [{ field: 'shops.city', value: 'Lyon' }] }));
    expect(ask('bakery', 'how many receipts did we get in Lyon')).toMatchObject(governed('bakery', ['receipts'], { filters: [{ field: 'shops.city', value: 'Lyon' }] }));
    expect(ask('library', 'late fees that went out by branch')).toMatchObject(governed('lending', ['late_fees'], { dimensions: ['branch'] }));
  });

  it('are ignored in Spanish, French, German and Portuguese', () => {
    expect(ask('library', 'cuántos préstamos se registraron en Central')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'branch', value: 'Central' }] }));
    expect(ask('clinic', 'cuántas consultas se realizaron en cardiology')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'department', value: 'cardiology' }] }));
    expect(ask('library', 'combien de prêts ont été enregistrés à Riverside')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'branch', value: 'Riverside' }] }));
    expect(ask('energy', 'combien de relevés ont été effectués au Depot')).toMatchObject(governed('energy', ['readings'], { filters: [{ field: 'meters.site', value: 'Depot' }] }));
    expect(ask('library', 'wie viele Ausleihen wurden in Central erfasst')).toMatchObject(governed('lending', ['loans'], { filters: [{ field: 'branch', value: 'Central' }] }));
    expect(ask('bakery', 'wie viele Kassenbons wurden in Leipzig getätigt')).toMatchObject(governed('bakery', ['receipts'], { filters: [{ field: 'shops.city', value: 'Leipzig' }] }));
    expect(ask('clinic', 'quantas consultas foram realizadas em cardiology')).toMatchObject(governed('care', ['visits'], { filters: [{ field: 'department', value: 'cardiology' }] }));
    expect(ask('bakery', 'quantos recibos foram registrados em Porto')).toMatchObject(governed('bakery', ['receipts'], { filters: [{ field: 'shops.city', value: 'Porto' }] }));
  });

  it('restrict when the catalog knows them as a value', () => {
    // "registered" is an outcome of a visit here, not a way of saying "counted".
    expect(ask('clinic', 'visits registered at Harbour')).toMatchObject(
      governed('care', ['visits'], { filters: [{ field: 'outcome', value: 'registered' }, { field: 'clinic', value: 'Harbour' }] }),
    );
  });

  it('never swallow words that restrict but that the catalog does not know', () => {
    for (const question of ['cancelled loans', 'loans returned late', 'visits that were delayed', 'refunded visits', 'loans placed online', 'visits that came in late', 'loans that went out of stock']) {
      const domain = question.includes('visits') ? 'clinic' : 'library';
      expect(ask(domain, question).kind, question).toBe('no_match');
    }
  });

  it('is not a metric by itself', () => {
    expect(ask('library', 'how many were recorded').kind).toBe('no_match');
    expect(ask('clinic', 'what happened').kind).toBe('no_match');
  });
});
