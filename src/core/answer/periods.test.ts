// The period grammar: the vectors of the design notes, every phrase form in each language, time zones,
// calendar boundaries, numbers that are not years, and properties over random text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPeriod, isPeriodToken } from './periods.js';
import { NOW, UTC, expectPeriods } from './test-helpers.js';

/** A token is either fixed or follows one of the documented shapes. */
const isDocumentedToken = isPeriodToken;

describe('vectors of the design notes (now = Wed 2025-06-18, UTC)', () => {
  it('resolves every phrase of the table', () => {
    expectPeriods([
      ['today', 'today', '2025-06-18', '2025-06-19'],
      ['yesterday', 'yesterday', '2025-06-17', '2025-06-18'],
      ['this week', 'this_week', '2025-06-16', '2025-06-19'],
      ['week to date', 'week_to_date', '2025-06-16', '2025-06-19'],
      ['last week', 'last_week', '2025-06-09', '2025-06-16'],
      ['last 7 days', 'last_7_days', '2025-06-11', '2025-06-18'],
      ['last 30 days', 'last_30_days', '2025-05-19', '2025-06-18'],
      ['this month', 'this_month', '2025-06-01', '2025-06-19'],
      ['last month', 'last_month', '2025-05-01', '2025-06-01'],
      ['this quarter', 'this_quarter', '2025-04-01', '2025-06-19'],
      ['last quarter', 'last_quarter', '2025-01-01', '2025-04-01'],
      ['year to date', 'year_to_date', '2025-01-01', '2025-06-19'],
      ['last year', 'last_year', '2024-01-01', '2025-01-01'],
      ['March 2025', '2025_03', '2025-03-01', '2025-04-01'],
      ['Q2 2024', '2024_q2', '2024-04-01', '2024-07-01'],
      ['2024', '2024', '2024-01-01', '2025-01-01'],
    ]);
  });
});

describe('English', () => {
  it('finds the period inside a question and returns the words as written', () => {
    expectPeriods([
      ['Revenue TODAY by channel', 'today', '2025-06-18', '2025-06-19', 'TODAY'],
      ["What was yesterday's revenue?", 'yesterday', '2025-06-17', '2025-06-18', 'yesterday'],
      ['orders this week', 'this_week', '2025-06-16', '2025-06-19', 'this week'],
      ['orders for the current week', 'this_week', '2025-06-16', '2025-06-19', 'for the current week'],
      ['revenue last week by region', 'last_week', '2025-06-09', '2025-06-16', 'last week'],
      ['revenue in the previous week', 'last_week', '2025-06-09', '2025-06-16', 'in the previous week'],
      ["this month's signups", 'this_month', '2025-06-01', '2025-06-19', "this month's"],
      ['churn over the past month', 'last_month', '2025-05-01', '2025-06-01', 'over the past month'],
      ['revenue this quarter', 'this_quarter', '2025-04-01', '2025-06-19', 'this quarter'],
      ['revenue prior quarter', 'last_quarter', '2025-01-01', '2025-04-01', 'prior quarter'],
      ['sales this year', 'this_year', '2025-01-01', '2025-06-19', 'this year'],
      ['sales last year', 'last_year', '2024-01-01', '2025-01-01', 'last year'],
    ]);
  });

  it('reads the to-date forms and their abbreviations', () => {
    expectPeriods([
      ['WTD revenue', 'week_to_date', '2025-06-16', '2025-06-19', 'WTD'],
      ['revenue MTD', 'month_to_date', '2025-06-01', '2025-06-19', 'MTD'],
      ['month-to-date revenue', 'month_to_date', '2025-06-01', '2025-06-19', 'month-to-date'],
      ['qtd', 'quarter_to_date', '2025-04-01', '2025-06-19'],
      ['quarter to date', 'quarter_to_date', '2025-04-01', '2025-06-19'],
      ['YTD', 'year_to_date', '2025-01-01', '2025-06-19'],
      ['revenue this year to date', 'year_to_date', '2025-01-01', '2025-06-19', 'this year to date'],
    ]);
  });

  it('counts complete units and leaves the current one out', () => {
    expectPeriods([
      ['last 3 months', 'last_3_months', '2025-03-01', '2025-06-01'],
      ['past 7 days', 'last_7_days', '2025-06-11', '2025-06-18'],
      ['revenue over the past 2 weeks', 'last_2_weeks', '2025-06-02', '2025-06-16', 'over the past 2 weeks'],
      ['last 2 quarters', 'last_2_quarters', '2024-10-01', '2025-04-01'],
      ['previous 3 years', 'last_3_years', '2022-01-01', '2025-01-01'],
      ['last 1 day', 'last_1_days', '2025-06-17', '2025-06-18'],
      ['last 12 months', 'last_12_months', '2024-06-01', '2025-06-01'],
    ]);
  });

  it('ignores a count of zero', () => {
    expect(findPeriod('last 0 days', UTC)).toBeUndefined();
  });

  it('reads explicit months, quarters and years', () => {
    expectPeriods([
      ['Mar 2025', '2025_03', '2025-03-01', '2025-04-01'],
      ['revenue for Mar. 2025', '2025_03', '2025-03-01', '2025-04-01', 'for Mar. 2025'],
      ['September of 2024', '2024_09', '2024-09-01', '2024-10-01'],
      ['December, 2024', '2024_12', '2024-12-01', '2025-01-01'],
      ['2025-03', '2025_03', '2025-03-01', '2025-04-01'],
      ['orders 2024/12 by day', '2024_12', '2024-12-01', '2025-01-01', '2024/12'],
      ['03/2025', '2025_03', '2025-03-01', '2025-04-01'],
      ['2024 Q2', '2024_q2', '2024-04-01', '2024-07-01'],
      ['2024-Q4', '2024_q4', '2024-10-01', '2025-01-01'],
      ['q1/2025', '2025_q1', '2025-01-01', '2025-04-01'],
      ['second quarter of 2024', '2024_q2', '2024-04-01', '2024-07-01'],
      ['4th quarter 2023', '2023_q4', '2023-10-01', '2024-01-01'],
      ['in 2024', '2024', '2024-01-01', '2025-01-01'],
      ['revenue during 2023 by month', '2023', '2023-01-01', '2024-01-01', 'during 2023'],
      ['in the year 2022', '2022', '2022-01-01', '2023-01-01'],
    ]);
  });

  it('returns nothing when no period is named', () => {
    for (const question of ['revenue by channel', 'top customers', '', 'weekend orders', 'last weekend', 'monthly revenue']) {
      expect(findPeriod(question, UTC), question).toBeUndefined();
    }
  });
});

