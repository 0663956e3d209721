// Every word that could restrict or change the number must be accounted for by a governed plan:
// negations, comparisons and a second period are never dropped, in any of the five languages, even
// when they are spelt like grammar.
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import { safetyIndex, safetyValues } from './safety-catalogs.js';

const plan = (question: string) => planOffline(question, safetyIndex, { values: safetyValues });

describe('words that restrict the number by themselves', () => {
  // A negation leaves its value out (accounted for by the negated filter); one that reaches no value is declined.
  it.each([
    ['revenue not in TX', 'state', 'TX'],
    ['revenue excluding the web channel', 'channel', 'web'],
    ['shipments other than from Austin', 'origin_city', 'Austin'],
    ['ingresos no en TX', 'state', 'TX'],
    ["chiffre d'affaires sauf TX", 'state', 'TX'],
    ["chiffre d'affaires hors WA", 'state', 'WA'],
    ['Umsatz ohne TX', 'state', 'TX'],
    ['Umsatz nicht in WA', 'state', 'WA'],
    ['receita exceto TX', 'state', 'TX'],
    ['receita sem WA', 'state', 'WA'],
  ])('"%s" leaves %s = %s out', (question, field, value) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', filters: [{ field, operator: 'notEquals', value }] });
  });

  it.each([
    ['ingresos sin la tienda', 'sin'],
    ['revenue excluding refunds', 'excluding'],
    ['shipments not delayed', 'not'],
    ['sales count over 100', 'over'],
    ['revenue of more than 50', 'more'],
    ['ventas de más de 100', 'más'],
    ["chiffre d'affaires de plus de 100", 'plus'],
    ['Umsatz über 100', 'über'],
    ['receita acima de 100', 'acima'],
    ['shipments since January', 'since'],
    ['Sendungen seit Mai', 'seit'],
    ['revenue before June by channel', 'before'],
  ])('"%s" is declined, naming "%s"', (question, word) => {
    const result = plan(question);
    expect(result.kind).toBe('no_match');
    if (result.kind === 'no_match') expect(result.reason).toContain(`"${word}"`);
  });

  it.each([
    // The same words where the plan used them: a role cue, Portuguese "no" (in the), "no. of".
    ['shipments desde Sevilla', [{ field: 'origin_city', operator: 'equals', value: 'Sevilla' }]],
    ['Sendungen nach Hamburg', [{ field: 'destination_city', operator: 'equals', value: 'Hamburg' }]],
    ['goles de Lions fuera de casa', [{ field: 'away_team', operator: 'equals', value: 'Lions' }]],
    ['receita no TX', [{ field: 'state', operator: 'equals', value: 'TX' }]],
    ['no. of sales', []],
  ])('"%s" is answered with the words it used', (question, filters) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', filters });
  });

  it.each([
    ['freight cost per shipment', 'freight_cost', 'shipments'],
    ['revenue per sale', 'revenue', 'sales_count'],
    ['coût du fret par expédition', 'freight_cost', 'shipments'],
  ])('"%s" asks for one metric per another: planned as %s per %s, never as the two totals', (question, metric, by) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', metrics: [metric], per: { by } });
  });

  it.each([['shipments by freight cost', 'by freight']])('"%s" asks for a ranking the plan does not express: declined, naming "%s"', (question, words) => {
    const result = plan(question);
    expect(result.kind).toBe('no_match');
    if (result.kind === 'no_match') expect(result.reason).toContain(`"${words}"`);
  });

  it.each(['goals per match', 'goles por partido', 'buts par match', 'Tore pro Spiel', 'gols por jogo'])('"%s" is the metric whose name says "per", not a ratio of two', (question) => {
    expect(plan(question)).toMatchObject({ kind: 'governed', metrics: ['goals_per_match'], dimensions: [] });
  });

  it('lets a top-N rank by a metric, and a metric word qualify a breakdown', () => {
    expect(plan('top 2 carriers by freight cost')).toMatchObject({ kind: 'governed', dimensions: ['carrier'], sort: { field: 'freight_cost', direction: 'desc' }, limit: 2 });
    expect(plan('revenue by sales channel')).toMatchObject({ kind: 'governed', dimensions: ['channel'] });
  });
});
