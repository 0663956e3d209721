// Ranges and open ranges in the five languages: the forms each language writes, the year a phrase
// without one resolves to, phrases the grammar must refuse rather than misread, time zones, and
// that the phrase cut out of the question takes every word of the period with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MONTH_NAMES } from './period-lexicon.js';
import { findPeriod, isPeriodToken } from './periods.js';
import { H1_2019, LAST_H2, UTC, expectNone, expectPeriods, v } from './test-helpers.js';

const JAN_JUN_2019 = ['2019_01..2019_06', '2019-01-01', '2019-07-01'] as const;
const MAR_MAY_2019 = ['2019_03..2019_05', '2019-03-01', '2019-06-01'] as const;
const YEARS_2017_2019 = ['2017..2019', '2017-01-01', '2020-01-01'] as const;
const Q1_Q3_2019 = ['2019_q1..2019_q3', '2019-01-01', '2019-10-01'] as const;
const SINCE_MARCH_2019 = ['since_2019_03', '2019-03-01', '2025-06-19'] as const;
const SINCE_2019 = ['since_2019', '2019-01-01', '2025-06-19'] as const;

describe('month ranges', () => {
  it('reads English month ranges with the year once or on both ends', () => {
    expectPeriods([
      v('revenue from January to June 2019', JAN_JUN_2019, 'from January to June 2019'),
      v('January to June 2019', JAN_JUN_2019),
      v('between March and May 2019', MAR_MAY_2019),
      v('Jan–Jun 2019', JAN_JUN_2019),
      v('Jan-Jun 2019', JAN_JUN_2019),
      v('Jan - Jun 2019', JAN_JUN_2019),
      v('January through June 2019', JAN_JUN_2019),
      v('Jan thru Jun 2019', JAN_JUN_2019),
      v('January until June 2019', JAN_JUN_2019),
      v('Jan. till Jun. 2019', JAN_JUN_2019),
      v('March 2019 to May 2019', MAR_MAY_2019),
      v('Mar 2019 – May 2019', MAR_MAY_2019),
      v('from March 2018 to February 2019', ['2018_03..2019_02', '2018-03-01', '2019-03-01']),
      v('from November 2018 to February', ['2018_11..2019_02', '2018-11-01', '2019-03-01']),
      v('from March to March 2019', ['2019_03', '2019-03-01', '2019-04-01']),
    ]);
  });

  it('reads a range without a year as the latest one that has begun', () => {
    expectPeriods([
      v('between March and May', ['2025_03..2025_05', '2025-03-01', '2025-06-01']),
      v('between September and November', ['2024_09..2024_11', '2024-09-01', '2024-12-01']),
      // Across New Year when no year says otherwise.
      v('from November to February', ['2024_11..2025_02', '2024-11-01', '2025-03-01']),
      v('desde enero hasta junio', ['2025_01..2025_06', '2025-01-01', '2025-07-01']),
    ]);
  });

  it('reads month ranges in Spanish, French, German and Portuguese', () => {
    expectPeriods([
      v('ventas de enero a junio de 2019', JAN_JUN_2019, 'de enero a junio de 2019'),
      v('ventas entre marzo y mayo de 2019', MAR_MAY_2019, 'entre marzo y mayo de 2019'),
      v('desde enero hasta junio de 2019', JAN_JUN_2019),
      v('ene-jun 2019', JAN_JUN_2019),
      v('de janvier à juin 2019', JAN_JUN_2019),
      v('ventes entre mars et mai 2019', MAR_MAY_2019, 'entre mars et mai 2019'),
      v('janvier-juin 2019', JAN_JUN_2019),
      v('de janvier jusqu’à juin 2019', JAN_JUN_2019),
      v('Umsatz von Januar bis Juni 2019', JAN_JUN_2019, 'von Januar bis Juni 2019'),
      v('zwischen März und Mai 2019', MAR_MAY_2019),
      v('Januar bis Juni 2019', JAN_JUN_2019),
      v('von März 2018 bis Februar 2019', ['2018_03..2019_02', '2018-03-01', '2019-03-01']),
      v('vendas de janeiro a junho de 2019', JAN_JUN_2019, 'de janeiro a junho de 2019'),
      v('entre março e maio de 2019', MAR_MAY_2019),
      v('de janeiro até junho de 2019', JAN_JUN_2019),
    ]);
  });
});

