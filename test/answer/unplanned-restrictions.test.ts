// Generated questions: a question the planner answers, plus one restriction it did not plan for (a
// value, a negation, a comparison, an unknown word, a second period, "per customer", a ratio "per
// sale"), inserted at a random place, in a random language. None may come back as a governed plan that ignores it: a value
// must show up as a filter, a negation as a filter that leaves a value out, "per X" as a breakdown,
// "per sale" as a ratio, everything else must be declined.
// Seeded: PLANNER_FUZZ_SEED=<n> reproduces a run, PLANNER_FUZZ_RUNS=<n> changes its length.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import type { AnswerPlan, GovernedPlan } from '../../src/core/answer/plan.js';
import { safetyIndex, safetyValues } from './safety-catalogs.js';

const SEED = Number(process.env.PLANNER_FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.PLANNER_FUZZ_RUNS ?? 400);

const plan = (question: string): AnswerPlan => planOffline(question, safetyIndex, { values: safetyValues });

// Questions the planner answers over the retail and freight reveals, in five languages.
const DOMAINS = [
  {
    metrics: ['revenue', 'sales count', 'ingresos', 'ventas', "chiffre d'affaires", 'Umsatz', 'receita', 'number of sales'],
    breakdowns: ['', 'by channel', 'por canal', 'par canal', 'nach Kanal', 'por estado', 'by product line', 'monthly', 'by month', 'mensal'],
    filters: ['', 'in TX', 'en WA', 'for the Garden product line', 'on the web channel', 'in OR', 'für DIE'],
  },
  {
    metrics: ['shipments', 'freight cost', 'envíos', 'expéditions', 'Sendungen', 'remessas', 'Frachtkosten'],
    breakdowns: ['', 'by carrier', 'per carrier', 'by destination city', 'weekly', 'by quarter'],
    filters: ['', 'from Austin', 'to Dallas', 'from Lyon to Porto', 'desde Sevilla', 'nach Hamburg', 'Swift'],
  },
];

const base = fc
  .constantFrom(...DOMAINS)
  .chain((domain) => fc.tuple(fc.constantFrom(...domain.metrics), fc.constantFrom(...domain.breakdowns), fc.constantFrom(...domain.filters)))
  .map((parts) => parts.filter(Boolean).join(' '));

type Restriction =
  | { readonly kind: 'value'; readonly text: string; readonly value: string }
  /** A negation with the value it leaves out ('' when none follows it). */
  | { readonly kind: 'negation'; readonly text: string; readonly value: string }
  /** "per sale": one metric per another, planned as a ratio (`per`) or declined; at the end of the question. */
  | { readonly kind: 'ratio'; readonly text: string; readonly atEnd: true }
  | { readonly kind: 'breakdown'; readonly text: string; readonly words: string }
  | { readonly kind: 'decline'; readonly text: string; readonly atEnd?: boolean };

const VALUES: ReadonlyArray<readonly [string, string]> = [
  ['CA', 'CA'], ['OR', 'OR'], ['IN', 'IN'], ['ME', 'ME'], ['store', 'store'], ['Garden', 'Garden'], ['THE', 'THE'], ['DIE', 'DIE'],
  ['Hamburg', 'Hamburg'], ['Atlas', 'Atlas'], ['Boston', 'Boston'],
];
// Negations that need their object: alone at the end they read otherwise ("receita no de" is
// Portuguese "revenue in DE"). Spanish "no" only before a preposition, where it cannot be "in the".
const NEGATIONS_OF = ['no en', 'no de', 'not in', 'not from', 'other than'];
const NEGATIONS = ['not', 'not in', 'except', 'excluding', 'without', 'other than', 'sin', 'excepto', 'salvo', 'sauf', 'sans', 'hors', 'ohne', 'nicht', 'außer', 'exceto', 'sem', 'não', 'ni', 'nor', 'non', 'kein', 'pas'];
const COMPARISONS = ['above 100', 'over 100', 'more than 50', 'less than 20', 'at least 5', 'under 30', 'más de 100', 'menos de 10', 'plus de 100', 'moins de 5', 'über 100', 'unter 50', 'mindestens 3', 'acima de 100', 'mais de 7', 'abaixo de 9', 'greater than 1'];
const UNKNOWN = ['churn', 'employees', 'inventory', 'margin', 'refunds', 'rating', 'warehouse', 'profit', 'returns', 'Lieferzeit', 'devoluciones', 'remboursements', 'estoque'];
const PERIODS = ['last year', 'since March', 'in 2023', 'yesterday', 'before June', 'el año pasado', "l'année dernière", 'letztes Jahr', 'ano passado', 'depuis janvier', 'seit Mai', 'desde marzo'];
const RATIOS = ['per sale', 'per shipment', 'average per sale', 'by revenue', 'by freight cost', 'par expédition', 'pro Sendungen'];
const PER = ['per customer', 'average per customer', 'por cliente', 'par client', 'pro Kunde', 'por cliente médio'];