describe('Spanish', () => {
  it('reads the common forms', () => {
    expectPeriods([
      ['ventas de hoy', 'today', '2025-06-18', '2025-06-19', 'de hoy'],
      ['ventas de ayer', 'yesterday', '2025-06-17', '2025-06-18', 'de ayer'],
      ['pedidos esta semana', 'this_week', '2025-06-16', '2025-06-19', 'esta semana'],
      ['pedidos de la semana pasada', 'last_week', '2025-06-09', '2025-06-16', 'de la semana pasada'],
      ['ventas este mes', 'this_month', '2025-06-01', '2025-06-19', 'este mes'],
      ['ventas del mes pasado', 'last_month', '2025-05-01', '2025-06-01', 'del mes pasado'],
      ['ventas del trimestre anterior', 'last_quarter', '2025-01-01', '2025-04-01', 'del trimestre anterior'],
      ['ventas este año', 'this_year', '2025-01-01', '2025-06-19', 'este año'],
      ['ventas del año pasado', 'last_year', '2024-01-01', '2025-01-01', 'del año pasado'],
      ['ventas últimos 7 días', 'last_7_days', '2025-06-11', '2025-06-18', 'últimos 7 días'],
      ['ventas de los últimos 3 meses', 'last_3_months', '2025-03-01', '2025-06-01', 'de los últimos 3 meses'],
      ['ventas en lo que va del año', 'year_to_date', '2025-01-01', '2025-06-19', 'en lo que va del año'],
      ['ventas de marzo de 2025', '2025_03', '2025-03-01', '2025-04-01', 'de marzo de 2025'],
      ['ventas T2 2024', '2024_q2', '2024-04-01', '2024-07-01', 'T2 2024'],
      ['ventas del 2º trimestre de 2024', '2024_q2', '2024-04-01', '2024-07-01', 'del 2º trimestre de 2024'],
      ['segundo trimestre de 2024', '2024_q2', '2024-04-01', '2024-07-01'],
      ['ventas en 2024', '2024', '2024-01-01', '2025-01-01', 'en 2024'],
    ]);
  });
});

