// Values that are also grammar words ("OR", "IN", "DIE", "UN", "THE", "A", "ES"): named as values they
// must become filters, never be dropped as stop words and give the whole population's number.
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import { safetyIndex, safetyValues } from './safety-catalogs.js';

const plan = (question: string) => planOffline(question, safetyIndex, { values: safetyValues });
const eq = (field: string, value: string) => ({ field, operator: 'equals', value });

describe('values that are also grammar words', () => {
  it.each([
    // Typed as a code (upper case in a mixed-case question), in every language.
    ['revenue in OR', 'state', 'OR'],
    ['Revenue in IN', 'state', 'IN'],
    ['sales count in ME', 'state', 'ME'],
    ['ingresos en OR', 'state', 'OR'],
    ['ventas de IN', 'state', 'IN'],
    ['Umsatz in DE', 'state', 'DE'],
    ['receita em OR', 'state', 'OR'],
    ["chiffre d'affaires dans IN", 'state', 'IN'],
    ['revenue for product line THE', 'product_line', 'THE'],
    ['revenue of product line A', 'product_line', 'A'],
    ['ingresos de UN', 'product_line', 'UN'],
    ['Umsatz für DIE', 'product_line', 'DIE'],
    ["chiffre d'affaires de ELLE", 'product_line', 'ELLE'],
    ['receita de ES', 'product_line', 'ES'],
  ])('"%s" filters %s = %s', (question, field, value) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', reveal: 'retail', filters: [eq(field, value)] });
  });

  it.each([
    // Where a grammar word cannot stand (last word, before a breakdown), position decides when case cannot.
    ['revenue in or', 'state', 'OR', []],
    ['REVENUE IN OR', 'state', 'OR', []],
    ['revenue in in', 'state', 'IN', []],
    ['revenue in or by channel', 'state', 'OR', ['channel']],
    ['ingresos en in por canal', 'state', 'IN', ['channel']],
    // After an article a grammar word cannot stand either, whatever the case: "the us", "el es".
    ['Revenue in the us', 'state', 'US', []],
    ['Sales count in the or by channel', 'state', 'OR', ['channel']],
  ])('"%s" reads the code by its position', (question, field, value, dimensions) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', filters: [eq(field, value)], dimensions });
  });

  it.each([
    ['revenue in or and in', ['OR', 'IN']],
    ['ventas en or y wa', ['OR', 'WA']],
    ['umsatz in me oder in', ['ME', 'IN']],
  ])('"%s" reads codes before "and"/"or" as values', (question, values) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', filters: [{ field: 'state', operator: 'in', value: values }] });
  });

  it.each([
    // Grammar stays grammar where it reads as grammar, although a value has the same letters.
    ['revenue in WA', [eq('state', 'WA')]],
    ['REVENUE IN WA', [eq('state', 'WA')]],
    ['What is the revenue in TX', [eq('state', 'TX')]],
    ['revenue in WA or TX', [{ field: 'state', operator: 'in', value: ['WA', 'TX'] }]],
    ['show me the revenue', []],
    ['Show us the revenue', []],
    ['Umsatz für die Garden', [eq('product_line', 'Garden')]],
    ['revenue in the store channel', [eq('channel', 'store')]],
  ])('"%s" keeps the grammar words as grammar', (question, filters) => {
    const result = plan(question);
    if (filters.length === 0) expect(result).toMatchObject({ kind: 'governed', filters: [] });
    else expect(result).toMatchObject({ kind: 'governed', filters });
  });

  it.each([
    // Typed in lower case in a question that uses case, where grammar cannot stand: the reading is unsure.
    ['Revenue in or', 'OR'],
    ['Ingresos en in', 'IN'],
    ['Revenue in the', 'THE'],
  ])('"%s" declines and names the value it could be', (question, value) => {
    const result = plan(question);
    expect(result.kind).toBe('no_match');
    // The word as typed, then the value as stored: a decline quotes only the question.
    if (result.kind === 'no_match') {
      expect(result.reason).toContain(`"${value.toLowerCase()}"`);
      expect(result.reason).toMatch(new RegExp(`could be a word of the sentence or the value [A-Z, ]*\\b${value}\\b`));
    }
  });

  it.each([
    ['which 3 product lines had the most revenue', 'the most'],
    ['the 2 product lines with the lowest revenue', 'the lowest'],
    ['Which 3 product lines had the highest revenue', 'the highest'],
  ])('"%s" reads an article before a ranking word as grammar (%s)', (question) => {
    expect(plan(question)).not.toMatchObject({ filters: expect.arrayContaining([expect.objectContaining({ value: 'THE' })]) });
    expect(plan(question)).toMatchObject({ kind: 'governed', dimensions: ['product_line'], filters: [] });
  });
});