const restriction: fc.Arbitrary<Restriction> = fc.oneof(
  fc.constantFrom(...VALUES).map(([text, value]): Restriction => ({ kind: 'value', text, value })),
  fc.tuple(fc.constantFrom(...NEGATIONS), fc.constantFrom('', 'TX', 'web', 'Garden', 'Austin')).map(([word, value]): Restriction => ({ kind: 'negation', text: [word, value].filter(Boolean).join(' '), value })),
  fc.tuple(fc.constantFrom(...NEGATIONS_OF), fc.constantFrom('TX', 'web', 'Garden', 'Austin', 'CA')).map(([word, value]): Restriction => ({ kind: 'negation', text: `${word} ${value}`, value })),
  fc.constantFrom(...COMPARISONS).map((text): Restriction => ({ kind: 'decline', text })),
  fc.constantFrom(...UNKNOWN).map((text): Restriction => ({ kind: 'decline', text })),
  fc.constantFrom(...PERIODS).map((text): Restriction => ({ kind: 'decline', text })),
  // At the end: right before a dimension, "per sale channel" is the "sales channel" breakdown.
  fc.constantFrom(...RATIOS).map((text): Restriction => ({ kind: 'ratio', text, atEnd: true })),
  fc.constantFrom(...PER).map((text): Restriction => ({ kind: 'breakdown', text, words: 'customer' })),
);

function insert(question: string, text: string, at: number): string {
  const words = question.split(' ');
  const position = at % (words.length + 1);
  return [...words.slice(0, position), text, ...words.slice(position)].join(' ');
}

const holds = (filter: GovernedPlan['filters'][number], value: string): boolean => (typeof filter.value === 'string' ? filter.value === value : filter.value.includes(value));
const negated = (filter: GovernedPlan['filters'][number]): boolean => filter.operator === 'notEquals' || filter.operator === 'notIn';

/** Whether a governed plan reflects the restriction the question added. */
function reflects(governed: GovernedPlan, added: Restriction): boolean {
  if (added.kind === 'decline') return false;
  if (added.kind === 'value') return governed.filters.some((filter) => holds(filter, added.value));
  // A negation must leave a value out: its own, or (without one) the value it reached.
  if (added.kind === 'negation') return governed.filters.some((filter) => negated(filter) && (added.value === '' || holds(filter, added.value)));
  if (added.kind === 'ratio') return governed.per !== undefined;
  return governed.dimensions.some((field) => field.includes(added.words));
}

describe('no unplanned restriction comes back governed', () => {
  it('base questions are answered', () => {
    fc.assert(
      fc.property(base, (question) => {
        expect(plan(question), question).toMatchObject({ kind: 'governed' });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('a question with an added value, negation, comparison, unknown word, period or "per X" is declined or planned with it', () => {
    fc.assert(
      fc.property(base, restriction, fc.nat(20), (question, added, at) => {
        fc.pre(plan(question).kind === 'governed');
        const asked = (added.kind === 'decline' || added.kind === 'ratio') && added.atEnd ? `${question} ${added.text}` : insert(question, added.text, at);
        const result = plan(asked);
        if (result.kind === 'governed') expect(reflects(result, added), `${asked} → ${JSON.stringify(result)}`).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