describe('French', () => {
  it('reads the common forms', () => {
    expectPeriods([
      ["chiffre d'affaires aujourd'hui", 'today', '2025-06-18', '2025-06-19', "aujourd'hui"],
      ['ventes d’hier', 'yesterday', '2025-06-17', '2025-06-18', 'hier'],
      ['ventes cette semaine', 'this_week', '2025-06-16', '2025-06-19', 'cette semaine'],
      ['ventes de la semaine dernière', 'last_week', '2025-06-09', '2025-06-16', 'de la semaine dernière'],
      ['ventes ce mois-ci', 'this_month', '2025-06-01', '2025-06-19', 'ce mois-ci'],
      ['ventes du mois dernier', 'last_month', '2025-05-01', '2025-06-01', 'du mois dernier'],
      ['ventes le trimestre précédent', 'last_quarter', '2025-01-01', '2025-04-01', 'le trimestre précédent'],
      ['ventes cette année', 'this_year', '2025-01-01', '2025-06-19', 'cette année'],
      ["ventes de l'année dernière", 'last_year', '2024-01-01', '2025-01-01', "de l'année dernière"],
      ["ventes de l’an dernier", 'last_year', '2024-01-01', '2025-01-01', 'de l’an dernier'],
      ['ventes les 7 derniers jours', 'last_7_days', '2025-06-11', '2025-06-18', 'les 7 derniers jours'],
      ['sur les 2 dernières semaines', 'last_2_weeks', '2025-06-02', '2025-06-16'],
      ["depuis le début de l'année", 'year_to_date', '2025-01-01', '2025-06-19'],
      ['ventes de mars 2025', '2025_03', '2025-03-01', '2025-04-01', 'de mars 2025'],
      ['ventes août 2024', '2024_08', '2024-08-01', '2024-09-01', 'août 2024'],
      ['ventes T2 2024', '2024_q2', '2024-04-01', '2024-07-01', 'T2 2024'],
      ['deuxième trimestre 2024', '2024_q2', '2024-04-01', '2024-07-01'],
      ['1er trimestre 2025', '2025_q1', '2025-01-01', '2025-04-01'],
      ['ventes en 2024', '2024', '2024-01-01', '2025-01-01', 'en 2024'],
    ]);
  });

  it('does not read "avant-hier" as yesterday', () => {
    expect(findPeriod('ventes avant-hier', UTC)).toBeUndefined();
  });
});

describe('German', () => {
  it('reads the common forms', () => {
    expectPeriods([
      ['Umsatz heute', 'today', '2025-06-18', '2025-06-19', 'heute'],
      ['Umsatz gestern', 'yesterday', '2025-06-17', '2025-06-18', 'gestern'],
      ['Umsatz diese Woche', 'this_week', '2025-06-16', '2025-06-19', 'diese Woche'],
      ['Umsatz letzte Woche', 'last_week', '2025-06-09', '2025-06-16', 'letzte Woche'],
      ['Umsatz letzten Monat', 'last_month', '2025-05-01', '2025-06-01', 'letzten Monat'],
      ['Umsatz im letzten Monat', 'last_month', '2025-05-01', '2025-06-01', 'im letzten Monat'],
      ['Umsatz im Vormonat', 'last_month', '2025-05-01', '2025-06-01', 'im Vormonat'],
      ['Umsatz dieses Quartal', 'this_quarter', '2025-04-01', '2025-06-19', 'dieses Quartal'],
      ['Umsatz dieses Jahr', 'this_year', '2025-01-01', '2025-06-19', 'dieses Jahr'],
      ['Umsatz letztes Jahr', 'last_year', '2024-01-01', '2025-01-01', 'letztes Jahr'],
      ['Umsatz letzte 7 Tage', 'last_7_days', '2025-06-11', '2025-06-18', 'letzte 7 Tage'],
      ['Umsatz in den letzten 7 Tagen', 'last_7_days', '2025-06-11', '2025-06-18', 'in den letzten 7 Tagen'],
      ['Umsatz seit Jahresbeginn', 'year_to_date', '2025-01-01', '2025-06-19', 'seit Jahresbeginn'],
      ['Umsatz im März 2025', '2025_03', '2025-03-01', '2025-04-01', 'im März 2025'],
      ['Umsatz im Q2 2024', '2024_q2', '2024-04-01', '2024-07-01', 'im Q2 2024'],
      ['Umsatz im 2. Quartal 2024', '2024_q2', '2024-04-01', '2024-07-01', 'im 2. Quartal 2024'],
      ['zweites Quartal 2024', '2024_q2', '2024-04-01', '2024-07-01'],
      ['Umsatz im Jahr 2024', '2024', '2024-01-01', '2025-01-01', 'im Jahr 2024'],
    ]);
  });
});