describe('quarter and year ranges', () => {
  it('reads quarter ranges', () => {
    expectPeriods([
      v('from Q1 to Q3 2019', Q1_Q3_2019),
      v('Q1–Q3 2019', Q1_Q3_2019),
      v('Q1-Q3 2019', Q1_Q3_2019),
      v('between Q1 and Q3 2019', Q1_Q3_2019),
      v('Q3 2018 to Q2 2019', ['2018_q3..2019_q2', '2018-07-01', '2019-07-01']),
      v('del T1 al T3 de 2019', Q1_Q3_2019),
      v('du T1 au T3 2019', Q1_Q3_2019),
      v('Q1 bis Q3 2019', Q1_Q3_2019),
      v('do T1 ao T3 de 2019', Q1_Q3_2019),
      v('Q1 through Q3 of 2019', Q1_Q3_2019),
    ]);
  });

  it('reads ranges of lettered halves', () => {
    expectPeriods([
      v('H2 2019 to H1 2020', ['2019_h2..2020_h1', '2019-07-01', '2020-07-01']),
      v('from S2 2018 to S1 2019', ['2018_h2..2019_h1', '2018-07-01', '2019-07-01']),
      v('H1–H2 2019', ['2019_h1..2019_h2', '2019-01-01', '2020-01-01']),
      v('S2 2018 a S1 2019', ['2018_h2..2019_h1', '2018-07-01', '2019-07-01']),
      v('de S2 2018 à S1 2019', ['2018_h2..2019_h1', '2018-07-01', '2019-07-01']),
      v('H2 2019 bis H1 2020', ['2019_h2..2020_h1', '2019-07-01', '2020-07-01']),
    ]);
    expectNone(['from H2 to H1 2019']);
  });

  it('does not read letter-and-digit ends without a year, which are as likely codes', () => {
    expectNone(['from Q1 to Q3', 'shipments from T2 to T3', 'parcels from S1 to S2', 'H1-H2', 'zones between S1 and S2']);
    expectPeriods([v('sizes S1 last year', ['last_year', '2024-01-01', '2025-01-01'], 'last year')]);
  });

  it('reads quarter ranges written with ordinals', () => {
    expectPeriods([
      v('revenue from the first to the third quarter of 2019', Q1_Q3_2019, 'from the first to the third quarter of 2019'),
      v('first to third quarter 2019', Q1_Q3_2019),
      v('1st–3rd quarters 2019', Q1_Q3_2019),
      v('between the first and third quarter of 2019', Q1_Q3_2019),
      v('ventas del primer al tercer trimestre de 2019', Q1_Q3_2019, 'del primer al tercer trimestre de 2019'),
      v('du premier au troisième trimestre 2019', Q1_Q3_2019),
      v('vom ersten bis zum dritten Quartal 2019', Q1_Q3_2019),
      v('do primeiro ao terceiro trimestre de 2019', Q1_Q3_2019),
      v('do 1º ao 3º trimestre de 2019', Q1_Q3_2019),
      v('from the second to the fourth quarter', ['2025_q2..2025_q4', '2025-04-01', '2026-01-01']),
    ]);
    expectNone(['from the third to the first quarter of 2019', 'revenue over 2 to 3 quarters', 'between 1 and 4 quarters']);
  });

  it('reads year ranges in the five languages', () => {
    expectPeriods([
      v('2017 to 2019', YEARS_2017_2019),
      v('revenue from 2017 to 2019', YEARS_2017_2019, 'from 2017 to 2019'),
      v('between 2017 and 2019', YEARS_2017_2019),
      v('2017-2019', YEARS_2017_2019),
      v('sales 2017–2019 by region', YEARS_2017_2019, '2017–2019'),
      v('rainfall from 2017 to 2019 at enterprise sites', YEARS_2017_2019, 'from 2017 to 2019'),
      v('revenue 2017 through 2019', YEARS_2017_2019, '2017 through 2019'),
      v('de 2017 a 2019', YEARS_2017_2019),
      v('entre 2017 y 2019', YEARS_2017_2019),
      v('de 2017 à 2019', YEARS_2017_2019),
      v('entre 2017 et 2019', YEARS_2017_2019),
      v('von 2017 bis 2019', YEARS_2017_2019),
      v('zwischen 2017 und 2019', YEARS_2017_2019),
      v('entre 2017 e 2019', YEARS_2017_2019),
      v('from 2019 to 2019', ['2019', '2019-01-01', '2020-01-01']),
    ]);
  });

  it('does not read dates, identifiers, seasons, comparisons, changes or amounts as ranges', () => {
    expectNone([
      'on 2024-03-15',
      'order ABC-2017-2019',
      'SKU 2017-2019-A',
      'the 2024-2025 season',
      'the 2024–2025 season',
      'compare 2023 to 2024',
      'revenue 2017 to 2019 vs 2014 to 2016',
      'how did revenue change from 2018 to 2019',
      'revenue growth between 2017 and 2019',
      'Umsatzwachstum von 2018 bis 2019',
      'crecimiento de ventas de enero a junio de 2019',
      'évolution du chiffre d’affaires de janvier à juin 2019',
      'variação das vendas entre 2017 e 2019',
      'revenue trend from Jan to Jun 2019',
      'between 2000 and 2050 units',
      'orders over 2000 to 2050',
    ]);
  });
});

