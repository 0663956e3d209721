// Halves of a year in the five languages: with a year, of this or last year, and without a year (the
// latest one that has begun), and the halves of something else that must not be read as one.
import { describe, it } from 'vitest';
import { H1_2019, LAST_H2, THIS_H1, expectNone, expectPeriods, v } from './test-helpers.js';

const H2_2019 = ['2019_h2', '2019-07-01', '2020-01-01'] as const;
const LAST_H1 = ['last_year_h1', '2024-01-01', '2024-07-01'] as const;

describe('halves', () => {
  it('reads worded and lettered halves with a year in English', () => {
    expectPeriods([
      v('revenue in the first half of 2019', H1_2019, 'in the first half of 2019'),
      v('second half of 2019', H2_2019),
      v('1st half 2019', H1_2019),
      v('2nd half of 2019 by region', H2_2019, '2nd half of 2019'),
      v('first half-year 2019', H1_2019),
      v('H1 2019', H1_2019),
      v('h2/2019', H2_2019),
      v('orders 2019 H2 by region', H2_2019, '2019 H2'),
      v('2019-H1', H1_2019),
      v('2019H2', H2_2019),
      v('1H 2019', H1_2019),
      v('2H 2019 churn', H2_2019, '2H 2019'),
    ]);
  });

  it('reads halves of this year and last year, the current one running to tomorrow', () => {
    expectPeriods([
      v('the first half of last year', LAST_H1),
      v('signups in the second half of last year', LAST_H2, 'in the second half of last year'),
      v('first half of this year', THIS_H1),
      v('first half of the year', THIS_H1),
      // Not begun yet: the whole half, like "Q3 2025", rather than an empty range.
      v('second half of this year', ['this_year_h2', '2025-07-01', '2026-01-01']),
    ]);
  });

  it('reads a half without a year as the latest one that has begun', () => {
    expectPeriods([
      v('revenue in the second half', LAST_H2, 'in the second half'),
      v('revenue in the first half', THIS_H1, 'in the first half'),
    ]);
    const september = { now: new Date('2025-09-10T12:00:00Z'), timezone: 'UTC' };
    expectPeriods(
      [
        v('revenue in the second half', ['this_year_h2', '2025-07-01', '2025-09-11'], 'in the second half'),
        v('revenue in the first half', ['this_year_h1', '2025-01-01', '2025-07-01'], 'in the first half'),
        v('erstes Halbjahr', ['this_year_h1', '2025-01-01', '2025-07-01']),
      ],
      september,
    );
  });

  it('does not read a half of something other than a year, nor a bare letter form', () => {
    expectNone([
      'goals in the second half of the match',
      'first half of the season',
      'segunda mitad del partido',
      'H1',
      'H1 revenue',
      'S2 sales',
      'half of the customers',
      'second halves',
    ]);
  });

  it('reads Spanish halves', () => {
    expectPeriods([
      v('ventas del primer semestre de 2019', H1_2019, 'del primer semestre de 2019'),
      v('segundo semestre de 2019', H2_2019),
      v('1er semestre 2019', H1_2019),
      v('2º semestre de 2019', H2_2019),
      v('primera mitad de 2019', H1_2019),
      v('ventas del segundo semestre del año pasado', LAST_H2, 'del segundo semestre del año pasado'),
      v('primer semestre de este año', THIS_H1),
      v('ventas del segundo semestre', LAST_H2, 'del segundo semestre'),
      v('S1 2019', H1_2019),
    ]);
  });

  it('reads French halves', () => {
    expectPeriods([
      v('premier semestre 2019', H1_2019),
      v('ventes du second semestre 2019', H2_2019, 'du second semestre 2019'),
      v('deuxième semestre 2019', H2_2019),
      v('1er semestre 2019', H1_2019),
      v('S1 2019', H1_2019),
      v('S2 2019', H2_2019),
      v('première moitié de 2019', H1_2019),
      v("ventes du premier semestre de l'année dernière", LAST_H1, "du premier semestre de l'année dernière"),
      v('premier semestre de l’an dernier', LAST_H1),
      v('premier semestre de cette année', THIS_H1),
      v('ventes au premier semestre 2019', H1_2019, 'au premier semestre 2019'),
      v('ventes du second semestre', LAST_H2, 'du second semestre'),
    ]);
  });

  it('reads German halves', () => {
    expectPeriods([
      v('erstes Halbjahr 2019', H1_2019),
      v('zweites Halbjahr 2019', H2_2019),
      v('1. Halbjahr 2019', H1_2019),
      v('2. HJ 2019', H2_2019),
      v('H1 2019', H1_2019),
      v('Umsatz im ersten Halbjahr 2019', H1_2019, 'im ersten Halbjahr 2019'),
      v('erste Jahreshälfte 2019', H1_2019),
      v('Umsatz im zweiten Halbjahr des letzten Jahres', LAST_H2, 'im zweiten Halbjahr des letzten Jahres'),
      v('Umsatz im ersten Halbjahr des Vorjahres', LAST_H1, 'im ersten Halbjahr des Vorjahres'),
      v('Umsatz im ersten Halbjahr dieses Jahres', THIS_H1, 'im ersten Halbjahr dieses Jahres'),
      v('Umsatz im zweiten Halbjahr', LAST_H2, 'im zweiten Halbjahr'),
    ]);
  });

  it('reads Portuguese halves', () => {
    expectPeriods([
      v('primeiro semestre de 2019', H1_2019),
      v('segundo semestre de 2019', H2_2019),
      v('vendas do primeiro semestre do ano passado', LAST_H1, 'do primeiro semestre do ano passado'),
      v('1º semestre de 2019', H1_2019),
      v('primeira metade de 2019', H1_2019),
      v('vendas no segundo semestre', LAST_H2, 'no segundo semestre'),
      v('segundo semestre deste ano', ['this_year_h2', '2025-07-01', '2026-01-01']),
    ]);
  });
});