describe('Portuguese', () => {
  it('reads the common forms', () => {
    expectPeriods([
      ['vendas de hoje', 'today', '2025-06-18', '2025-06-19', 'de hoje'],
      ['vendas de ontem', 'yesterday', '2025-06-17', '2025-06-18', 'de ontem'],
      ['vendas esta semana', 'this_week', '2025-06-16', '2025-06-19', 'esta semana'],
      ['vendas da semana passada', 'last_week', '2025-06-09', '2025-06-16', 'da semana passada'],
      ['vendas este mês', 'this_month', '2025-06-01', '2025-06-19', 'este mês'],
      ['vendas do mês passado', 'last_month', '2025-05-01', '2025-06-01', 'do mês passado'],
      ['vendas do trimestre passado', 'last_quarter', '2025-01-01', '2025-04-01', 'do trimestre passado'],
      ['vendas este ano', 'this_year', '2025-01-01', '2025-06-19', 'este ano'],
      ['vendas do ano passado', 'last_year', '2024-01-01', '2025-01-01', 'do ano passado'],
      ['vendas últimos 7 dias', 'last_7_days', '2025-06-11', '2025-06-18', 'últimos 7 dias'],
      ['vendas nos últimos 3 meses', 'last_3_months', '2025-03-01', '2025-06-01', 'nos últimos 3 meses'],
      ['vendas acumulado do ano', 'year_to_date', '2025-01-01', '2025-06-19', 'acumulado do ano'],
      ['vendas de março de 2025', '2025_03', '2025-03-01', '2025-04-01', 'de março de 2025'],
      ['vendas 2º trimestre de 2024', '2024_q2', '2024-04-01', '2024-07-01', '2º trimestre de 2024'],
      ['vendas no ano de 2024', '2024', '2024-01-01', '2025-01-01', 'no ano de 2024'],
    ]);
  });
});