describe('open ranges', () => {
  it('runs from the start of the named unit to tomorrow', () => {
    expectPeriods([
      v('revenue since March 2019', SINCE_MARCH_2019, 'since March 2019'),
      v('since 2019', SINCE_2019),
      v('since Q2 2024', ['since_2024_q2', '2024-04-01', '2025-06-19']),
      v('since H2 2023', ['since_2023_h2', '2023-07-01', '2025-06-19']),
      v('since the first half of last year', ['since_last_year_h1', '2024-01-01', '2025-06-19']),
      v('since last year', ['since_last_year', '2024-01-01', '2025-06-19']),
      v('since last month', ['since_last_month', '2025-05-01', '2025-06-19']),
      v('since yesterday', ['since_yesterday', '2025-06-17', '2025-06-19']),
      v('from March 2019 to today', SINCE_MARCH_2019),
      v('from 2019 until now', SINCE_2019),
      v('revenue from 2019 onwards by region', SINCE_2019, 'from 2019 onwards'),
      v('from March 2019 onward', SINCE_MARCH_2019),
      v('since 2019 onwards', SINCE_2019),
      v('de 2019 en adelante', SINCE_2019),
      v('de março de 2019 em diante', SINCE_MARCH_2019),
      // A month alone after "since" is the latest one that has begun; "last March" is before this month.
      v('since March', ['since_2025_03', '2025-03-01', '2025-06-19']),
      v('since June', ['since_2025_06', '2025-06-01', '2025-06-19']),
      v('since last June', ['since_2024_06', '2024-06-01', '2025-06-19']),
      v('since last March', ['since_2025_03', '2025-03-01', '2025-06-19']),
      v('since September', ['since_2024_09', '2024-09-01', '2025-06-19']),
      v('desde marzo', ['since_2025_03', '2025-03-01', '2025-06-19']),
      v('seit März', ['since_2025_03', '2025-03-01', '2025-06-19']),
    ]);
    expectNone(['from March', 'revenue from June', 'until March', 'tickets since March 3', 'since March 3, 2019', 'between March and May 15']);
  });

  it('reads open ranges in Spanish, French, German and Portuguese', () => {
    expectPeriods([
      v('ventas desde marzo de 2019', SINCE_MARCH_2019, 'desde marzo de 2019'),
      v('desde 2019', SINCE_2019),
      v('a partir de marzo de 2019', SINCE_MARCH_2019),
      v('depuis mars 2019', SINCE_MARCH_2019),
      v('à partir de 2019', SINCE_2019),
      v("depuis l'année dernière", ['since_last_year', '2024-01-01', '2025-06-19']),
      v('Umsatz seit März 2019', SINCE_MARCH_2019, 'seit März 2019'),
      v('seit 2019', SINCE_2019),
      v('ab Q2 2024', ['since_2024_q2', '2024-04-01', '2025-06-19']),
      v('seit letztem Jahr', ['since_last_year', '2024-01-01', '2025-06-19']),
      v('vendas desde março de 2019', SINCE_MARCH_2019, 'desde março de 2019'),
      v('desde 2019 até hoje', SINCE_2019),
      v('since the start of 2019', SINCE_2019),
      v('revenue from the beginning of March 2019', SINCE_MARCH_2019, 'from the beginning of March 2019'),
      v('desde el inicio de 2019', SINCE_2019),
      v('depuis le début de 2019', SINCE_2019),
      v('seit Anfang 2019', SINCE_2019),
      v('seit Beginn des Jahres 2019', SINCE_2019),
      v('desde o início de 2019', SINCE_2019),
    ]);
    // The to-date forms keep their own token.
    expectPeriods([
      v("depuis le début de l'année", ['year_to_date', '2025-01-01', '2025-06-19']),
      v('seit Beginn des Jahres', ['year_to_date', '2025-01-01', '2025-06-19']),
    ]);
  });

  it('refuses periods bounded on one side only, or starting after today', () => {
    expectNone([
      'since 2030',
      'revenue before 2020',
      'until March 2019',
      'orders after Q2 2024',
      'up to 2019',
      'antes de 2020',
      'hasta marzo de 2019',
      'avant 2020',
      'jusqu’en 2019',
      'vor 2020',
      'bis März 2019',
      'até 2019',
      'depois de 2019',
    ]);
  });
});

