// Generated questions over the invented models: a verb that restricts nothing never changes a plan,
// and a word that would restrict (or a superlative with nothing to rank) never lets a governed plan
// through. Each base question is itself checked to be governed first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainName } from './models.js';
import { ask } from './models.js';

interface Grammar {
  readonly domain: DomainName;
  readonly metrics: readonly string[];
  readonly filters: readonly string[];
  readonly breakdowns: readonly string[];
  /** Restricting words this model knows as values ("cancel" is a visit outcome): they filter. */
  readonly known?: readonly string[];
}

const GRAMMARS: readonly Grammar[] = [
  { domain: 'library', metrics: ['loans', 'late fees', 'borrowers', 'checkouts'], filters: ['', 'at Central', 'in Riverside', 'for fiction', 'of student members'], breakdowns: ['', 'by genre', 'per branch', 'by month'], known: ['late'] },
  { domain: 'clinic', metrics: ['visits', 'average wait', 'refunds', 'invoices'], filters: ['', 'in cardiology', 'at Harbour', 'for emergency visits'], breakdowns: ['', 'by department', 'per clinic', 'by week'], known: ['cancelled'] },
  { domain: 'energy', metrics: ['consumption', 'readings', 'peak demand'], filters: ['', 'at Depot', 'in rainy weather', 'on smart meters'], breakdowns: ['', 'by tariff', 'per site', 'by day'] },
  { domain: 'bakery', metrics: ['takings', 'receipts', 'units sold'], filters: ['', 'in Lyon', 'for croissants', 'of pastry'], breakdowns: ['', 'by city', 'per product', 'by month'] },
];
const NON_RESTRICTING = ['were recorded', 'that came in', 'that took place', 'were logged', 'that happened', 'se registraron', 'wurden erfasst'];
const RESTRICTING = ['cancelled', 'late', 'online', 'delayed', 'stormy', 'premium', 'unpaid', 'weekend', 'excluding', 'not'];
const LONELY_SUPERLATIVES = ['most', 'fewest', 'least', 'highest', 'more'];

const questions = fc.constantFrom(...GRAMMARS).chain((grammar) =>
  fc.record({
    domain: fc.constant(grammar.domain),
    metric: fc.constantFrom(...grammar.metrics),
    filter: fc.constantFrom(...grammar.filters),
    breakdown: fc.constantFrom(...grammar.breakdowns),
    restricting: fc.constantFrom(...RESTRICTING.filter((word) => !(grammar.known ?? []).includes(word))),
  }),
);
const sentence = (...parts: string[]): string => parts.filter((part) => part !== '').join(' ');

describe('generated questions', () => {
  it('a verb that restricts nothing leaves the plan as it was', () => {
    fc.assert(
      fc.property(questions, fc.constantFrom(...NON_RESTRICTING), ({ domain, metric, filter, breakdown }, verb) => {
        const base = ask(domain, sentence(metric, filter, breakdown));
        fc.pre(base.kind === 'governed');
        expect(ask(domain, sentence(metric, verb, filter, breakdown))).toEqual(base);
      }),
      { numRuns: 300 },
    );
  });

  it('a restricting word the catalog does not know never comes back governed', () => {
    fc.assert(
      fc.property(questions, fc.boolean(), ({ domain, metric, filter, breakdown, restricting: word }, before) => {
        const question = before ? sentence(word, metric, filter, breakdown) : sentence(metric, filter, word, breakdown);
        expect(ask(domain, question).kind, question).toBe('no_match');
      }),
      { numRuns: 300 },
    );
  });

  it('a superlative with no dimension to rank never comes back governed', () => {
    fc.assert(
      fc.property(questions, fc.constantFrom(...LONELY_SUPERLATIVES), ({ domain, metric, filter }, superlative) => {
        const question = sentence('the', superlative, metric, filter);
        expect(ask(domain, question).kind, question).toBe('no_match');
      }),
      { numRuns: 200 },
    );
  });
});