describe('Italian', () => {
  it('reads the common forms', () => {
    expectPeriods([
      ['vendite di oggi', 'today', '2025-06-18', '2025-06-19', 'di oggi'],
      ['vendite di ieri', 'yesterday', '2025-06-17', '2025-06-18', 'di ieri'],
      ['ordini questa settimana', 'this_week', '2025-06-16', '2025-06-19', 'questa settimana'],
      ['ordini della settimana scorsa', 'last_week', '2025-06-09', '2025-06-16', 'della settimana scorsa'],
      ['vendite questo mese', 'this_month', '2025-06-01', '2025-06-19', 'questo mese'],
      ['vendite del mese in corso', 'this_month', '2025-06-01', '2025-06-19', 'del mese in corso'],
      ['vendite il mese scorso', 'last_month', '2025-05-01', '2025-06-01', 'il mese scorso'],
      ['vendite del trimestre precedente', 'last_quarter', '2025-01-01', '2025-04-01', 'del trimestre precedente'],
      ["vendite quest'anno", 'this_year', '2025-01-01', '2025-06-19', "quest'anno"],
      ['vendite quest’anno', 'this_year', '2025-01-01', '2025-06-19', 'quest’anno'],
      ["vendite l'anno scorso", 'last_year', '2024-01-01', '2025-01-01', "l'anno scorso"],
      ["vendite dell'anno scorso", 'last_year', '2024-01-01', '2025-01-01', "dell'anno scorso"],
      ['vendite lo scorso anno', 'last_year', '2024-01-01', '2025-01-01', 'lo scorso anno'],
      ['vendite negli ultimi 7 giorni', 'last_7_days', '2025-06-11', '2025-06-18', 'negli ultimi 7 giorni'],
      ['vendite degli ultimi 3 mesi', 'last_3_months', '2025-03-01', '2025-06-01', 'degli ultimi 3 mesi'],
      ['vendite da inizio anno', 'year_to_date', '2025-01-01', '2025-06-19', 'da inizio anno'],
      ["vendite dall'inizio dell'anno", 'year_to_date', '2025-01-01', '2025-06-19', "dall'inizio dell'anno"],
      ['vendite dall’inizio del mese', 'month_to_date', '2025-06-01', '2025-06-19', 'dall’inizio del mese'],
      ['vendite di maggio 2025', '2025_05', '2025-05-01', '2025-06-01', 'di maggio 2025'],
      ['vendite a gennaio del 2025', '2025_01', '2025-01-01', '2025-02-01', 'a gennaio del 2025'],
      ['vendite nel primo trimestre del 2025', '2025_q1', '2025-01-01', '2025-04-01', 'nel primo trimestre del 2025'],
      ['vendite nel terzo trimestre 2024', '2024_q3', '2024-07-01', '2024-10-01', 'nel terzo trimestre 2024'],
      ['vendite nel 2024', '2024', '2024-01-01', '2025-01-01', 'nel 2024'],
      ["vendite nell'anno 2024", '2024', '2024-01-01', '2025-01-01', "nell'anno 2024"],
      ['vendite nel primo semestre del 2024', '2024_h1', '2024-01-01', '2024-07-01', 'nel primo semestre del 2024'],
      ['vendite nel secondo semestre 2024', '2024_h2', '2024-07-01', '2025-01-01', 'nel secondo semestre 2024'],
      ['vendite da gennaio a giugno 2024', '2024_01..2024_06', '2024-01-01', '2024-07-01', 'da gennaio a giugno 2024'],
      ['vendite tra marzo e maggio 2025', '2025_03..2025_05', '2025-03-01', '2025-06-01', 'tra marzo e maggio 2025'],
      ['vendite dal marzo 2024', 'since_2024_03', '2024-03-01', '2025-06-19', 'dal marzo 2024'],
      ['vendite a partire da marzo 2024', 'since_2024_03', '2024-03-01', '2025-06-19', 'a partire da marzo 2024'],
    ]);
  });

  it('reads to-date and open forms, and refuses a period bounded on one side', () => {
    expectPeriods([
      ['anno fino ad oggi', 'year_to_date', '2025-01-01', '2025-06-19'],
      ['vendite dal 2024 in poi', 'since_2024', '2024-01-01', '2025-06-19', 'dal 2024 in poi'],
    ]);
    expect(findPeriod('vendite prima del 2024', UTC)).toBeUndefined();
  });

  it('leaves Portuguese "da" (of the) a plain preposition, not "since"', () => {
    expectPeriods([['vendas da semana passada', 'last_week', '2025-06-09', '2025-06-16', 'da semana passada']]);
  });
});

describe('matching', () => {
  it('ignores case and accents but returns the phrase as written', () => {
    expectPeriods([
      ['ÚLTIMOS 7 DÍAS', 'last_7_days', '2025-06-11', '2025-06-18'],
      ['ultimos 7 dias', 'last_7_days', '2025-06-11', '2025-06-18'],
      ['Umsatz MARZ 2025', '2025_03', '2025-03-01', '2025-04-01', 'MARZ 2025'],
      ['LA SEMAINE DERNIERE', 'last_week', '2025-06-09', '2025-06-16'],
      ['İn 2024', '2024', '2024-01-01', '2025-01-01'],
    ]);
  });

  it('returns the first period when several appear', () => {
    expectPeriods([
      ['last week vs last month', 'last_week', '2025-06-09', '2025-06-16', 'last week'],
      ['revenue 2024 vs 2023', '2024', '2024-01-01', '2025-01-01', '2024'],
      ['Q1 2024 compared with this quarter', '2024_q1', '2024-01-01', '2024-04-01', 'Q1 2024'],
    ]);
  });

  it('prefers the longest reading at the same place', () => {
    expectPeriods([
      ['2024 Q3 revenue', '2024_q3', '2024-07-01', '2024-10-01', '2024 Q3'],
      ['in 2025-03', '2025_03', '2025-03-01', '2025-04-01'],
    ]);
  });
});