describe('days', () => {
  it('refuses a day rather than reading its month or year', () => {
    expectNone([
      'revenue on May 3, 2019',
      'orders on March 15th 2019',
      'orders on 3 May 2019',
      'ventas del 3 de mayo de 2019',
      'ventes du 3 mai 2019',
      'Umsatz am 3. März 2019',
      'vendas de 3 de maio de 2019',
      'from May 3, 2019 to May 9, 2019',
    ]);
  });

  it('still reads a month after a count', () => {
    expectPeriods([v('top 5 products in March 2019', ['2019_03', '2019-03-01', '2019-04-01'], 'in March 2019')]);
  });
});

describe('reversed ranges', () => {
  it('names no period, and reads no part of the range either', () => {
    expectNone([
      'from June to January 2019',
      'revenue from June 2019 to January 2019',
      'from Q3 to Q1 2019',
      'from 2019 to 2017',
      'de junio a enero de 2019',
      'zwischen 2019 und 2017',
    ]);
  });
});

describe('matching', () => {
  it('ignores case and accents, and returns the phrase as written', () => {
    expectPeriods([
      v('PRIMER SEMESTRE DE 2019', H1_2019),
      v('Première Moitié De 2019', H1_2019),
      v('premiere moitie de 2019', H1_2019),
      v('Umsatz ZWISCHEN MÄRZ UND MAI 2019', MAR_MAY_2019, 'ZWISCHEN MÄRZ UND MAI 2019'),
      v('zwischen Marz und Mai 2019', MAR_MAY_2019),
      v('DESDE MARÇO DE 2019', SINCE_MARCH_2019),
      v('Jan–JUN 2019', JAN_JUN_2019),
      v('ERSTE JAHRESHÄLFTE 2019', H1_2019),
    ]);
  });

  it('keeps the first period when several appear', () => {
    expectPeriods([
      v('H1 2019 vs H1 2018', H1_2019, 'H1 2019'),
      v('revenue since 2019 and last month', SINCE_2019, 'since 2019'),
      v('last month and since 2019', ['last_month', '2025-05-01', '2025-06-01'], 'last month'),
    ]);
  });
});

