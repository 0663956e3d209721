// Values shared by two dimensions that play opposite roles (origin/destination, seller/buyer,
// home/away) are bound by the words around them, in five languages; when nothing says which role,
// the planner declines naming both, never guesses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { safetyIndex, safetyValues } from './safety-catalogs.js';

const plan = (question: string) => planOffline(question, safetyIndex, { values: safetyValues });
const eq = (field: string, value: string) => ({ field, operator: 'equals', value });

function filtersOf(result: AnswerPlan): unknown {
  if (result.kind !== 'governed') return result;
  return [...result.filters].sort((a, b) => a.field.localeCompare(b.field));
}

describe('values bound to roles', () => {
  it.each([
    ['shipments from Austin to Dallas', 'Austin', 'Dallas'],
    ['shipments to Dallas from Austin', 'Austin', 'Dallas'],
    ['how many shipments went out of Austin into Dallas', 'Austin', 'Dallas'],
    ['freight cost of shipments departing Austin bound for Dallas', 'Austin', 'Dallas'],
    ['shipments Austin to Dallas', 'Austin', 'Dallas'],
    ['envíos desde Sevilla hacia Porto', 'Sevilla', 'Porto'],
    ['envíos de Sevilla a Porto', 'Sevilla', 'Porto'],
    ['expéditions depuis Lyon vers Hamburg', 'Lyon', 'Hamburg'],
    ['expéditions de Lyon à Hamburg', 'Lyon', 'Hamburg'],
    ['Sendungen von Hamburg nach Lyon', 'Hamburg', 'Lyon'],
    ['Sendungen aus Hamburg nach Lyon', 'Hamburg', 'Lyon'],
    ['remessas de Porto para Sevilla', 'Porto', 'Sevilla'],
    ['remessas do Porto para Sevilla', 'Porto', 'Sevilla'],
  ])('"%s" is two filters on two fields: origin %s, destination %s', (question, origin, destination) => {
    expect(filtersOf(plan(question))).toEqual([eq('destination_city', destination), eq('origin_city', origin)]);
  });

  it.each([
    ['shipments from Austin', 'origin_city', 'Austin'],
    ['shipments leaving Dallas', 'origin_city', 'Dallas'],
    ['shipments with origin Lyon', 'origin_city', 'Lyon'],
    ['shipments to Austin', 'destination_city', 'Austin'],
    ['shipments arriving in Hamburg', 'destination_city', 'Hamburg'],
    ['freight cost for destination Porto', 'destination_city', 'Porto'],
    ['envíos hacia Austin', 'destination_city', 'Austin'],
    ['expéditions vers Lyon', 'destination_city', 'Lyon'],
    ['Sendungen nach Hamburg', 'destination_city', 'Hamburg'],
    ['remessas para Porto', 'destination_city', 'Porto'],
    // Known only as an origin in the values looked up, but asked as a destination: the destination field.
    ['shipments to New York', 'destination_city', 'New York'],
    ['shipments from Boston', 'origin_city', 'Boston'],
  ])('"%s" binds %s = %s', (question, field, value) => {
    expect(filtersOf(plan(question))).toEqual([eq(field, value)]);
  });

  it.each([
    ['trades sold by Acme', 'seller', 'Acme'],
    ['trades bought by Globex', 'buyer', 'Globex'],
    ['trades sold to Acme', 'buyer', 'Acme'],
    ['trades bought from Globex', 'seller', 'Globex'],
    ['trade volume with seller Acme', 'seller', 'Acme'],
    ['operaciones vendidas por Acme', 'seller', 'Acme'],
    ['goals of Lions at home', 'home_team', 'Lions'],
    ['home goals of the Tigers', 'home_team', 'Tigers'],
    ['away goals of the Tigers', 'away_team', 'Tigers'],
    ['goles de Lions fuera de casa', 'away_team', 'Lions'],
    ['Tore der Bears auswärts', 'away_team', 'Bears'],
    ['buts des Bears à domicile', 'home_team', 'Bears'],
    ['gols do Lions em casa', 'home_team', 'Lions'],
  ])('"%s" binds %s = %s', (question, field, value) => {
    expect(filtersOf(plan(question))).toEqual([eq(field, value)]);
  });

  it.each([
    ['shipments Austin', 'Austin', ['Origin city', 'Destination city']],
    ['freight cost in Dallas', 'Dallas', ['Origin city', 'Destination city']],
    ['envíos en Lyon', 'Lyon', ['Origin city', 'Destination city']],
    ['trades of Acme', 'Acme', ['Seller', 'Buyer']],
    ['trades with Globex', 'Globex', ['Seller', 'Buyer']],
    ['goals of Lions', 'Lions', ['Home team', 'Away team']],
    ['Spiele der Tigers', 'Tigers', ['Home team', 'Away team']],
  ])('"%s" declines, naming both roles of %s', (question, value, labels) => {
    const result = plan(question);
    expect(result.kind).toBe('no_match');
    if (result.kind !== 'no_match') return;
    expect(result.reason).toContain(value);
    for (const label of labels) expect(result.reason.toLowerCase()).toContain(label.toLowerCase());
  });

  it('keeps a value of a dimension without a role as it was: one field, no cue needed', () => {
    expect(filtersOf(plan('shipments by Swift'))).not.toEqual([eq('carrier', 'Swift')]);
    expect(filtersOf(plan('Swift shipments from Austin'))).toEqual([eq('carrier', 'Swift'), eq('origin_city', 'Austin')]);
  });

  it.each(['revenue from TX to CA', 'ventas desde TX hasta CA', 'Umsatz von TX nach CA', "chiffre d'affaires de TX à CA", 'receita de TX para CA'])(
    '"%s" on one field without roles is a range or a route: declined, never IN (TX, CA)',
    (question) => {
      const result = plan(question);
      expect(result.kind).toBe('no_match');
      // "nach CA" may also read as a breakdown by an unknown "CA": declined either way.
      if (result.kind === 'no_match' && !question.includes('nach')) expect(result.reason).toContain('over TX and CA');
    },
  );

  it.each(['shipments between Austin and Dallas', 'envíos entre Sevilla y Porto', 'Sendungen zwischen Hamburg und Lyon'])('"%s" names no direction: declined', (question) => {
    expect(plan(question).kind).toBe('no_match');
  });

  it('keeps "from" before one value of a field without roles as plain grammar', () => {
    expect(filtersOf(plan('revenue from TX and CA'))).toEqual([{ field: 'state', operator: 'in', value: ['TX', 'CA'] }]);
    expect(filtersOf(plan('revenue from the web channel'))).toEqual([eq('channel', 'web')]);
  });

  it('binds generated "from A to B" questions in any language and order to the two role fields', () => {
    const cities = ['Austin', 'Dallas', 'Lyon', 'Hamburg', 'Porto', 'Sevilla'];
    const cues = [
      ['from', 'to'], ['out of', 'into'], ['departing', 'bound for'], ['desde', 'hacia'], ['desde', 'para'],
      ['depuis', 'vers'], ['von', 'nach'], ['aus', 'nach'], ['de', 'para'],
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom('shipments', 'freight cost', 'envíos', 'expéditions', 'Sendungen', 'remessas'), fc.constantFrom(...cues), fc.constantFrom(...cities), fc.constantFrom(...cities), fc.boolean(), (metric, [from, to], origin, destination, reversed) => {
        fc.pre(origin !== destination);
        const parts = [`${from} ${origin}`, `${to} ${destination}`];
        const question = `${metric} ${(reversed ? parts.reverse() : parts).join(' ')}`;
        expect(filtersOf(plan(question)), question).toEqual([eq('destination_city', destination), eq('origin_city', origin)]);
      }),
      { seed: 20_261_123, numRuns: 300 },
    );
  });
});