describe('years', () => {
  it('takes a four-digit number 1990–2100 standing alone or after in/for/during', () => {
    expectPeriods([
      ['revenue 2024', '2024', '2024-01-01', '2025-01-01', '2024'],
      ['2024 customers', '2024', '2024-01-01', '2025-01-01', '2024'],
      ['revenue (2023) by region', '2023', '2023-01-01', '2024-01-01', '2023'],
      ['for 1990, revenue', '1990', '1990-01-01', '1991-01-01', 'for 1990'],
      ['2100', '2100', '2100-01-01', '2101-01-01'],
    ]);
  });

  it('does not take numbers that are quantities, identifiers or out of range', () => {
    for (const question of [
      'top 10 products',
      '1500 orders',
      'order 2024-ABC',
      'ORD2024 status',
      'top 2000 customers',
      'orders over 2050',
      'more than 2000 orders',
      '2000 units sold',
      'revenue above $2024',
      'ticket #2024',
      'order 2024',
      '1989',
      '2101',
      'revenue 2024.5',
      '2024%',
      'the 2024-2025 season',
      'mid-2024',
      'on 2024-03-15',
      'el 15/03/2025',
      'más de 2000 pedidos',
      'mehr als 2000 Bestellungen',
    ]) {
      expect(findPeriod(question, UTC), question).toBeUndefined();
    }
  });
});

describe('time zones', () => {
  it('takes "today" in the workspace time zone', () => {
    const early = new Date('2025-06-18T05:00:00Z');
    expectPeriods([['today', 'today', '2025-06-17', '2025-06-18']], { now: early, timezone: 'America/Los_Angeles' });
    expectPeriods([['today', 'today', '2025-06-18', '2025-06-19']], { now: early, timezone: 'UTC' });
    const late = new Date('2025-06-18T20:00:00Z');
    expectPeriods([['yesterday', 'yesterday', '2025-06-18', '2025-06-19']], { now: late, timezone: 'Asia/Tokyo' });
  });

  it('moves week, month and year boundaries with the zone', () => {
    // Sunday 2025-06-22 23:30 in UTC is already Monday 06-23 in Paris: a new week there.
    const sundayNight = new Date('2025-06-22T23:30:00Z');
    expectPeriods([['this week', 'this_week', '2025-06-16', '2025-06-23']], { now: sundayNight, timezone: 'UTC' });
    expectPeriods([['this week', 'this_week', '2025-06-23', '2025-06-24']], { now: sundayNight, timezone: 'Europe/Paris' });
    // New Year in Auckland while it is still 2024 in UTC.
    const newYear = new Date('2024-12-31T12:00:00Z');
    expectPeriods([['last year', 'last_year', '2024-01-01', '2025-01-01']], { now: newYear, timezone: 'Pacific/Auckland' });
    expectPeriods([['last year', 'last_year', '2023-01-01', '2024-01-01']], { now: newYear, timezone: 'UTC' });
  });

  it('counts whole calendar days across a daylight-saving change', () => {
    // Clocks in Paris jumped on 2025-03-30; the day before still counts as one day.
    const afterChange = new Date('2025-03-31T08:00:00Z');
    expectPeriods([['yesterday', 'yesterday', '2025-03-30', '2025-03-31']], { now: afterChange, timezone: 'Europe/Paris' });
    expectPeriods([['last 2 days', 'last_2_days', '2025-03-29', '2025-03-31']], { now: afterChange, timezone: 'Europe/Paris' });
  });

  it('rejects an unknown time zone', () => {
    expect(() => findPeriod('today', { now: NOW, timezone: 'Mars/Olympus' })).toThrow(/time zone/);
  });
});