describe('time zones', () => {
  it('decides which half has begun in the workspace time zone', () => {
    // 2025-06-30 20:00 UTC is already July 1 in Auckland: its second half has begun.
    const lastDayOfJune = new Date('2025-06-30T20:00:00Z');
    expectPeriods([v('second half', LAST_H2)], { now: lastDayOfJune, timezone: 'UTC' });
    expectPeriods([v('second half', ['this_year_h2', '2025-07-01', '2025-07-02'])], { now: lastDayOfJune, timezone: 'Pacific/Auckland' });
  });

  it('ends open ranges tomorrow there, and picks the latest range that has begun there', () => {
    const early = new Date('2025-06-18T05:00:00Z');
    expectPeriods([v('since 2019', ['since_2019', '2019-01-01', '2025-06-18'])], { now: early, timezone: 'America/Los_Angeles' });
    const endOfFebruary = new Date('2025-02-28T23:30:00Z');
    expectPeriods([v('between March and May', ['2024_03..2024_05', '2024-03-01', '2024-06-01'])], { now: endOfFebruary, timezone: 'UTC' });
    expectPeriods([v('between March and May', ['2025_03..2025_05', '2025-03-01', '2025-06-01'])], { now: endOfFebruary, timezone: 'Europe/Paris' });
  });
});

describe('the phrase', () => {
  const MONTH_WORD = new RegExp(`(?<![\\p{L}])(?:${Object.keys(MONTH_NAMES).filter((m) => m.length > 3).join('|')})(?![\\p{L}])`, 'iu');

  it('takes every word of the period, so none is left for the planner', () => {
    for (const question of [
      'revenue from January to June 2019 by region',
      'revenue between March and May by region',
      'revenue in the first half of 2019 by region',
      'revenue Jan–Jun 2019 by region',
      'revenue from Q1 to Q3 2019 by region',
      'revenue between 2017 and 2019 by region',
      'revenue since March 2019 by region',
      'ventas de enero a junio de 2019 by region',
      'ventes entre mars et mai 2019 by region',
      'Umsatz von Januar bis Juni 2019 by region',
      'vendas do primeiro semestre do ano passado by region',
    ]) {
      const period = findPeriod(question, UTC);
      expect(period, question).toBeDefined();
      const rest = question.replace(period!.phrase, ' ');
      expect(rest, question).not.toMatch(MONTH_WORD);
      expect(rest, question).not.toMatch(/\d|\b(?:q|t|h)\d\b|half|semestre|halbjahr|between|entre|zwischen|since|desde|seit|depuis/iu);
    }
  });
});

describe('tokens', () => {
  it('documents every token of halves and ranges', () => {
    const questions = [
      'H1 2019', 'first half of last year', 'first half of this year', 'second half', 'Jan-Jun 2019',
      'Q1-Q3 2019', '2017-2019', 'since 2019', 'since March 2019', 'since Q2 2024', 'since H1 2024',
      'since last week', 'since last month', 'since last quarter', 'since last year', 'since yesterday',
      'since the second half of last year', 'since March', 'H2 2019 to H1 2020',
    ];
    for (const question of questions) {
      const token = findPeriod(question, UTC)?.token ?? `none for ${question}`;
      expect(isPeriodToken(token), `${question}: ${token}`).toBe(true);
    }
  });

  it('holds for questions built from range words', () => {
    const pieces = fc.constantFrom(
      'from', 'to', 'between', 'and', 'since', 'before', 'through', '-', '–', 'de', 'a', 'entre', 'y', 'desde', 'hasta',
      'à', 'et', 'depuis', 'von', 'bis', 'zwischen', 'und', 'seit', 'até', 'e', 'January', 'June', 'mars', 'Mai', 'Q1',
      'Q3', 'T2', 'H1', 'H2', 'S1', 'first', 'second', 'half', 'semestre', 'Halbjahr', 'of', 'last', 'this', 'year',
      '2017', '2019', '2024', '2030', '03', 'today', 'the',
    );
    const questions = fc.array(pieces, { maxLength: 8 }).map((words) => words.join(' '));
    const instants = fc.date({ min: new Date('1995-01-01T00:00:00Z'), max: new Date('2095-12-31T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(questions, instants, (question, now) => {
        const period = findPeriod(question, { now, timezone: 'Europe/Paris' });
        if (!period) return;
        expect(period.start < period.end, question).toBe(true);
        expect(question.includes(period.phrase)).toBe(true);
        expect(isPeriodToken(period.token), `${question}: ${period.token}`).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});