describe('calendar boundaries', () => {
  it('reaches into the previous year in January', () => {
    const january = { now: new Date('2025-01-15T12:00:00Z'), timezone: 'UTC' };
    expectPeriods(
      [
        ['last quarter', 'last_quarter', '2024-10-01', '2025-01-01'],
        ['last month', 'last_month', '2024-12-01', '2025-01-01'],
        ['this quarter', 'this_quarter', '2025-01-01', '2025-01-16'],
        ['last 3 months', 'last_3_months', '2024-10-01', '2025-01-01'],
        ['last 2 quarters', 'last_2_quarters', '2024-07-01', '2025-01-01'],
      ],
      january,
    );
  });

  it('keeps ISO weeks (Monday first) across a year boundary', () => {
    // Wednesday 2025-01-01: its week began on Monday 2024-12-30.
    const newYearsDay = { now: new Date('2025-01-01T12:00:00Z'), timezone: 'UTC' };
    expectPeriods(
      [
        ['this week', 'this_week', '2024-12-30', '2025-01-02'],
        ['last week', 'last_week', '2024-12-23', '2024-12-30'],
        ['yesterday', 'yesterday', '2024-12-31', '2025-01-01'],
        ['year to date', 'year_to_date', '2025-01-01', '2025-01-02'],
      ],
      newYearsDay,
    );
    // Sunday 2021-01-03 belongs to the ISO week that began on Monday 2020-12-28.
    expectPeriods([['this week', 'this_week', '2020-12-28', '2021-01-04']], { now: new Date('2021-01-03T12:00:00Z'), timezone: 'UTC' });
  });

  it('knows leap days and month lengths', () => {
    const marchFirst = { now: new Date('2024-03-01T12:00:00Z'), timezone: 'UTC' };
    expectPeriods(
      [
        ['yesterday', 'yesterday', '2024-02-29', '2024-03-01'],
        ['last month', 'last_month', '2024-02-01', '2024-03-01'],
        ['February 2024', '2024_02', '2024-02-01', '2024-03-01'],
      ],
      marchFirst,
    );
  });
});

describe('tokens', () => {
  it('documents every token the grammar returns', () => {
    const returned = [
      'today', 'yesterday', 'this week', 'last week', 'this month', 'last month', 'this quarter', 'last quarter',
      'this year', 'last year', 'WTD', 'MTD', 'QTD', 'YTD', 'last 7 days', 'last 2 weeks', 'last 3 months',
      'last 2 quarters', 'last 5 years', 'March 2025', 'Q2 2024', '2024',
    ].map((question) => findPeriod(question, UTC)?.token ?? `none for ${question}`);
    for (const token of returned) expect(isDocumentedToken(token), token).toBe(true);
    expect(new Set(returned).size).toBe(returned.length);
  });
});

describe('properties', () => {
  const DATE = /^\d{4}-\d{2}-\d{2}$/;

  function checkResult(question: string, options: { now: Date; timezone: string }): void {
    const period = findPeriod(question, options);
    if (!period) return;
    expect(period.start).toMatch(DATE);
    expect(period.end).toMatch(DATE);
    for (const day of [period.start, period.end]) expect(new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10)).toBe(day);
    expect(period.start < period.end).toBe(true);
    expect(question.includes(period.phrase)).toBe(true);
    expect(period.phrase.length).toBeGreaterThan(0);
    expect(isDocumentedToken(period.token)).toBe(true);
  }

  const instants = fc.date({ min: new Date('1995-01-01T00:00:00Z'), max: new Date('2095-12-31T00:00:00Z'), noInvalidDate: true });
  const zones = fc.constantFrom('UTC', 'America/Los_Angeles', 'Europe/Paris', 'Asia/Tokyo', 'Pacific/Auckland', 'Asia/Kolkata');

  it('never throws on random text, and any period is a valid, non-empty range', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), instants, zones, (question, now, timezone) => {
        checkResult(question, { now, timezone });
      }),
      { numRuns: 500 },
    );
  });

  it('holds for questions built from period words', () => {
    const pieces = fc.constantFrom(
      'last', 'past', 'this', 'week', 'month', 'quarter', 'year', 'to', 'date', 'YTD', 'Q2', 'T4', '2024', '1999', '2101',
      '9999', '0', '7', '12', 'days', 'días', 'últimos', 'derniers', 'jours', 'letzten', 'Tagen', 'de', 'in', 'the', 'l’',
      'année', 'mars', 'März', 'março', '-', '/', '.', ',', '2º', 'trimestre', 'Quartal', '2.', 'hier', 'heute', '$', '#',
    );
    const questions = fc.array(pieces, { maxLength: 8 }).chain((words) =>
      fc.array(fc.constantFrom(' ', '', '  '), { minLength: words.length, maxLength: words.length }).map((gaps) =>
        words.map((word, i) => word + gaps[i]).join(''),
      ),
    );
    fc.assert(
      fc.property(questions, instants, zones, (question, now, timezone) => {
        checkResult(question, { now, timezone });
      }),
      { numRuns: 1000 },
    );
  });
});
